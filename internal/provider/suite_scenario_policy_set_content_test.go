package provider

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"pgregory.net/rapid"
)

// The scenario machine (suite_scenario_test.go): s0's content and
// attributes, and its parameters. Content comes by one route: none,
// policy_ids (the configuration's tfgov_policy instances), source (a
// directory of Sentinel or OPA files, OPA tests run at plan) or vcs_repo
// (which the sandbox accepts and never ingests). Parameters q0-q2 (keys
// P0-P2) are modelled as module test variables are (scenVar).

const (
	scenParams      = 3
	scenParamAddr   = "tfgov_policy_set_parameter.q"
	scenSetSource   = "pset"
	scenSetRenamed  = "s0-renamed"
	scenSetOutsider = "s0-outside"
)

// scenSetContent is s0's content and attributes in the configuration.
type scenSetContent struct {
	name        string // "" for "s0"
	kind        string // sentinel, opa
	route       string // none, policy_ids, source, vcs
	policies    map[int]bool
	files       map[string]int // source: policy name -> version of its code
	branch      int            // vcs
	description int            // 0: left out
	overridable bool
	params      map[int]scenVar
}

func (c scenSetContent) setName() string {
	if c.name == "" {
		return "s0"
	}
	return c.name
}

// routes are the content routes of a set of kind (the configuration's policies are Sentinel).
func (c scenSetContent) routes() []string {
	if c.kind == "opa" {
		return []string{"none", "source", "vcs"}
	}
	if len(c.params) > 0 { // a set with individual policies takes no parameters
		return []string{"none", "source", "vcs"}
	}
	return []string{"none", "policy_ids", "source", "vcs"}
}

// takesParams: a Sentinel set whose content is not individual policies.
func (c scenSetContent) takesParams() bool {
	return c.kind == "sentinel" && c.route != "policy_ids"
}

func (m *scenario) drawSetContent(rt *rapid.T) scenSetContent {
	c := scenSetContent{kind: rapid.SampledFrom([]string{"sentinel", "opa"}).Draw(rt, "set kind"), params: map[int]scenVar{}}
	c.route = rapid.SampledFrom(c.routes()).Draw(rt, "set route")
	m.enterRoute(rt, &c)
	c.description = rapid.IntRange(0, 2).Draw(rt, "set description")
	c.overridable = rapid.Bool().Draw(rt, "set overridable")
	return c
}

// enterRoute fills what a route needs when the set takes it.
func (m *scenario) enterRoute(rt *rapid.T, c *scenSetContent) {
	c.policies, c.files = map[int]bool{}, map[string]int{}
	switch c.route {
	case "policy_ids":
		for _, i := range slices.Sorted(maps.Keys(m.policies)) {
			if rapid.Bool().Draw(rt, fmt.Sprintf("set holds p%d", i)) {
				c.policies[i] = true
			}
		}
	case "source":
		c.files["a"] = 1
	case "vcs":
		c.branch = 1
		if m.pset.oauth == "" {
			defer m.setFaultsAside(rt)()
			oc, err := m.owner.OAuthClients.Create(m.ctx, m.org, tfe.OAuthClientCreateOptions{
				Name: tfe.String("vcs"), APIURL: tfe.String("https://api.github.com"), HTTPURL: tfe.String("https://github.com"),
				OAuthToken: tfe.String("ghp_not-a-real-token"), ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub)})
			m.must(rt, err)
			m.pset.oauth = oc.OAuthTokens[0].ID
		}
	}
}

