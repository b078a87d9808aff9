package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): tfgov_policy_set "s0" and
// its scope (global, workspaces w0 and w1, project prj, exclusions, the
// fleet tag), or no scope (the service's is read, never changed); outside,
// workspaces and projects attached, detached and excluded, and workspaces
// made in prj. Its invariant: governed_workspaces, after each apply and in
// each plan, is what the sandbox's scope function (Server.GovernedWorkspaces)
// says the set governs.

const scenSetAddr = "tfgov_policy_set.s0"

// scenScope is s0's scope in the configuration.
type scenScope struct {
	global                     bool
	workspaces, exclWorkspaces []int // indices of m.workspaces
	project, exclProject       bool  // prj
	tag, exclTag               bool  // the fleet tag
	matchAll                   bool
}

// scenPolicySet is the model's part for s0.
type scenPolicySet struct {
	on    bool
	scope *scenScope // nil: scope left out
	// rescoping: the last plan changes s0's scope, so its governed_workspaces came from that plan's
	// workspace list, and the apply's own plan may find others (the documented stop).
	rescoping bool
	c         scenSetContent // suite_scenario_policy_set_content_test.go
	oauth     string         // the OAuth token vcs_repo names, made when first drawn
	// failingTest: the source's OPA tests fail (tried at plan, then taken back).
	failingTest bool
}

// editPolicySet adds or removes s0, draws a new scope, or leaves its scope out.
func (m *scenario) editPolicySet(rt *rapid.T) {
	op := "add"
	if m.pset.on {
		op = rapid.SampledFrom([]string{"remove", "scope", "scope", "no scope", "content", "content", "attributes"}).Draw(rt, "policy set op")
	}
	switch op {
	case "remove":
		m.pset = scenPolicySet{oauth: m.pset.oauth}
	case "no scope":
		m.pset.scope = nil
	case "content":
		op += " " + m.editSetContent(rt)
	case "attributes":
		op += " " + m.editSetAttributes(rt)
	default:
		if !m.pset.on {
			m.pset.c = m.drawSetContent(rt)
		}
		m.pset.on = true
		m.pset.scope = m.drawScope(rt)
	}
	m.logf(rt, "edit: policy set s0 %s -> %s", op, m.pset.describe())
	m.writeConfig(rt)
}

func (m *scenario) drawScope(rt *rapid.T) *scenScope {
	s := &scenScope{global: rapid.Bool().Draw(rt, "global")}
	subset := func(label string) []int {
		var out []int
		for i := range scenWorkspaces {
			if rapid.Bool().Draw(rt, fmt.Sprintf("%s w%d", label, i)) {
				out = append(out, i)
			}
		}
		return out
	}
	if !s.global { // a global set takes exclusions only
		s.workspaces, s.project, s.tag = subset("attach"), rapid.Bool().Draw(rt, "attach prj"), rapid.Bool().Draw(rt, "tag")
	}
	// What is both included and excluded is refused at plan (exclusions would win): never drawn.
	for _, i := range subset("exclude") {
		if !slices.Contains(s.workspaces, i) {
			s.exclWorkspaces = append(s.exclWorkspaces, i)
		}
	}
	s.exclProject = !s.project && rapid.Bool().Draw(rt, "exclude prj")
	s.exclTag = !s.tag && rapid.Bool().Draw(rt, "exclude tag")
	s.matchAll = (s.tag || s.exclTag) && rapid.Bool().Draw(rt, "match all")
	return s
}

func (p scenPolicySet) describe() string {
	if !p.on {
		return "none"
	}
	if p.scope == nil {
		return fmt.Sprintf("scope left out %+v", p.c)
	}
	return fmt.Sprintf("%+v %+v", *p.scope, p.c)
}

