#!/usr/bin/env bash
# make demo: the first hour with tfgov, against the sandbox, with no account
# and no network.
#
#   demo.sh BIN TERRAFORM   start the sandbox (demo seed), apply this
#                           quickstart, then plan and apply a change as an
#                           update; leave the sandbox running
#   demo.sh --stop          stop the sandbox a demo left running (make demo-stop)
#
# Everything lives in .demo next to this script: the sandbox's data
# (sandbox.json), the Terraform state (config/terraform.tfstate) and demo.env,
# which a shell can source to run terraform by hand. A second `make demo`
# keeps them: it restarts the sandbox on its data (with the provider and
# sandbox just built), so its apply shows what changed since the last run
# (your edits of the quickstart, and the undoing of the last run's change)
# as updates, never the whole quickstart as new. `make clean` starts over.
# The provider comes from a dev_overrides CLI configuration, never from the
# registry.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$here/.demo

# stop_sandbox stops the sandbox whose pid is in .demo/sandbox.pid, if it
# still runs and is a tfgov-sandbox; it never touches another process.
stop_sandbox() {
  local pid
  [ -f "$work/sandbox.pid" ] || return 0
  pid=$(cat "$work/sandbox.pid")
  rm -f "$work/sandbox.pid"
  case "$(ps -p "$pid" -o comm= 2>/dev/null || true)" in
  *tfgov-sandbox*) ;;
  *) return 0 ;;
  esac
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "error: the sandbox (pid $pid) did not stop" >&2
  return 1
}

if [ "${1:-}" = --stop ]; then
  if [ -f "$work/sandbox.pid" ]; then
    stop_sandbox
    echo "Sandbox stopped. Its data and the Terraform state stay in $work: the next make demo carries on from them (make clean removes them)."
  else
    echo "No demo sandbox is running."
  fi
  exit 0
fi

bin=$1
terraform=$2
stop_sandbox # one left by the last make demo: restarted below with this build
mkdir -p "$work/config"

# The first run seeds the sandbox and keeps the seed's variables (the demo
# user's token, the organization, the IDs) in seed.env; a later run
# restarts the sandbox on its data, which keeps them valid, on a new port.
if [ -s "$work/sandbox.json" ] && [ -s "$work/seed.env" ]; then
  first=false
  args=()
else
  first=true
  rm -rf "$work"
  mkdir -p "$work/config"
  args=(--seed demo)
fi
rm -f "$work/sandbox.env"
"$bin/tfgov-sandbox" --listen 127.0.0.1:0 "${args[@]}" --quiet \
  --data "$work/sandbox.json" --env-file "$work/sandbox.env" </dev/null >"$work/sandbox.out" 2>"$work/sandbox.log" &
pid=$!
echo "$pid" >"$work/sandbox.pid"
for _ in $(seq 1 100); do
  [ -s "$work/sandbox.env" ] && break
  if ! kill -0 "$pid" 2>/dev/null; then
    rm -f "$work/sandbox.pid"
    echo "error: the sandbox did not start:" >&2
    cat "$work/sandbox.log" >&2
    $first || echo "(It ran on the data of an earlier make demo, $work/sandbox.json: make clean starts over.)" >&2
    exit 1
  fi
  sleep 0.1
done
[ -s "$work/sandbox.env" ] || { echo "error: the sandbox did not write $work/sandbox.env" >&2; exit 1; }
# If the demo fails from here on, say that the sandbox still runs.
trap 'echo "The sandbox is still running (pid $pid): make demo-stop stops it." >&2' ERR
if $first; then
  grep -v '^export TFE_ADDRESS=' "$work/sandbox.env" >"$work/seed.env"
fi
address=$(sed -n 's/^export TFE_ADDRESS=//p' "$work/sandbox.env" | tr -d "'\"")

cat >"$work/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "registry.terraform.io/tfgov/tfgov" = "$bin"
  }
  direct {}
}
EOF
{
  echo "# source this file to run terraform against the demo sandbox by hand:"
  echo "#   terraform -chdir=$work/config plan"
  echo "export TFE_ADDRESS=$address"
  grep '^export ' "$work/seed.env"
  echo "export TF_CLI_CONFIG_FILE=$work/terraformrc"
} >"$work/demo.env"
# shellcheck disable=SC1091
source "$work/demo.env"
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

if $first; then
  echo "==> Sandbox started on $address with the demo seed (pid $pid; its data in $work/sandbox.json):"
else
  echo "==> Sandbox restarted on $address (pid $pid) on the data of the last make demo ($work/sandbox.json); the Terraform state is kept too"
fi
sed -n 's/^export /    /p' "$work/demo.env" | sed 's/\(TFE_TOKEN=\).*/\1<redacted>/'

# The quickstart as it is now, next to the state of the last run.
find "$work/config" -mindepth 1 -maxdepth 1 ! -name 'terraform.tfstate*' ! -name .terraform -exec rm -rf {} +
tar -C "$here" --exclude=.demo --exclude=demo.sh -cf - . | tar -C "$work/config" -xf -

# Colour codes only for a terminal.
color=()
[ -t 1 ] || color=(-no-color)
tf() { "$terraform" -chdir="$work/config" "$@"; }

if $first; then
  echo "==> 1. terraform apply: the quickstart, from nothing"
else
  echo "==> 1. terraform apply: the quickstart as it is now, against the state of the last make demo (your edits since, and the undoing of the last run's change, show as updates)"
fi
echo "    (Terraform warns \"Provider development overrides are in effect\": expected, the demo runs the provider built in $bin instead of one from the registry.)"
tf apply -auto-approve -input=false "${color[@]}"
echo "==> What it made (the outputs are above)"
tf state list
# plan_is_empty: a plan right after an apply has nothing to do.
plan_is_empty() {
  if tf plan -detailed-exitcode -input=false "${color[@]}" "$@" >/dev/null; then
    echo "    no changes"
  else
    echo "error: the plan right after the apply is not empty" >&2
    return 1
  fi
}
echo "==> A second plan is empty:"
plan_is_empty

echo "==> 2. A change: the required-tags policy becomes advisory (-var required_tags_level=advisory). The plan updates it in place:"
tf plan -input=false -var required_tags_level=advisory -out=change.tfplan "${color[@]}"
echo "==> terraform apply change.tfplan: the saved plan, applied as planned (its outputs: terraform output)"
tf apply -input=false "${color[@]}" change.tfplan | sed '/^Outputs:$/,$d'
echo "==> terraform output policies"
tf output policies
echo "==> And a plan with the change is empty again:"
plan_is_empty -var required_tags_level=advisory
rm -f "$work/config/change.tfplan"
trap - ERR

root=$(cd "$here/../.." && pwd)
cat <<EOF

==> The sandbox is still running on $address (pid $pid).
Next steps:
  - Work by hand:    source $work/demo.env
                     terraform -chdir=$work/config plan -var required_tags_level=advisory
    (without the -var, the plan undoes step 2's change, as the next make demo does first)
  - Change the quickstart (examples/quickstart/*.tf, policies/) and run make demo again:
    the state is kept, so the plan shows your change as an update.
  - Destroy what the demo made:
                     source $work/demo.env && terraform -chdir=$work/config destroy
  - Stop the sandbox: make demo-stop (or kill $pid); its data and the state stay, and the
    next make demo restarts it on them. make clean removes them.
EOF
if [ -f "$root/docs/index.md" ]; then
  echo "  - Read: $root/docs/index.md (configuration, authentication), $root/docs/resources/ and the guides:"
  for g in "$root"/docs/guides/*.md; do
    [ -f "$g" ] && echo "      $g"
  done
fi
