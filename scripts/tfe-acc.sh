#!/usr/bin/env bash
# tfe-acc.sh SANDBOX_BIN: runs hashicorp/tfe v0.79.0's own acceptance tests
# for the resources tfgov overlaps (policies, policy sets with their
# attachments, exclusions and parameters, team access, agent tokens, test
# variables, projects and team project access) and for the organization,
# workspace and team a governance configuration makes next to them, unmodified and in the suite's default
# mode (subscriptions through the admin endpoints), against a fresh
# tfgov-sandbox --tls started by scripts/with-sandbox.sh; prints each test's
# result as a table and fails unless all of them pass.
#
# TFE_ACC_TEST_BINARY names the suite's test binary, built by you from
# hashicorp/tfe v0.79.0's internal/provider package (`go test -c`): this
# repository neither holds nor builds hashicorp/tfe. Without it the script
# says so and exits 0, so CI can always call it. The tests need no files
# from the source tree at run time; they run in a temporary directory.
# TF_ACC_TERRAFORM_PATH is the Terraform they use (1.14 or later runs the
# resource identity test; an older one skips it, which counts as a failure).
# The suite's go test -v output goes to $TFE_ACC_LOG (default: a temporary
# file, kept and named when a test fails).
set -euo pipefail

# The 88 tests, exactly: the suite's -run is a regular expression over
# names, and a prefix such as TestAccTFEPolicy would also run other types'.
tests=(
  TestAccTFEPolicy_basic
  TestAccTFEPolicy_basicWithDefaults
  TestAccTFEPolicyOPA_basic
  TestAccTFEPolicy_update
  TestAccTFEPolicy_unsetEnforce
  TestAccTFEPolicyOPA_update
  TestAccTFEPolicy_import
  TestAccTFEPolicy_importByIdentity
  TestAccTFETeamAccess_admin
  TestAccTFETeamAccess_write
  TestAccTFETeamAccess_custom
  TestAccTFETeamAccess_policyOverrides
  TestAccTFETeamAccess_updateToCustom
  TestAccTFETeamAccess_updateFromCustom
  TestAccTFETeamAccess_updateAdminToCustomWithSamePermissions
  TestAccTFETeamAccess_import
  TestAccTFETeamAccessDataSource_basic
  TestAccTFEAgentToken_basic
  TestAccTFETestVariable_basic
  TestAccTFETestVariable_valueWriteOnly
  TestAccTFETestVariable_updateValueWriteOnlyToValue
  TestAccTFETestVariable_update
  TestAccTFEOrganization_basic
  TestAccTFEWorkspace_basic
  TestAccTFETeam_basic
  TestAccTFEProject_basic
  TestAccTFEProject_invalidName
  TestAccTFEProject_update
  TestAccTFEProject_ignoreAdditionalTags
  TestAccTFEProject_tagBindings
  TestAccTFEProject_import
  TestAccTFEProject_importByIdentity
  TestAccTFEProject_withAutoDestroy
  TestAccTFEProjectDataSource_basic
  TestAccTFEProjectDataSource_tagBindings
  TestAccTFEProjectDataSource_caseInsensitive
  TestAccTFEProjectDataSource_basicWithAutoDestroy
  TestAccTFEProjectsDataSource_basic
  TestAccTFEProjectsDataSource_basicNoProjects
  TestAccTFETeamProjectAccess
  TestAccTFETeamProjectCustomAccess
  TestAccTFETeamProjectCustomAccess_policyOverrides
  TestAccTFETeamProjectCustomAccess_with_project_variable_sets
  TestAccTFETeamProjectAccess_import
  TestAccTFETeamProjectCustomAccess_import
  TestAccTFETeamProjectCustomAccess_import_with_project_variable_set
  TestAccTFETeamProjectCustomAccess_full_update
  TestAccTFETeamProjectCustomAccess_full_update_with_project_variable_sets
  TestAccTFETeamProjectCustomAccess_partial_update
  TestAccTFETeamProjectCustomAccess_partial_update_with_project_variable_sets
  TestAccTFETeamProjectCustomAccess_invalid_custom_access
  TestAccTFETeamProjectAccessDataSource_basic
  TestAccTFETeamProjectCustomAccessDataSource_basic
  TestAccTFETeamProjectCustomAccessDataSource_policyOverrides
  TestAccTFETeamProjectCustomAccessDataSource_basic_with_project_variable_sets
  TestAccTFEPolicySet_basic
  TestAccTFEPolicySet_pinnedPolicyRuntimeVersion
  TestAccTFEPolicySet_update
  TestAccTFEPolicySet_updateEmpty
  TestAccTFEPolicySet_updatePopulated
  TestAccTFEPolicySet_updateToGlobal
  TestAccTFEPolicySet_updateToWorkspace
  TestAccTFEPolicySet_invalidName
  TestAccTFEPolicySetImport
  TestAccTFEPolicySet_importByIdentity
  TestAccTFEPolicySetDataSource_basic
  TestAccTFEPolicySetDataSource_pinnedPolicyRuntimeVersion
  TestAccTFEPolicySetDataSourceOPA_basic
  TestAccTFEPolicySetDataSource_notFound
  TestAccTFEPolicySetParameter_basic
  TestAccTFEPolicySetParameter_update
  TestAccTFEPolicySetParameter_import
  TestAccTFEPolicySetParameter_valueWriteOnly
  TestAccTFEPolicySetParameter_valueWriteOnlyValidation
  TestAccTFEWorkspacePolicySet_basic
  TestAccTFEWorkspacePolicySet_incorrectImportSyntax
  TestAccTFEWorkspacePolicySetExclusion_basic
  TestAccTFEWorkspacePolicySetExclusion_incorrectImportSyntax
  TestAccTFEProjectPolicySet_basic
  TestAccTFEProjectPolicySet_incorrectImportSyntax
  TestAccTFEProjectPolicySetExclusion_basic
  TestAccTFEProjectPolicySetExclusion_incorrectImportSyntax
  TestAccTFETagPolicySet_keyValueTag
  TestAccTFETagPolicySet_keyOnlyTag
  TestAccTFETagPolicySet_incorrectImportSyntax
  TestAccTFETagPolicySetExclusion_keyValueTag
  TestAccTFETagPolicySetExclusion_keyOnlyTag
  TestAccTFETagPolicySetExclusion_incorrectImportSyntax
)

