#!/usr/bin/env bash
# make demo: start the sandbox with the demo seed, apply this quickstart
# against it with the locally built provider, show what it made, stop.
# No account and no network: the provider comes from a dev_overrides CLI
# configuration, never from the registry.
set -euo pipefail
bin=$1
terraform=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$here/.demo
rm -rf "$work"
mkdir -p "$work/config"

"$bin/tfgov-sandbox" --listen 127.0.0.1:0 --seed demo --quiet \
  --data "$work/sandbox.json" --env-file "$work/env" >"$work/sandbox.out" 2>"$work/sandbox.log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 100); do
  [ -s "$work/env" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "error: the sandbox did not start:" >&2
    cat "$work/sandbox.log" >&2
    exit 1
  fi
  sleep 0.1
done
[ -s "$work/env" ] || { echo "error: the sandbox did not write $work/env" >&2; exit 1; }
echo "==> Sandbox started (state in $work/sandbox.json):"
sed -n 's/^export /    /p' "$work/env" | sed 's/\(TFE_TOKEN=\).*/\1<redacted>/'
# shellcheck disable=SC1091
source "$work/env"

cat >"$work/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/tfgov/tfgov" = "$bin"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE=$work/terraformrc TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
tar -C "$here" --exclude=.demo --exclude=demo.sh -cf - . | tar -C "$work/config" -xf -

# Colour codes only for a terminal.
color=()
[ -t 1 ] || color=(-no-color)

echo "==> terraform apply"
echo "    (Terraform warns \"Provider development overrides are in effect\": expected, the demo runs the provider built in $bin instead of one from the registry.)"
"$terraform" -chdir="$work/config" apply -auto-approve -input=false "${color[@]}"
echo "==> What it made (the outputs are above)"
"$terraform" -chdir="$work/config" state list
echo "==> A second plan is empty:"
"$terraform" -chdir="$work/config" plan -detailed-exitcode -input=false "${color[@]}" >/dev/null && echo "    no changes"