// editSetContent changes s0's content within its route, or its route.
// A move to or from vcs_repo, or a change of kind, of a set the service
// holds is refused at plan (as documented): tried, then taken back.
func (m *scenario) editSetContent(rt *rapid.T) string {
	c := &m.pset.c
	ops := map[string][]string{"none": {"route"}, "policy_ids": {"route", "route", "toggle policy"}, "source": {"route", "route", "edit file", "add file", "remove file"},
		"vcs": {"route", "route", "branch"}}[c.route]
	ops = append(ops, "kind")
	op := rapid.SampledFrom(ops).Draw(rt, "content op")
	switch op {
	case "route":
		to := rapid.SampledFrom(c.routes()).Draw(rt, "set route")
		if (to == "vcs") != (c.route == "vcs") && m.setHeld(rt) {
			was := c.route
			c.route = to
			m.enterRoute(rt, c)
			m.tryRefused(rt, fmt.Sprintf("route %s -> %s", was, to), "A policy set cannot move to or from a VCS repository")
			c.route = was
			m.enterRoute(rt, c)
			return "route (refused, taken back)"
		}
		was := c.route
		c.route = to
		m.enterRoute(rt, c)
		if to == "policy_ids" && len(c.policies) > 0 && m.setVersioned(rt) {
			// The service never takes individual policies on a set that has taken versions.
			m.tryRefused(rt, fmt.Sprintf("route %s -> policy_ids of a versioned set", was), "A versioned policy set takes no individual policies")
			c.route = was
			m.enterRoute(rt, c)
			return "route (refused, taken back)"
		}
	case "kind":
		to := map[string]string{"sentinel": "opa", "opa": "sentinel"}[c.kind]
		if c.route == "policy_ids" || len(c.params) > 0 || !m.setHeld(rt) {
			return "kind (not tried)"
		}
		c.kind = to
		m.tryRefused(rt, "kind -> "+to, "A policy set's kind cannot change")
		c.kind = map[string]string{"sentinel": "opa", "opa": "sentinel"}[to]
		return "kind (refused, taken back)"
	case "toggle policy":
		keys := slices.Sorted(maps.Keys(m.policies))
		if len(keys) == 0 {
			return "toggle policy (none configured)"
		}
		i := rapid.SampledFrom(keys).Draw(rt, "policy")
		if c.policies[i] {
			delete(c.policies, i)
		} else {
			c.policies[i] = true
		}
	case "edit file":
		f := rapid.SampledFrom(slices.Sorted(maps.Keys(c.files))).Draw(rt, "file")
		c.files[f]++
	case "add file":
		f := rapid.SampledFrom([]string{"a", "b", "c"}).Draw(rt, "file")
		c.files[f]++
	case "remove file":
		if len(c.files) > 1 {
			delete(c.files, rapid.SampledFrom(slices.Sorted(maps.Keys(c.files))).Draw(rt, "file"))
		}
	case "branch":
		c.branch = 3 - c.branch
	}
	if op == "edit file" && c.kind == "opa" && rapid.IntRange(0, 3).Draw(rt, "failing test") == 0 {
		// OPA tests run at plan: a failing one stops the plan, before any version is made.
		m.pset.failingTest = true
		m.tryRefused(rt, "a failing OPA test", "Policy test failed")
		m.pset.failingTest = false
	}
	return op
}

// editSetAttributes changes s0's description, overridable or name.
func (m *scenario) editSetAttributes(rt *rapid.T) string {
	c := &m.pset.c
	op := rapid.SampledFrom([]string{"description", "overridable", "name"}).Draw(rt, "attribute op")
	switch op {
	case "description":
		c.description = (c.description + 1) % 3
	case "overridable":
		c.overridable = !c.overridable
	case "name":
		c.name = map[string]string{"": scenSetRenamed, scenSetRenamed: ""}[c.name]
	}
	return op
}

// editParameter adds, removes or changes parameter P<i> of s0, as
// EditVariable does test variables.
func (m *scenario) editParameter(rt *rapid.T) {
	if !m.pset.on || !m.pset.c.takesParams() {
		rt.Skip("no policy set that takes parameters")
	}
	i := rapid.IntRange(0, scenParams-1).Draw(rt, "parameter")
	v, ok := m.pset.c.params[i]
	v, op := drawVarEdit(rt, v, ok)
	if op == "remove" {
		delete(m.pset.c.params, i)
	} else {
		m.pset.c.params[i] = v
	}
	m.logf(rt, "edit: policy set parameter P%d %s -> %+v", i, op, v)
	m.writeConfig(rt)
}

// tryRefused plans the configuration the model holds now, which the
// provider must refuse at plan with summary; then the caller takes the
// change back (a user reading the error).
func (m *scenario) tryRefused(rt *rapid.T, what, summary string) {
	uncertain := m.uncertain
	m.writeConfig(rt)
	m.logf(rt, "edit: try %s on s0", what)
	r := m.terraform(rt, "plan", "-json", "-input=false")
	refused := false
	for _, d := range r.diags {
		refused = refused || strings.HasPrefix(d, summary)
	}
	if r.code == 0 {
		m.fail(rt, "a change the provider refuses was planned: "+what, "the plan of %s succeeded; the resource documents it refused at plan (%q)", what, summary)
	}
	if !refused {
		m.logf(rt, "the plan of %s failed otherwise: %v", what, r.diags)
	}
	m.uncertain = uncertain // a plan writes nothing
}

