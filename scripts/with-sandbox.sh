#!/usr/bin/env bash
# with-sandbox.sh SANDBOX_BIN COMMAND...: starts SANDBOX_BIN (tfgov-sandbox)
# as a separate process serving HTTPS on a free port with the demo
# organization, exports what it prints (TFE_HOSTNAME, TFE_TOKEN,
# TFE_ORGANIZATION, SSL_CERT_FILE) and SANDBOX_ADMIN_TOKEN, runs COMMAND
# against it as against a Terraform Enterprise, and stops the sandbox however COMMAND ends.
# The sandbox's log goes to $SANDBOX_LOG (default: a temporary file, shown
# when COMMAND fails).
set -euo pipefail
sandbox=${1:?usage: with-sandbox.sh SANDBOX_BIN COMMAND...}
shift
[ -x "$sandbox" ] || { echo "with-sandbox.sh: $sandbox is not an executable: run make build" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-live-sandbox.XXXXXX")
log=${SANDBOX_LOG:-$work/sandbox.log}
pid=
stop() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT TERM
args=()
# Module test runs execute the Terraform the tests use.
[ -n "${TF_ACC_TERRAFORM_PATH:-}" ] && args+=(--terraform "$TF_ACC_TERRAFORM_PATH")
# GOGC: the terraform test processes it starts, as the tests' own (DESIGN.md "Go's garbage collector settings").
GOGC=${GOGC:-400} "$sandbox" --tls --seed demo --listen 127.0.0.1:0 "${args[@]}" \
  --env-file "$work/env" --tls-cert-out "$work/cert.pem" >"$work/stdout" 2>"$log" &
pid=$!
for _ in $(seq 100); do
  [ -s "$work/env" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "with-sandbox.sh: the sandbox exited at start:" >&2; cat "$log" >&2; exit 1; }
  sleep 0.1
done
[ -s "$work/env" ] || { echo "with-sandbox.sh: the sandbox wrote no $work/env within 10 s" >&2; cat "$log" >&2; exit 1; }
# The sandbox is the service: nothing else may point the tests elsewhere.
unset TFE_ADDRESS TFE_HOSTNAME TFE_TOKEN TFE_ORGANIZATION TF_CLI_CONFIG_FILE
set -a
# shellcheck disable=SC1091
source "$work/env"
set +a
# The admin token (a comment in the env file), for commands that also act
# as a site admin, such as scripts/tfe-acc.sh.
SANDBOX_ADMIN_TOKEN=$(sed -n 's/^# admin token: //p' "$work/env")
export SANDBOX_ADMIN_TOKEN
echo "with-sandbox.sh: $(head -n1 "$work/env" | sed 's/^# //') (TFE_HOSTNAME=$TFE_HOSTNAME, TFE_ORGANIZATION=$TFE_ORGANIZATION)"
status=0
"$@" || status=$?
if [ "$status" -ne 0 ] && [ -z "${SANDBOX_LOG:-}" ]; then
  echo "with-sandbox.sh: the command failed ($status); the sandbox's last log lines:" >&2
  tail -n 20 "$log" >&2 || true
fi
exit "$status"
