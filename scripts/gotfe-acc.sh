#!/usr/bin/env bash
# gotfe-acc.sh SANDBOX_BIN: runs go-tfe's own integration tests for projects
# and team project access (TestProjects*, TestTeamProjectAccesses*),
# unmodified, against a fresh tfgov-sandbox --tls started by
# scripts/with-sandbox.sh; prints each test's result as a table and fails
# unless every one that ran passed.
#
# The tests are built (`go test -tags=integration -c`) from a copy of the
# go-tfe version this repository's go.mod requires (GOTFE_VERSION overrides
# it), taken from the module cache (`go mod download` fills it; building the
# tests may download go-tfe's own test dependencies through GOPROXY). The
# suite runs in its default mode (HCP Terraform, no beta features:
# ENABLE_BETA=1 in the environment runs those too). Its go test -v output goes
# to $GOTFE_ACC_LOG (default: a temporary file, kept and named when a test
# fails). Not part of make test.
set -euo pipefail

pattern='^(TestProjects|TestTeamProjectAccesses)'

if [ "${1:-}" != --against-sandbox ]; then
  sandbox=${1:?usage: gotfe-acc.sh SANDBOX_BIN}
  root=$(cd "$(dirname "$0")/.." && pwd)
  version=${GOTFE_VERSION:-$(cd "$root" && go list -m -f '{{.Version}}' github.com/hashicorp/go-tfe)}
  src=$(cd "$root" && go mod download -json "github.com/hashicorp/go-tfe@$version" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')
  [ -d "$src" ] || { echo "gotfe-acc: go-tfe $version is not in the module cache" >&2; exit 1; }
  work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-gotfe-acc.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  # The module cache is read-only; the copy is where go test writes.
  cp -R "$src" "$work/go-tfe" && chmod -R u+w "$work/go-tfe"
  echo "gotfe-acc: building go-tfe $version's integration tests"
  (cd "$work/go-tfe" && GOFLAGS=-mod=mod go test -tags=integration -c -o "$work/go-tfe.test" .)
  export GOTFE_ACC_BINARY=$work/go-tfe.test GOTFE_ACC_DIR=$work/go-tfe GOTFE_ACC_VERSION=$version
  status=0
  bash "$(dirname "$0")/with-sandbox.sh" "$sandbox" bash "$0" --against-sandbox || status=$?
  exit "$status"
fi

# Inside with-sandbox.sh: TFE_HOSTNAME, TFE_TOKEN (the demo owner, a user who
# may create organizations), SSL_CERT_FILE and SANDBOX_ADMIN_TOKEN are set.
# go-tfe's test client reads TFE_ADDRESS and TFE_TOKEN; its subscription
# helper the provision-licenses admin token.
export TFE_ADDRESS="https://$TFE_HOSTNAME"
export TFE_ADMIN_PROVISION_LICENSES_TOKEN=$SANDBOX_ADMIN_TOKEN
unset ENABLE_TFE
log=${GOTFE_ACC_LOG:-${TMPDIR:-/tmp}/tfgov-gotfe-acc-$$.log}
start=$SECONDS
status=0
(cd "$GOTFE_ACC_DIR" && "$GOTFE_ACC_BINARY" -test.run "$pattern" -test.v -test.count 1 -test.timeout 15m) >"$log" 2>&1 || status=$?
took=$((SECONDS - start))

mapfile -t lines < <(grep -E '^--- (PASS|FAIL|SKIP): Test' "$log" || true)
passed=0 skipped=0 failed=()
printf '\n%-50s %-6s %s\n' "go-tfe $GOTFE_ACC_VERSION test" result time
for line in "${lines[@]}"; do
  read -r _ result name took_t <<<"$line"
  result=${result%:}
  case $result in
    PASS) passed=$((passed + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
    *) failed+=("$name") ;;
  esac
  printf '%-50s %-6s %s\n' "$name" "$result" "${took_t//[()]/}"
done
echo "gotfe-acc: $passed passed, $skipped skipped, ${#failed[@]} failed of ${#lines[@]} in $((took / 60))m$((took % 60))s (go test exit $status)"
if [ "${#lines[@]}" -eq 0 ] || [ "${#failed[@]}" -gt 0 ] || [ "$status" -ne 0 ]; then
  for t in "${failed[@]}"; do
    echo "---- $t:" >&2
    awk -v t="$t" '$0 == "=== RUN   " t { on = 1 } on { print } $0 ~ "^--- [A-Z]+: " t " " { on = 0 }' "$log" | grep -vE '^\s*=== (RUN|PAUSE|CONT)' | tail -n 40 >&2
  done
  grep -E -A20 '^panic:' "$log" >&2 || true
  echo "gotfe-acc: the suite's output: $log" >&2
  exit 1
fi
[ -n "${GOTFE_ACC_LOG:-}" ] || rm -f "$log"