// setVersioned: the state holds s0, and the service's set has taken versions.
func (m *scenario) setVersioned(rt *rapid.T) bool {
	id := m.readState(rt)[scenSetAddr]
	if id == "" {
		return false
	}
	ps, err := m.owner.PolicySets.Read(m.ctx, id)
	return err == nil && setVersioned(ps)
}

// setHeld: the state holds s0 and the service still has it.
func (m *scenario) setHeld(rt *rapid.T) bool {
	id := m.readState(rt)[scenSetAddr]
	if id == "" {
		return false
	}
	_, err := m.owner.PolicySets.Read(m.ctx, id)
	return err == nil
}

// writeSetContent writes s0's attributes and content (inside its block).
func (m *scenario) writeSetContent(rt *rapid.T, b *strings.Builder) {
	c := m.pset.c
	if c.kind == "opa" {
		b.WriteString("  kind = \"opa\"\n")
	}
	if c.description != 0 {
		fmt.Fprintf(b, "  description = \"d%d\"\n", c.description)
	}
	if c.overridable {
		b.WriteString("  overridable = true\n")
		if c.kind == "sentinel" {
			b.WriteString("  agent_enabled = true\n")
		}
	}
	switch c.route {
	case "policy_ids":
		var refs []string
		for _, i := range slices.Sorted(maps.Keys(c.policies)) {
			if _, ok := m.policies[i]; ok {
				refs = append(refs, fmt.Sprintf("tfgov_policy.p%d.id", i))
			}
		}
		fmt.Fprintf(b, "  policy_ids = [%s]\n", strings.Join(refs, ", "))
	case "source":
		m.writeSetSource(rt)
		fmt.Fprintf(b, "  source = \"${path.module}/%s\"\n", scenSetSource)
	case "vcs":
		fmt.Fprintf(b, "  vcs_repo = {\n    identifier = \"acme/policies\"\n    oauth_token_id = %q\n    branch = \"b%d\"\n  }\n", m.pset.oauth, c.branch)
	}
}

// writeSetSource writes the source directory: sentinel.hcl or
// policies.hcl, each policy's code, and (OPA) a test of each that passes
// (or, while failingTest, one that fails).
func (m *scenario) writeSetSource(rt *rapid.T) {
	c := m.pset.c
	dir := filepath.Join(m.dir, scenSetSource)
	m.must(rt, os.RemoveAll(dir))
	m.must(rt, os.MkdirAll(dir, 0o700))
	var hcl strings.Builder
	files := map[string]string{}
	for _, f := range slices.Sorted(maps.Keys(c.files)) {
		v := c.files[f]
		if c.kind == "sentinel" {
			fmt.Fprintf(&hcl, "policy %q {\n  source = \"./%[1]s.sentinel\"\n  enforcement_level = \"advisory\"\n}\n", f)
			files[f+".sentinel"] = fmt.Sprintf("# %s v%d\nmain = rule { true }\n", f, v)
			continue
		}
		fmt.Fprintf(&hcl, "policy %q {\n  query = \"data.terraform.policies.%[1]s.deny\"\n  enforcement_level = \"advisory\"\n}\n", f)
		files[f+".rego"] = fmt.Sprintf("package terraform.policies.%s\n\nimport rego.v1\n\n# v%d\ndeny contains \"bad\" if { input.plan.bad }\n", f, v)
		want := "set()"
		if m.pset.failingTest {
			want = `{"bad"}`
		}
		files[f+"_test.rego"] = fmt.Sprintf("package terraform.policies.%s_test\n\nimport rego.v1\n\nimport data.terraform.policies.%[1]s\n\n"+
			"test_good if { %[1]s.deny == %s with input as {\"plan\": {\"bad\": false}} }\n", f, want)
	}
	files[map[string]string{"sentinel": "sentinel.hcl", "opa": "policies.hcl"}[c.kind]] = hcl.String()
	for name, body := range files {
		m.must(rt, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600))
	}
}

