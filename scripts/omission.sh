#!/usr/bin/env bash
# omission.sh [REV]: the omission experiment of issue 57. For every place
# CONTRIBUTING.md "Adding a type" lists, delete it (one at a time, in a
# throwaway copy of this checkout, or of REV when given) and run the narrow
# tests that should catch it: the unit tests of the guide's claim, no
# acceptance test. Prints a table: the place deleted, the build or the tests
# that failed, and the first message, which should name the type and the
# place. Not part of make test; make omission runs it (a few minutes: a
# rebuild of the provider's tests per Go edit). OMISSION_ONLY=REGEX runs
# only the places it matches.
set -euo pipefail

repo=$(git rev-parse --show-toplevel)
rev=${1:-}
work=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-omission.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ -n "$rev" ]; then
  git -C "$repo" archive "$rev" | tar -x -C "$work"
else
  (cd "$repo" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")
fi
pristine=$(mktemp -d "${TMPDIR:-/tmp}/tfgov-omission-pristine.XXXXXX")
trap 'rm -rf "$work" "$pristine"' EXIT
cp -a "$work/." "$pristine/"

# The tests of the guide's claim (CONTRIBUTING.md "Adding a type"), and
# those the sandbox's places name.
provider_tests='TestRegistry|TestDoc|TestGuide|TestPermission|TestResource|TestImportMissing|TestIdentity_protocol|TestChangelog|TestHouse|TestMoveState'
sandbox_tests='TestGoTFEFields_everyRoute'

# Each probe: place @@ file @@ edit @@ arguments (edits: delline REGEX: the first
# line matching; delfile; sub OLD NEW with \n for a newline: the first
# OLD; delentry REGEX: the registry entry, from its opening "{" line to
# its closing "},", holding a line matching).
probes=$(cat <<'EOF'
type name constant (resource_type.go) @@ internal/provider/resource_type.go @@ delline @@ ^\s*teamAccessType\s
registry entry of tfgov_team_access @@ internal/provider/registry.go @@ delentry @@ typ: teamAccessType
registry tfeMove of tfgov_team_access @@ internal/provider/registry.go @@ delline @@ tfeMove:\s+&tfeTeamAccessMove
MoveState of tfgov_team_access (team_access_move.go) @@ internal/provider/team_access_move.go @@ sub @@ return []resource.StateMover{tfeTeamAccessMove.stateMover()} @@ return nil
withPermissions in team_access_resource.go's Schema @@ internal/provider/team_access_resource.go @@ delline @@ defer withPermissions
withPermissions in team_access_list.go's Schema @@ internal/provider/team_access_list.go @@ delline @@ defer withPermissions
markImporting in team_access_resource.go (tws- path) @@ internal/provider/team_access_resource.go @@ delline @@ ^\t\tmarkImporting\(ctx, resp\)
markImporting in team_access_resource.go (by names) @@ internal/provider/team_access_resource.go @@ sub @@ \tmarkImporting(ctx, resp)\n}\n\n// planFlap @@ }\n\n// planFlap
markImporting in agent_token_resource.go @@ internal/provider/agent_token_resource.go @@ delline @@ markImporting\(ctx, resp\)
markImporting in module_test_variable_resource.go @@ internal/provider/module_test_variable_resource.go @@ delline @@ markImporting\(ctx, resp\)
the type's TestAcc tests (team_access_resource_test.go) @@ internal/provider/team_access_resource_test.go @@ suball @@ \nfunc TestAcc @@ \nfunc testAcc_
the kit file (team_access_kit_test.go) @@ internal/provider/team_access_kit_test.go @@ delfile @@ 
the kit in kits (kit_test.go) @@ internal/provider/kit_test.go @@ delline @@ ^\tteamAccessKit\{\},
a kit method (team access's chaos) @@ internal/provider/team_access_kit_test.go @@ sub @@ func (teamAccessKit) chaos() covered[fleetKit] { @@ func (teamAccessKit) chaosGone() covered[fleetKit] {
a kit part neither case nor exemption (team access's crash) @@ internal/provider/team_access_kit_test.go @@ sub @@ func (teamAccessKit) crash() covered[fleetKit] {\n @@ func (teamAccessKit) crash() covered[fleetKit] {\n\treturn covered[fleetKit]{}\n
a kit case without a function (team access's chaos objects) @@ internal/provider/team_access_kit_test.go @@ sub @@ \t\tobjects: serviceGrantObjects,\n @@ \n
an exemption as free text (deprecation's chaos) @@ internal/provider/module_version_deprecation_kit_test.go @@ sub @@ exempted[fleetKit](exemptCreatesNothing) @@ exempted[fleetKit]("it creates nothing")
an exemption a suite no longer needs (exclusive's crash) @@ internal/provider/workspace_team_access_exclusive_kit_test.go @@ sub @@ return exempted[fleetKit](exemptCreatesNothing)\n}\n\nfunc (workspaceTeamAccessExclusiveKit) identityNoPrior @@ return covered[fleetKit]{exempt: exemption{why: exemptOwnTest, test: "TestNoSuchTest"}}\n}\n\nfunc (workspaceTeamAccessExclusiveKit) identityNoPrior
templates/resources/team_access.md.tmpl @@ templates/resources/team_access.md.tmpl @@ delfile @@ 
examples/resources/tfgov_team_access/resource.tf @@ examples/resources/tfgov_team_access/resource.tf @@ delfile @@ 
examples/resources/tfgov_team_access/import.sh @@ examples/resources/tfgov_team_access/import.sh @@ delfile @@ 
examples/resources/tfgov_team_access/identity-import.tf @@ examples/resources/tfgov_team_access/identity-import.tf @@ delfile @@ 
examples/list-resources/tfgov_team_access/list-resource.tfquery.hcl @@ examples/list-resources/tfgov_team_access/list-resource.tfquery.hcl @@ delfile @@ 
docs/resources/team_access.md @@ docs/resources/team_access.md @@ delfile @@ 
templates/index.md.tmpl's permissions row @@ templates/index.md.tmpl @@ delline @@ ^\| `tfgov_team_access` \| resource \|
README.md's row of the type @@ README.md @@ delline @@ ^\| `tfgov_team_access` \|
CHANGELOG.md's New Resource line @@ CHANGELOG.md @@ delline @@ \*\*New Resource:\*\* `tfgov_team_access`
PERFORMANCE.md request budget row (N = 101) @@ PERFORMANCE.md @@ delline @@ ^\| `tfgov_team_access` \| 101 \|
PERFORMANCE.md request budget figure (agent token destroy at N = 1: 8 to 9) @@ PERFORMANCE.md @@ sub @@ \| `tfgov_agent_token` \| 1 \| 5 \| 3 \| 3 \| 6 \| 3 \| 5 \| 8 \| @@ \| `tfgov_agent_token` \| 1 \| 5 \| 3 \| 3 \| 6 \| 3 \| 5 \| 9 \|
PERFORMANCE.md state budget row @@ PERFORMANCE.md @@ delline @@ ^\| `tfgov_team_access` \| 342
PERFORMANCE.md stated state budget (test run 720 to 700) @@ PERFORMANCE.md @@ sub @@ \| 699 \| 720 \| @@ \| 699 \| 700 \|
the kit's idPrefix method (team project access) @@ internal/provider/team_project_access_kit_test.go @@ delline @@ ^func \(teamProjectAccessKit\) idPrefix\(\)
a kit's ID prefix emptied (team project access's "tprj") @@ internal/provider/team_project_access_kit_test.go @@ sub @@ func (teamProjectAccessKit) idPrefix() string { return "tprj" } @@ func (teamProjectAccessKit) idPrefix() string { return "" }
objectIDRE's hand list losing tprj (suite_chaos_test.go) @@ internal/provider/suite_chaos_test.go @@ sub @@ |tws|tprj|var| @@ |tws|var|
a kit's parent declaration (team project access's project) @@ internal/provider/team_project_access_kit_test.go @@ sub @@ []*parentKind{parentProject, parentTeam} @@ []*parentKind{parentTeam}
a fleet's number of parents (team access's chaos teams and workspaces) @@ internal/provider/team_access_kit_test.go @@ delline @@ parents: map\[\*parentKind\]int\{parentTeam: chaosTeams
a data source's acceptance test (project_data_source_test.go) @@ internal/provider/project_data_source_test.go @@ suball @@ \nfunc TestAcc @@ \nfunc testAcc_
sandbox route GET team-workspaces/{id} @@ internal/sandbox/team_access.go @@ delline @@ s\.route\("GET /api/v2/team-workspaces/\{id\}"
sandbox routeContracts entry (GET team-workspaces/{id}) @@ internal/sandbox/route_contracts_test.go @@ delline @@ "GET /api/v2/team-workspaces/\{id\}":
sandbox README row of team_access.go @@ internal/sandbox/README.md @@ sub @@ [`team_access.go`](team_access.go),  @@ 
EOF
)

edit() { # edit FILE OP ARG...: applies one probe's deletion in $work
  python3 - "$work/$1" "$2" "${3:-}" "${4:-}" <<'PY'
import os, re, sys
path, op, a, b = sys.argv[1:5]
if op == "delfile":
    os.remove(path); sys.exit(0)
text = open(path).read()
unesc = lambda s: s.replace("\\n", "\n").replace("\\t", "\t").replace("\\|", "|")
if op == "delline":
    lines = text.split("\n")
    i = next((i for i, l in enumerate(lines) if re.search(a, l)), None)
    if i is None: sys.exit(3)
    del lines[i]; text = "\n".join(lines)
elif op in ("sub", "suball"):
    a, b = unesc(a), unesc(b)
    if a not in text: sys.exit(3)
    text = text.replace(a, b) if op == "suball" else text.replace(a, b, 1)
elif op == "delentry":
    lines = text.split("\n")
    i = next((i for i, l in enumerate(lines) if re.search(a, l)), None)
    if i is None: sys.exit(3)
    s = max(j for j in range(i) if lines[j] == "\t{")
    e = next(j for j in range(i, len(lines)) if lines[j] == "\t},")
    del lines[s:e + 1]; text = "\n".join(lines)
open(path, "w").write(text)
PY
}

first_message() { # the first failure's message, one line
  grep -m1 -E '(\.go:[0-9]+:[0-9]*:? )|^\s+[a-z_]+\.go:[0-9]+: ' "$1" | sed -E 's/^\s+//; s/^[^ ]*\.go:[0-9]+:([0-9]+:)? //' | cut -c1-220
}

printf '| place deleted | fails | first message |\n|---|---|---|\n'
caught=0 total=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  IFS=$'\x1f' read -r place file op a b <<<"${line// @@ /$'\x1f'}"
  if [ -n "${OMISSION_ONLY:-}" ] && ! grep -qE -- "$OMISSION_ONLY" <<<"$place"; then continue; fi
  total=$((total + 1))
  if ! edit "$file" "$op" "$a" "$b" 2>/dev/null; then
    printf '| %s | n/a: not in this tree | |\n' "$place"
    cp -a "$pristine/." "$work/"
    continue
  fi
  out=$(mktemp)
  pkgs=./internal/provider run=$provider_tests
  case "$file" in internal/sandbox/*) pkgs="./internal/provider ./internal/sandbox" run="$provider_tests|$sandbox_tests" ;; esac
  # shellcheck disable=SC2086 # $pkgs is a list of packages
  (cd "$work" && go test $pkgs -run "^($run)" -count=1 >"$out" 2>&1) && failed=0 || failed=1
  if grep -qE '\[(build|setup) failed\]' "$out"; then
    caught=$((caught + 1))
    printf '| %s | the build | %s |\n' "$place" "$(grep -m1 -E '\.go:[0-9]+:[0-9]+: ' "$out" | sed -E 's/^.*\.go:[0-9]+:[0-9]+: //; s/\|/\\|/g' | cut -c1-220)"
  elif [ "$failed" = 1 ]; then
    caught=$((caught + 1))
    tests=$(grep -oE '^--- FAIL: [A-Za-z0-9_]+' "$out" | awk '{print $3}' | sort -u | paste -sd, - || true)
    printf '| %s | %s | %s |\n' "$place" "${tests:-?}" "$(first_message "$out" | sed 's/|/\\|/g')"
  else
    printf '| %s | **nothing fails** | |\n' "$place"
  fi
  rm -f "$out"
  # Restore the copy for the next probe.
  rm -rf "${work:?}/internal" "${work:?}/templates" "${work:?}/examples" "${work:?}/docs"
  cp -a "$pristine/." "$work/"
done <<<"$probes"
printf '\n%d of %d places caught.\n' "$caught" "$total"