func (m *scenario) writePolicySets(rt *rapid.T, b *strings.Builder) {
	// s0 and its parameters are the owner's (a user token): governed_workspaces needs a token proven
	// to see every workspace, which a team token, having no user, cannot prove. Always written: a
	// resource removed from the configuration is destroyed with its provider's.
	fmt.Fprintf(b, "provider \"tfgov\" {\n  alias = \"sets\"\n  token = %q\n}\n", m.sb.token)
	if !m.pset.on {
		return
	}
	fmt.Fprintf(b, "resource \"tfgov_policy_set\" \"s0\" {\n  provider = tfgov.sets\n  name = %q\n", m.pset.c.setName())
	m.writeSetContent(rt, b)
	if s := m.pset.scope; s != nil {
		ids := func(is []int) string {
			var out []string
			for _, i := range is {
				out = append(out, fmt.Sprintf("%q", m.workspaces[i].ID))
			}
			return "[" + strings.Join(out, ", ") + "]"
		}
		// An empty attribute is left out, as a user writes it.
		fmt.Fprintf(b, "  scope = {\n    global = %v\n", s.global)
		for _, a := range []struct {
			name, value string
			on          bool
		}{
			{"workspace_ids", ids(s.workspaces), len(s.workspaces) > 0},
			{"project_ids", fmt.Sprintf("[%q]", m.prj.project.ID), s.project},
			{"tags", `[{ key = "fleet" }]`, s.tag},
			{"excluded_workspace_ids", ids(s.exclWorkspaces), len(s.exclWorkspaces) > 0},
			{"excluded_project_ids", fmt.Sprintf("[%q]", m.prj.project.ID), s.exclProject},
			{"excluded_tags", `[{ key = "fleet" }]`, s.exclTag},
			{"tag_match", `"all"`, s.matchAll},
		} {
			if a.on {
				fmt.Fprintf(b, "    %s = %s\n", a.name, a.value)
			}
		}
		b.WriteString("  }\n")
	}
	b.WriteString("}\n")
	m.writeParameters(b)
}

// scenSetOnService is s0 as the owner reads it, and what the sandbox's
// scope function says it governs.
type scenSetOnService struct {
	id string
	// name, description, kind, overridable, policies (sorted IDs), version (the current one's ID),
	// vcs (identifier@branch) and params (by key): suite_scenario_policy_set_content_test.go.
	name, description, kind, version, vcs string
	overridable, versioned                bool
	policies                              []string
	params                                map[string]scenVariableOnService
	scope                                 string   // canonical: scopeKey
	governed                              []string // sorted workspace IDs
}

// scopeKey is a canonical text of a scope, to compare the service's with the configuration's.
func scopeKey(global bool, ws, exclWs, prj, exclPrj, tags, exclTags []string, matchAll bool) string {
	for _, l := range [][]string{ws, exclWs, prj, exclPrj, tags, exclTags} {
		slices.Sort(l)
	}
	match := "any"
	if matchAll && len(tags)+len(exclTags) > 0 {
		match = "all"
	}
	return fmt.Sprintf("global=%v ws=%v excl_ws=%v prj=%v excl_prj=%v tags=%v excl_tags=%v match=%s", global, ws, exclWs, prj, exclPrj, tags, exclTags, match)
}

func (m *scenario) configuredScopeKey() string {
	s := m.pset.scope
	ids := func(is []int) []string {
		out := []string{}
		for _, i := range is {
			out = append(out, m.workspaces[i].ID)
		}
		return out
	}
	one := func(on bool, v string) []string {
		if on {
			return []string{v}
		}
		return []string{}
	}
	return scopeKey(s.global, ids(s.workspaces), ids(s.exclWorkspaces), one(s.project, m.prj.project.ID), one(s.exclProject, m.prj.project.ID),
		one(s.tag, "fleet"), one(s.exclTag, "fleet"), s.matchAll)
}

// snapshotPolicySets reads s0's scope, and asks the sandbox what it governs.
func (m *scenario) snapshotPolicySets(rt *rapid.T, s *scenService) {
	s.sets = map[string]scenSetOnService{}
	l, err := m.owner.PolicySets.List(m.ctx, m.org, &tfe.PolicySetListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, item := range l.Items {
		ps, err := m.owner.PolicySets.ReadWithOptions(m.ctx, item.ID, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{
			tfe.PolicySetWorkspaces, tfe.PolicySetProjects, tfe.PolicySetWorkspaceExclusions, tfe.PolicySetProjectExclusions}})
		m.must(rt, err)
		wsIDs := func(l []*tfe.Workspace) []string {
			out := []string{}
			for _, w := range l {
				out = append(out, w.ID)
			}
			return out
		}
		prjIDs := func(l []*tfe.Project) []string {
			out := []string{}
			for _, p := range l {
				out = append(out, p.ID)
			}
			return out
		}
		tags, exclTags := []string{}, []string{}
		for _, sel := range ps.TagSelectors {
			if sel.IsExclude {
				exclTags = append(exclTags, sel.Key)
			} else {
				tags = append(tags, sel.Key)
			}
		}
		matchAll := ps.TagSelectorMatchingLogic != nil && *ps.TagSelectorMatchingLogic == "all"
		governed, _ := m.sb.srv.GovernedWorkspaces(ps.ID)
		set := scenSetOnService{id: ps.ID, governed: governed,
			scope: scopeKey(ps.Global, wsIDs(ps.Workspaces), wsIDs(ps.WorkspaceExclusions), prjIDs(ps.Projects), prjIDs(ps.ProjectExclusions), tags, exclTags, matchAll)}
		m.snapshotSetContent(rt, ps, &set, s)
		s.sets[ps.Name] = set
		s.ids[ps.ID] = true
	}
}