// writeParameters writes s0's parameters.
func (m *scenario) writeParameters(b *strings.Builder) {
	for _, i := range slices.Sorted(maps.Keys(m.pset.c.params)) {
		v := m.pset.c.params[i]
		fmt.Fprintf(b, "resource \"tfgov_policy_set_parameter\" \"q%d\" {\n  provider = tfgov.sets\n  policy_set_id = tfgov_policy_set.s0.id\n  key = \"P%[1]d\"\n", i)
		v.write(b, v.value(i))
		b.WriteString("}\n")
	}
}

// setOf is s0 on the service: the set the state holds, or else the one of the configured name.
func (m *scenario) setOf(rt *rapid.T, svc scenService) (scenSetOnService, bool) {
	if id := m.readState(rt)[scenSetAddr]; id != "" {
		for _, s := range svc.sets {
			if s.id == id {
				return s, true
			}
		}
		return scenSetOnService{}, false
	}
	s, ok := svc.sets[m.pset.c.setName()]
	return s, ok
}

// snapshotSetContent reads a set's attributes, content and parameters.
func (m *scenario) snapshotSetContent(rt *rapid.T, ps *tfe.PolicySet, s *scenSetOnService, svc *scenService) {
	s.name, s.description, s.kind, s.versioned = ps.Name, ps.Description, string(ps.Kind), ps.NewestVersion != nil || ps.VCSRepo != nil
	s.overridable = ps.Overridable != nil && *ps.Overridable
	s.policies = []string{}
	for _, p := range ps.Policies {
		s.policies = append(s.policies, p.ID)
	}
	slices.Sort(s.policies)
	if ps.CurrentVersion != nil {
		s.version = ps.CurrentVersion.ID
	}
	if ps.VCSRepo != nil {
		s.vcs = ps.VCSRepo.Identifier + "@" + ps.VCSRepo.Branch
	}
	s.params = map[string]scenVariableOnService{}
	l, err := m.owner.PolicySetParameters.List(m.ctx, ps.ID, &tfe.PolicySetParameterListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	m.must(rt, err)
	for _, p := range l.Items {
		s.params[p.Key] = scenVariableOnService{id: p.ID, value: p.Value, sensitive: p.Sensitive}
		svc.ids[p.ID] = true
	}
}

// contentDiffs says how s0 on the service differs from the configuration in its attributes and content.
func (m *scenario) contentDiffs(rt *rapid.T, got scenSetOnService, svc scenService) []string {
	c := m.pset.c
	var out []string
	if got.name != c.setName() {
		out = append(out, fmt.Sprintf("its name is %q, the configuration's %q", got.name, c.setName()))
	}
	if want := map[int]string{0: "", 1: "d1", 2: "d2"}[c.description]; got.description != want {
		out = append(out, fmt.Sprintf("its description is %q, the configuration's %q", got.description, want))
	}
	if got.overridable != c.overridable {
		out = append(out, fmt.Sprintf("overridable is %v, the configuration's %v", got.overridable, c.overridable))
	}
	want := []string{}
	if c.route == "policy_ids" {
		for i := range c.policies {
			if p, ok := svc.policies[fmt.Sprintf("p%d", i)]; ok && m.policies[i].route != "" {
				want = append(want, p.id)
			}
		}
	}
	slices.Sort(want)
	if !slices.Equal(got.policies, want) {
		out = append(out, fmt.Sprintf("its policies are %v, the configuration's %v", got.policies, want))
	}
	if c.route == "source" {
		if v, _ := m.stateAttribute(rt, scenSetAddr, "version_id").(string); got.version != v {
			out = append(out, fmt.Sprintf("its current version is %q, the state's %q", got.version, v))
		}
	}
	if c.route == "vcs" && got.vcs != fmt.Sprintf("acme/policies@b%d", c.branch) {
		out = append(out, fmt.Sprintf("its repository is %q, the configuration's branch b%d", got.vcs, c.branch))
	}
	return out
}

// checkSetContentShows is invariant 5 for s0's attributes, content and parameters.
func (m *scenario) checkSetContentShows(rt *rapid.T, changes map[string]planChange, svc scenService) {
	if !m.pset.on {
		return
	}
	shows := func(addr string) bool { c, ok := changes[addr]; return ok && !c.noop() }
	got, exists := m.setOf(rt, svc)
	if !exists {
		if !shows(scenSetAddr) {
			m.fail(rt, "invariant 5: the plan does not show "+scenSetAddr, "invariant 5: policy set s0 is not on the service, and the plan shows no change of it")
		}
		return
	}
	if d := m.contentDiffs(rt, got, svc); len(d) > 0 && !shows(scenSetAddr) && m.readState(rt)[scenSetAddr] != "" {
		m.fail(rt, "invariant 5: the plan does not show "+scenSetAddr+"'s content", "invariant 5: the plan shows no change of s0, but %s", strings.Join(d, "; "))
	}
	for i, v := range m.pset.c.params {
		key, addr := fmt.Sprintf("P%d", i), fmt.Sprintf("%s%d", scenParamAddr, i)
		p, ok := got.params[key]
		if d := v.differs(p, ok, v.value(i)); d != "" && !shows(addr) {
			m.fail(rt, "invariant 5: the plan does not show "+addr, "invariant 5: the plan shows no change of %s, but parameter %s: %s", addr, key, d)
		}
	}
}

// checkSetContentHolds is invariant 4 for s0's attributes, content and parameters.
func (m *scenario) checkSetContentHolds(rt *rapid.T, svc scenService) {
	got, ok := m.setOf(rt, svc)
	if !ok {
		return // checkPolicySetsHold fails it
	}
	if d := m.contentDiffs(rt, got, svc); len(d) > 0 {
		m.fail(rt, "invariant 4: policy set s0's content", "invariant 4: after an apply that succeeded, s0: %s", strings.Join(d, "; "))
	}
	if m.pset.c.route == "source" {
		packed, err := packConfiguration(filepath.Join(m.dir, scenSetSource), false)
		m.must(rt, err)
		if sha, _ := m.stateAttribute(rt, scenSetAddr, "source_sha256").(string); sha != packed.hash || got.version == "" {
			m.fail(rt, "invariant 4: policy set s0's source", "invariant 4: s0's state source_sha256 is %q, the directory's %q; its current version %q", sha, packed.hash, got.version)
		}
	}
	for i, v := range m.pset.c.params {
		key := fmt.Sprintf("P%d", i)
		p, ok := got.params[key]
		if d := v.differs(p, ok, v.value(i)); d != "" {
			m.fail(rt, "invariant 4: parameter "+key, "invariant 4: after an apply that succeeded, parameter %s: %s", key, d)
		}
	}
}

// checkSetContentOnlyPlanned is invariant 1 for every set's attributes,
// content and parameters: what changed in the apply, its plan showed.
func (m *scenario) checkSetContentOnlyPlanned(rt *rapid.T, changes map[string]planChange, pre, post scenService) {
	shows := func(addr string) bool { c, ok := changes[addr]; return ok && !c.noop() }
	byID := func(s scenService) map[string]scenSetOnService {
		out := map[string]scenSetOnService{}
		for _, set := range s.sets {
			out[set.id] = set
		}
		return out
	}
	before, after := byID(pre), byID(post)
	for id, a := range before {
		b, ok := after[id]
		if !shows(scenSetAddr) && (!ok || a.name != b.name || a.description != b.description || a.overridable != b.overridable ||
			!slices.Equal(a.policies, b.policies) || a.version != b.version || a.vcs != b.vcs) {
			m.fail(rt, "invariant 1: a policy set changed unplanned", "invariant 1: policy set %s changed in the apply (%+v -> %+v), which its plan did not show", id, a, b)
		}
		for key, p := range a.params {
			addr := scenParamAddr + strings.TrimPrefix(key, "P")
			if q, ok := b.params[key]; (!ok || q != p) && !shows(addr) && !shows(scenSetAddr) {
				m.fail(rt, "invariant 1: parameter "+key+" changed unplanned", "invariant 1: parameter %s of %s changed in the apply (%+v -> %+v), which its plan did not show", key, id, p, q)
			}
		}
		for key := range b.params {
			if _, ok := a.params[key]; !ok && !shows(scenParamAddr+strings.TrimPrefix(key, "P")) {
				m.fail(rt, "invariant 1: parameter "+key+" created unplanned", "invariant 1: the apply created parameter %s of %s, which its plan did not show", key, id)
			}
		}
	}
	for id := range after {
		if _, ok := before[id]; !ok && !shows(scenSetAddr) {
			m.fail(rt, "invariant 1: a policy set created unplanned", "invariant 1: the apply created policy set %s, which its plan did not show", id)
		}
	}
}

// outsideSetContent is an outside write on s0's content, attributes or
// parameters, or a set made outside under its name.
func (m *scenario) outsideSetContent(rt *rapid.T, svc scenService, kind string) {
	ctx := m.ctx
	if kind == "create set" {
		if !m.pset.on {
			rt.Skip("no policy set configured")
		}
		if _, ok := svc.sets[m.pset.c.setName()]; ok {
			rt.Skip("the set exists")
		}
		ps, err := m.owner.PolicySets.Create(ctx, m.org, tfe.PolicySetCreateOptions{Name: tfe.String(m.pset.c.setName()), Kind: tfe.Sentinel})
		m.must(rt, err)
		m.foreign[ps.ID] = true
		m.logf(rt, "outside: create policy set %s (%s)", ps.Name, ps.ID)
		return
	}
	set, ok := m.setOf(rt, svc)
	if !ok {
		rt.Skip("no policy set s0")
	}
	var err error
	switch kind {
	case "attach policy", "detach policy":
		var ids []string
		for _, name := range svc.policyNames() {
			if in := slices.Contains(set.policies, svc.policies[name].id); in == (kind == "detach policy") {
				ids = append(ids, svc.policies[name].id)
			}
		}
		if len(ids) == 0 || kind == "attach policy" && (set.versioned || set.kind == "opa") {
			rt.Skip("no policy to " + kind)
		}
		pols := []*tfe.Policy{{ID: rapid.SampledFrom(ids).Draw(rt, "policy")}}
		if kind == "attach policy" {
			err = m.owner.PolicySets.AddPolicies(ctx, set.id, tfe.PolicySetAddPoliciesOptions{Policies: pols})
		} else {
			err = m.owner.PolicySets.RemovePolicies(ctx, set.id, tfe.PolicySetRemovePoliciesOptions{Policies: pols})
		}
		if err != nil && strings.Contains(err.Error(), "versioned") || tfeUnprocessable(err) {
			rt.Skip("the set takes no individual policies")
		}
		m.logf(rt, "outside: %s %s on s0", kind, pols[0].ID)
	case "upload set version":
		if len(set.policies) > 0 || set.vcs != "" {
			rt.Skip("the set takes no versions")
		}
		dir, derr := os.MkdirTemp("", "tfgov-scenario-set-")
		m.must(rt, derr)
		defer func() { _ = os.RemoveAll(dir) }()
		hcl := "policy \"outside\" {\n  source = \"./outside.sentinel\"\n  enforcement_level = \"advisory\"\n}\n"
		files := map[string]string{"sentinel.hcl": hcl, "outside.sentinel": "main = rule { true }\n"}
		if set.kind == "opa" {
			files = map[string]string{"policies.hcl": "policy \"outside\" {\n  query = \"data.outside.deny\"\n  enforcement_level = \"advisory\"\n}\n",
				"outside.rego": "package outside\n\nimport rego.v1\n\ndeny contains \"x\" if { false }\n"}
		}
		for name, body := range files {
			m.must(rt, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600))
		}
		v, cerr := m.owner.PolicySetVersions.Create(ctx, set.id)
		if tfeUnprocessable(cerr) {
			rt.Skip("the set takes no versions")
		}
		m.must(rt, cerr)
		m.must(rt, m.owner.PolicySetVersions.Upload(ctx, *v, dir))
		m.waitVersion(rt, v.ID)
		m.logf(rt, "outside: upload version %s to s0", v.ID)
	case "rename set":
		_, err = m.owner.PolicySets.Update(ctx, set.id, tfe.PolicySetUpdateOptions{Name: tfe.String(scenSetOutsider)})
		m.logf(rt, "outside: rename s0 to %s", scenSetOutsider)
	case "change set":
		_, err = m.owner.PolicySets.Update(ctx, set.id, tfe.PolicySetUpdateOptions{Description: tfe.String("outside")})
		m.logf(rt, "outside: change s0's description")
	case "delete set", "remake set":
		m.must(rt, m.owner.PolicySets.Delete(ctx, set.id))
		m.logf(rt, "outside: delete policy set s0 (%s)", set.id)
		if kind == "remake set" {
			ps, err := m.owner.PolicySets.Create(ctx, m.org, tfe.PolicySetCreateOptions{Name: tfe.String(set.name), Kind: tfe.PolicyKind(set.kind)})
			m.must(rt, err)
			m.foreign[ps.ID] = true
			m.logf(rt, "outside: make policy set %s again (%s)", set.name, ps.ID)
		}
	case "change parameter", "delete parameter":
		keys := slices.Sorted(maps.Keys(set.params))
		if len(keys) == 0 {
			rt.Skip("no parameter on the service")
		}
		key := rapid.SampledFrom(keys).Draw(rt, "parameter")
		p := set.params[key]
		if kind == "delete parameter" {
			err = m.owner.PolicySetParameters.Delete(ctx, set.id, p.id)
		} else {
			_, err = m.owner.PolicySetParameters.Update(ctx, set.id, p.id, tfe.PolicySetParameterUpdateOptions{Value: tfe.String("outside")})
		}
		m.logf(rt, "outside: %s %s (%s)", kind, key, p.id)
	case "create parameter":
		i := rapid.IntRange(0, scenParams-1).Draw(rt, "parameter")
		key := fmt.Sprintf("P%d", i)
		if _, ok := set.params[key]; ok || set.kind == "opa" || len(set.policies) > 0 && !set.versioned {
			rt.Skip("the parameter exists, or the set takes none")
		}
		p, cerr := m.owner.PolicySetParameters.Create(ctx, set.id, tfe.PolicySetParameterCreateOptions{Key: tfe.String(key), Value: tfe.String("outside"), Category: tfe.Category(tfe.CategoryPolicySet)})
		if isNotFound(cerr) || tfeUnprocessable(cerr) {
			rt.Skip("the set takes no parameters")
		}
		m.must(rt, cerr)
		if _, held := m.readState(rt)[fmt.Sprintf("%s%d", scenParamAddr, i)]; !held {
			m.foreign[p.ID] = true
		}
		m.logf(rt, "outside: create parameter %s (%s)", key, p.ID)
	}
	m.must(rt, err)
}