if [ "${1:-}" != --against-sandbox ]; then
  sandbox=${1:?usage: tfe-acc.sh SANDBOX_BIN}
  binary=${TFE_ACC_TEST_BINARY:-}
  if [ -z "$binary" ]; then
    echo "tfe-acc: not run: TFE_ACC_TEST_BINARY is not set (the test binary of hashicorp/tfe v0.79.0's internal/provider package, built with go test -c from its source; this repository does not build it)"
    exit 0
  fi
  [ -x "$binary" ] || { echo "tfe-acc: TFE_ACC_TEST_BINARY=$binary is not an executable file" >&2; exit 1; }
  exec bash "$(dirname "$0")/with-sandbox.sh" "$sandbox" bash "$0" --against-sandbox
fi

# Inside with-sandbox.sh: TFE_HOSTNAME, TFE_TOKEN (the demo owner, a user
# who may create organizations), TFE_ORGANIZATION, SSL_CERT_FILE and
# SANDBOX_ADMIN_TOKEN are set.
binary=$TFE_ACC_TEST_BINARY
work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-tfe-acc.XXXXXX")
log=${TFE_ACC_LOG:-$work/go-test.log}
keep_log=
cleanup() {
  if [ -z "${TFE_ACC_LOG:-}" ] && [ -n "$keep_log" ]; then
    mv "$log" "${TMPDIR:-/tmp}/tfgov-tfe-acc-$$.log" && echo "tfe-acc: the suite's output: ${TMPDIR:-/tmp}/tfgov-tfe-acc-$$.log"
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The suite's clients: the provider reads TFE_HOSTNAME, the admin client
# (go-tfe's default config) TFE_ADDRESS, and the subscription helper the
# provision-licenses admin token. ENABLE_TFE unset is the default (HCP
# Terraform) mode; ENABLE_BETA=1 runs the two beta tests.
export TF_ACC=1 ENABLE_BETA=1 CHECKPOINT_DISABLE=1
export TFE_ADDRESS="https://$TFE_HOSTNAME"
export TFE_ADMIN_PROVISION_LICENSES_TOKEN=$SANDBOX_ADMIN_TOKEN
# The pinned policy runtime tests make a Sentinel version as a site admin.
export TFE_ADMIN_VERSION_MAINTENANCE_TOKEN=$SANDBOX_ADMIN_TOKEN
unset ENABLE_TFE TF_CLI_CONFIG_FILE TFE_PARALLELISM
# The test variable tests publish a module from a GitHub repository through
# an OAuth client; the sandbox contacts no VCS, so the token is any string
# and the repository need not exist (its name gives the module's).
export GITHUB_TOKEN=tfgov-sandbox-contacts-no-vcs
export GITHUB_REGISTRY_MODULE_IDENTIFIER=tfgov-example/terraform-aws-network
export GITHUB_WORKSPACE_IDENTIFIER=tfgov-example/governed-workspace
export GITHUB_WORKSPACE_BRANCH=main

pattern="^($(IFS='|'; echo "${tests[*]}"))\$"
start=$SECONDS
status=0
(cd "$work" && "$binary" -test.run "$pattern" -test.v -test.count 1 -test.timeout 20m) >"$log" 2>&1 || status=$?
took=$((SECONDS - start))

# With TFE_ACC_RESULT_LINES=1 (.ci/run), the suite's own result lines
# first, which CI counts as for its other stages.
if [ "${TFE_ACC_RESULT_LINES:-}" = 1 ]; then
  grep -E '^\s*--- (PASS|FAIL|SKIP):' "$log" || true
fi
passed=0
failed=()
printf '\n%-60s %-8s %s\n' "hashicorp/tfe v0.79.0 test" result time
for t in "${tests[@]}"; do
  line=$(grep -E "^\s*--- (PASS|FAIL|SKIP): $t \(" "$log" | tail -n1 || true)
  result=$(sed -E 's/^\s*--- ([A-Z]+):.*/\1/' <<<"$line")
  took_t=$(sed -E 's/.*\(([0-9.]+s)\)$/\1/' <<<"$line")
  [ -n "$line" ] || { result="NOT RUN"; took_t=-; }
  if [ "$result" = PASS ]; then passed=$((passed + 1)); else failed+=("$t"); fi
  printf '%-60s %-8s %s\n' "$t" "$result" "$took_t"
done
echo "tfe-acc: $passed of ${#tests[@]} passed in $((took / 60))m$((took % 60))s (go test exit $status)"
if [ "${#failed[@]}" -gt 0 ]; then
  keep_log=1
  # Each failure's own lines (go test prints them before its --- FAIL
  # line), without the provider's debug log, so the cause shows here.
  for t in "${failed[@]}"; do
    echo "---- $t:" >&2
    awk -v t="$t" '$0 == "=== RUN   " t { on = 1 } on && !/\[(TRACE|DEBUG|INFO|WARN)\]/ { print } $0 ~ "^--- [A-Z]+: " t " " { on = 0 }' "$log" | tail -n 25 >&2
  done
  grep -E -A20 '^panic:' "$log" >&2 || true
  exit 1
fi
