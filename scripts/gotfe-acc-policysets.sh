#!/usr/bin/env bash
# gotfe-acc-policysets.sh SANDBOX_BIN [RUN_REGEX]: runs go-tfe v1.111.2's own
# integration tests, unmodified, against a fresh tfgov-sandbox --tls started
# by scripts/with-sandbox.sh, and prints each top-level test's result.
# RUN_REGEX is go test's -run (default: the policy set tests,
# TestPolicySets|TestPolicySetVersions|TestPolicySetParameters and the
# project exclusion tests). go-tfe comes from the module cache (go mod
# download github.com/hashicorp/go-tfe@v1.111.2) and runs from a copy in a
# temporary directory. Tests that need a VCS connection skip themselves
# (no GITHUB_POLICY_SET_IDENTIFIER); ENABLE_BETA=1 runs the tag selector
# tests. The go test -v output goes to $GOTFE_ACC_LOG (default: a temporary
# file, kept and named when a test fails). Not part of make test.
set -euo pipefail
version=v1.111.2
default_run='^(TestPolicySets|TestPolicySetVersions|TestPolicySetParameters|TestPolicySetAddProjectExclusions|TestPolicySetRemoveProjectExclusions)'

if [ "${1:-}" != --against-sandbox ]; then
  sandbox=${1:?usage: gotfe-acc-policysets.sh SANDBOX_BIN [RUN_REGEX]}
  exec bash "$(dirname "$0")/with-sandbox.sh" "$sandbox" bash "$0" --against-sandbox "${2:-$default_run}"
fi
run=$2
src=$(go env GOMODCACHE)/github.com/hashicorp/go-tfe@$version
[ -d "$src" ] || go mod download "github.com/hashicorp/go-tfe@$version"
work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-gotfe-acc.XXXXXX")
log=${GOTFE_ACC_LOG:-$work/go-test.log}
keep_log=
cleanup() {
  if [ -z "${GOTFE_ACC_LOG:-}" ] && [ -n "$keep_log" ]; then
    mv "$log" "${TMPDIR:-/tmp}/tfgov-gotfe-acc-$$.log" && echo "gotfe-acc: the suite's output: ${TMPDIR:-/tmp}/tfgov-gotfe-acc-$$.log"
  fi
  chmod -R u+w "$work/go-tfe" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
cp -r "$src" "$work/go-tfe"
chmod -R u+w "$work/go-tfe"

# go-tfe's tests act as a site admin (organizations, subscriptions, Sentinel
# versions): the sandbox's admin token is every admin token they read.
export TFE_ADDRESS="https://$TFE_HOSTNAME" TFE_TOKEN=$SANDBOX_ADMIN_TOKEN
for v in SITE_ADMIN CONFIGURATION PROVISION_LICENSES SUBSCRIPTION SUPPORT SECURITY_MAINTENANCE VERSION_MAINTENANCE; do
  export "TFE_ADMIN_${v}_TOKEN=$SANDBOX_ADMIN_TOKEN"
done
export ENABLE_BETA=1
unset ENABLE_TFE GITHUB_POLICY_SET_IDENTIFIER GITHUB_APP_INSTALLATION_ID

status=0
(cd "$work/go-tfe" && go test -tags=integration -run "$run" -count=1 -v -timeout 15m .) >"$log" 2>&1 || status=$?
printf '\n%-55s %s\n' "go-tfe $version test" result
grep -E '^--- (PASS|FAIL|SKIP):' "$log" | sed -E 's/^--- ([A-Z]+): ([^ ]+) .*/\2 \1/' | while read -r t r; do printf '%-55s %s\n' "$t" "$r"; done
passed=$(grep -cE '^--- PASS:' "$log" || true)
failed=$(grep -cE '^--- FAIL:' "$log" || true)
skipped=$(grep -cE '^--- SKIP:' "$log" || true)
echo "gotfe-acc: $passed passed, $failed failed, $skipped skipped (go test exit $status)"
if [ "$status" -ne 0 ]; then
  keep_log=1
  grep -E '^\s+--- FAIL|Error Trace|Error:|^\s+\S+_test.go:[0-9]+:' "$log" | head -n 80 >&2 || true
  grep -E -A20 '^panic:' "$log" >&2 || true
  exit 1
fi