// governedIDs is the sorted IDs of a governed_workspaces value (name -> ID); known reports
// whether it is known.
func governedIDs(v any) (ids []string, known bool) {
	mp, ok := v.(map[string]any)
	if !ok {
		return nil, false
	}
	ids = []string{}
	for _, id := range mp {
		ids = append(ids, fmt.Sprint(id))
	}
	slices.Sort(ids)
	return ids, true
}

// checkPolicySetsShow, at each plan: s0's scope on the service unlike the
// configuration's (an attachment made outside) shows as a change; and
// where the plan leaves the scope as the service has it, its
// governed_workspaces is what the scope function says now.
func (m *scenario) checkPolicySetsShow(rt *rapid.T, changes map[string]planChange, svc scenService) {
	if !m.pset.on {
		return
	}
	m.checkSetContentShows(rt, changes, svc)
	got, exists := m.setOf(rt, svc)
	c, planned := changes[scenSetAddr]
	m.pset.rescoping = planned && fmt.Sprint(c.before["scope"]) != fmt.Sprint(c.after["scope"])
	if exists && m.pset.scope != nil && got.scope != m.configuredScopeKey() && (!planned || c.noop()) {
		m.fail(rt, "invariant 5: the plan does not show "+scenSetAddr, "invariant 5: s0's scope on the service is %s, the configuration's %s, and the plan shows no change of it", got.scope, m.configuredScopeKey())
	}
	if !exists || !planned || slices.Contains(c.actions, "create") {
		return
	}
	if m.pset.scope != nil && got.scope != m.configuredScopeKey() {
		return // judged after the apply (checkPolicySetsApplied)
	}
	if ids, known := governedIDs(c.after["governed_workspaces"]); known && !slices.Equal(ids, got.governed) {
		m.fail(rt, "the plan's governed_workspaces are not the scope function's", "the plan's governed_workspaces of s0 are %v; the sandbox's scope function says s0 governs %v (scope %s)", ids, got.governed, got.scope)
	}
}

// checkPolicySetsApplied: the apply of a saved plan that ran with no write
// between its plan and its apply leaves s0 governing exactly the plan's
// governed_workspaces, when it set the configuration's scope.
func (m *scenario) checkPolicySetsApplied(rt *rapid.T, changes map[string]planChange, atPlan, pre, post scenService) {
	m.checkSetContentOnlyPlanned(rt, changes, pre, post)
	c, planned := changes[scenSetAddr]
	got, exists := m.setOf(rt, post)
	if !m.pset.on || !planned || !exists || m.pset.scope == nil || got.scope != m.configuredScopeKey() {
		return
	}
	if !sameWorkspaces(atPlan, pre) || !sameWorkspaces(pre, post) {
		return
	}
	if ids, known := governedIDs(c.after["governed_workspaces"]); known && !slices.Equal(ids, got.governed) {
		m.fail(rt, "the applied scope governs other workspaces than its plan's governed_workspaces", "s0's plan had governed_workspaces %v; once applied, the sandbox's scope function says it governs %v (scope %s)", ids, got.governed, got.scope)
	}
}

// sameWorkspaces reports whether a and b hold the same workspaces, with the same names and tags.
func sameWorkspaces(a, b scenService) bool {
	if len(a.workspaces) != len(b.workspaces) {
		return false
	}
	for id, w := range a.workspaces {
		v, ok := b.workspaces[id]
		if !ok || v.name != w.name || !maps.Equal(v.tags, w.tags) {
			return false
		}
	}
	return true
}