var scenSetContentOutside = []string{"attach policy", "detach policy", "upload set version", "rename set", "change set", "delete set", "remake set",
	"create set", "change parameter", "delete parameter", "create parameter"}

// tfeUnprocessable: the service refused the write as invalid (go-tfe's error for a 422).
func tfeUnprocessable(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "422") || strings.Contains(err.Error(), "invalid"))
}

// waitVersion waits for a version uploaded outside to leave ingressing, as its uploader would.
func (m *scenario) waitVersion(rt *rapid.T, id string) {
	for range 50 {
		v, err := m.owner.PolicySetVersions.Read(m.ctx, id)
		m.must(rt, err)
		if v.Status != tfe.PolicySetVersionIngressing && v.Status != tfe.PolicySetVersionPending {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// adoptPolicySets finds, for Adopt, s0 made outside under its name while
// the state lacks it (by ID or name), and a parameter of s0 made outside
// (in each of the three import forms).
func (m *scenario) adoptPolicySets(rt *rapid.T, state map[string]string, svc scenService, found map[string]string) {
	if !m.pset.on {
		return
	}
	if set, ok := svc.sets[m.pset.c.setName()]; ok && state[scenSetAddr] == "" {
		found[scenSetAddr] = rapid.SampledFrom([]string{set.id, m.org + "/" + set.name}).Draw(rt, "import set by")
	}
	set, ok := m.setOf(rt, svc)
	if !ok || state[scenSetAddr] == "" {
		return
	}
	for i := range m.pset.c.params {
		addr, key := fmt.Sprintf("%s%d", scenParamAddr, i), fmt.Sprintf("P%d", i)
		if p, ok := set.params[key]; ok && state[addr] == "" {
			found[addr] = rapid.SampledFrom([]string{set.id + "/" + p.id, p.id, m.org + "/" + set.name + "/" + key}).Draw(rt, "import parameter by")
		}
	}
}