// checkPolicySetsHold is invariant 4 for s0, after an apply that succeeded:
// the service holds the configured scope, and the state's
// governed_workspaces is what the sandbox's scope function says.
func (m *scenario) checkPolicySetsHold(rt *rapid.T, svc scenService) {
	if !m.pset.on {
		return
	}
	got, ok := m.setOf(rt, svc)
	if !ok {
		m.fail(rt, "invariant 4: policy set s0 missing", "invariant 4: the apply succeeded, but policy set s0 is not on the service")
		return
	}
	if m.pset.scope != nil && got.scope != m.configuredScopeKey() {
		m.fail(rt, "invariant 4: policy set s0's scope", "invariant 4: s0's scope on the service is %s, the configuration's %s", got.scope, m.configuredScopeKey())
	}
	if ids, known := governedIDs(m.stateAttribute(rt, scenSetAddr, "governed_workspaces")); !known || !slices.Equal(ids, got.governed) {
		m.fail(rt, "invariant 4: s0's governed_workspaces are not the scope function's", "invariant 4: the state's governed_workspaces of s0 are %v (known: %v); the sandbox's scope function says s0 governs %v (scope %s)", ids, known, got.governed, got.scope)
	}
	m.checkSetContentHolds(rt, svc)
}

// documentedSetStop reports whether Terraform's error is the stop tfgov_policy_set documents: the
// saved plan of a new scope whose governed workspaces changed before its apply.
func (m *scenario) documentedSetStop(detail string) bool {
	return m.pset.rescoping && strings.Contains(detail, scenSetAddr) && strings.Contains(detail, ".governed_workspaces")
}

// stateAttribute is one attribute of a resource in the state (nil when absent).
func (m *scenario) stateAttribute(rt *rapid.T, addr, name string) any {
	raw, err := os.ReadFile(filepath.Join(m.dir, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return nil
	}
	m.must(rt, err)
	var st struct {
		Resources []struct {
			Mode, Type, Name string
			Instances        []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	m.must(rt, json.Unmarshal(raw, &st))
	for _, r := range st.Resources {
		if r.Mode == "managed" && r.Type+"."+r.Name == addr && len(r.Instances) == 1 {
			return r.Instances[0].Attributes[name]
		}
	}
	return nil
}

// outsidePolicySet attaches to s0, or detaches from it, a workspace (w0,
// w1) or prj, or excludes one, as tfe's attachment resources would.
func (m *scenario) outsidePolicySet(rt *rapid.T, svc scenService, kind string) {
	if slices.Contains(scenSetContentOutside, kind) {
		m.outsideSetContent(rt, svc, kind)
		return
	}
	set, ok := m.setOf(rt, svc)
	if !ok {
		rt.Skip("no policy set s0")
	}
	ctx := m.ctx
	i := rapid.IntRange(0, scenWorkspaces-1).Draw(rt, "workspace")
	ws := []*tfe.Workspace{{ID: m.workspaces[i].ID}}
	prj := []*tfe.Project{m.prj.project}
	var err error
	switch kind {
	case "attach workspace":
		err = m.owner.PolicySets.AddWorkspaces(ctx, set.id, tfe.PolicySetAddWorkspacesOptions{Workspaces: ws})
	case "detach workspace":
		err = m.owner.PolicySets.RemoveWorkspaces(ctx, set.id, tfe.PolicySetRemoveWorkspacesOptions{Workspaces: ws})
	case "exclude workspace":
		err = m.owner.PolicySets.AddWorkspaceExclusions(ctx, set.id, tfe.PolicySetAddWorkspaceExclusionsOptions{WorkspaceExclusions: ws})
	case "attach project":
		err = m.owner.PolicySets.AddProjects(ctx, set.id, tfe.PolicySetAddProjectsOptions{Projects: prj})
	case "detach project":
		err = m.owner.PolicySets.RemoveProjects(ctx, set.id, tfe.PolicySetRemoveProjectsOptions{Projects: prj})
	}
	if err != nil && strings.Contains(err.Error(), "global") {
		rt.Skip("a global set takes no attachment")
	}
	m.must(rt, err)
	m.logf(rt, "outside: %s (w%d / prj) on s0", kind, i)
}

var scenPolicySetOutside = append([]string{"attach workspace", "detach workspace", "exclude workspace", "attach project", "detach project"}, scenSetContentOutside...)
