package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Policy sets, as the real service's policy sets API and go-tfe have them:
// their attributes, their scope (workspaces, projects, exclusions, tag
// selectors) and the rules between them; versions are in
// policy_set_versions.go, parameters in policy_set_parameters.go, the scope
// in policy_set_scope.go. Choices: README.md "Policy sets".

func (s *Server) registerPolicySets() {
	s.route("POST /api/v2/organizations/{org}/policy-sets", s.createPolicySet)
	s.route("GET /api/v2/organizations/{org}/policy-sets", s.listPolicySets)
	s.route("GET /api/v2/policy-sets/{id}", s.readPolicySet)
	s.route("PATCH /api/v2/policy-sets/{id}", s.updatePolicySet)
	s.route("DELETE /api/v2/policy-sets/{id}", s.deletePolicySet)
	for _, rel := range setRelations {
		s.route("POST /api/v2/policy-sets/{id}/relationships/"+rel.name, s.changeSetRelation(rel, true))
		s.route("DELETE /api/v2/policy-sets/{id}/relationships/"+rel.name, s.changeSetRelation(rel, false))
	}
	s.route("POST /api/v2/policy-sets/{id}/tag-selectors", s.changeTagSelectors(true))
	s.route("DELETE /api/v2/policy-sets/{id}/tag-selectors", s.changeTagSelectors(false))
}

type policySet struct {
	record
	Org         string `json:"org"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
	Global      bool   `json:"global"`
	// Overridable, AgentEnabled and ToolVersion are kept as sent; what
	// is shown depends on the kind (policySetResource).
	Overridable    bool      `json:"overridable"`
	AgentEnabled   bool      `json:"agent_enabled"`
	ToolVersion    string    `json:"tool_version,omitempty"`
	UpdatePatterns []string  `json:"update_patterns,omitempty"`
	PolicyIDs      []string  `json:"policy_ids"`
	UpdatedAt      time.Time `json:"updated_at"`
	// The scope (policy_set_scope.go).
	WorkspaceIDs        []string      `json:"workspace_ids,omitempty"`
	WorkspaceExclusions []string      `json:"workspace_exclusions,omitempty"`
	ProjectIDs          []string      `json:"project_ids,omitempty"`
	ProjectExclusions   []string      `json:"project_exclusions,omitempty"`
	TagSelectors        []tagSelector `json:"tag_selectors,omitempty"`
	// MatchLogic is "any" or "all"; "" is "any".
	MatchLogic string `json:"match_logic,omitempty"`
	// VCSRepo: the set's policies come from a repository (no VCS contacted): README.md "Policy sets".
	VCSRepo      *setVCSRepo `json:"vcs_repo,omitempty"`
	PoliciesPath string      `json:"policies_path,omitempty"`
}

// setVCSRepo is a set's VCS connection as sent.
type setVCSRepo struct {
	moduleVCSRepo
	IngressSubmodules bool `json:"ingress_submodules,omitempty"`
}

// setVCSInput is a policy set's `vcs-repo` as go-tfe's VCSRepoOptions sends it.
type setVCSInput struct {
	vcsRepoInput
	IngressSubmodules *bool `json:"ingress-submodules"`
}

// versioned: its policies come from versions (uploaded, or a repository's).
func (st *state) versioned(ps *policySet) bool {
	return ps.VCSRepo != nil || st.versionsOf(ps.ID) != nil
}

func canManagePolicies(a orgAccess) bool { return a.ManagePolicies }

// setRelation is one of the scope relationships of a set: its name in the
// API, the type of what it names, and its list on the record.
type setRelation struct {
	name, typ string
	// include is the `include` value that embeds the related records.
	include string
	ids     func(ps *policySet) *[]string
	// attach is true for what makes workspaces governed, which a global
	// set cannot have.
	attach bool
}

var setRelations = []setRelation{
	{"workspaces", "workspaces", "workspaces", func(ps *policySet) *[]string { return &ps.WorkspaceIDs }, true},
	{"workspace-exclusions", "workspaces", "workspace_exclusions", func(ps *policySet) *[]string { return &ps.WorkspaceExclusions }, false},
	{"projects", "projects", "projects", func(ps *policySet) *[]string { return &ps.ProjectIDs }, true},
	{"project-exclusions", "projects", "project_exclusions", func(ps *policySet) *[]string { return &ps.ProjectExclusions }, false},
}

// toolVersionRE is a policy tool version: `latest` or a semantic version.
var toolVersionRE = regexp.MustCompile(`^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$`)

// agentRuns reports whether the set's policies run in an agent (policy
// evaluations): always for OPA, on request for Sentinel.
func (ps *policySet) agentRuns() bool { return ps.Kind == "opa" || ps.AgentEnabled }

func (st *state) policySetResource(ps *policySet) resource {
	var overridable, toolVersion any
	if ps.agentRuns() {
		overridable = ps.Overridable
		toolVersion = cmpOr(ps.ToolVersion, "latest")
	}
	var logic any
	if len(ps.TagSelectors) > 0 {
		logic = cmpOr(ps.MatchLogic, "any")
	}
	selectors := make([]map[string]any, 0, len(ps.TagSelectors))
	for _, sel := range ps.TagSelectors {
		selectors = append(selectors, map[string]any{"tag-key": sel.Key, "tag-value": sel.Value, "is-exclude": sel.IsExclude})
	}
	patterns := ps.UpdatePatterns
	if patterns == nil {
		patterns = []string{}
	}
	newest, current := st.setVersions(ps)
	res := resource{
		Type: "policy-sets",
		ID:   ps.ID,
		Attributes: map[string]any{
			"name":                        ps.Name,
			"description":                 nullableString(ps.Description),
			"kind":                        ps.Kind,
			"global":                      ps.Global,
			"overridable":                 overridable,
			"agent-enabled":               ps.agentRuns(),
			"policy-tool-version":         toolVersion,
			"policy-update-patterns":      patterns,
			"policy-count":                len(ps.PolicyIDs),
			"workspace-count":             len(ps.WorkspaceIDs),
			"project-count":               len(ps.ProjectIDs),
			"versioned":                   newest != nil || ps.VCSRepo != nil,
			"tag-selectors":               selectors,
			"tag-selector-matching-logic": logic,
			"created-at":                  timestamp(ps.CreatedAt),
			"updated-at":                  timestamp(ps.UpdatedAt),
			"vcs-repo":                    setVCSResource(ps.VCSRepo),
			"policies-path":               nullableString(ps.PoliciesPath),
		},
		Relationships: map[string]any{
			"organization":    relOne("organizations", ps.Org),
			"policies":        relMany("policies", ps.PolicyIDs),
			"newest-version":  relOne("policy-set-versions", idOf(newest)),
			"current-version": relOne("policy-set-versions", idOf(current)),
		},
		Links: map[string]any{"self": apiPath("policy-sets", ps.ID)},
	}
	for _, rel := range setRelations {
		res.Relationships[rel.name] = relMany(rel.typ, *rel.ids(ps))
	}
	return res
}

func cmpOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func idOf(v *policySetVersion) string {
	if v == nil {
		return ""
	}
	return v.ID
}

// policySetIncludes parses `include` for show and list. go-tfe sends the
// exclusions with an underscore, the reference's list with a hyphen: both
// are accepted. Anything else is a 400 naming the parameter.
func policySetIncludes(r *http.Request) (map[string]bool, *apiError) {
	known := []string{"policies", "workspaces", "projects", "workspace_exclusions", "project_exclusions", "newest_version", "current_version"}
	out := map[string]bool{}
	for k := range includes(r) {
		k = strings.ReplaceAll(k, "-", "_")
		if !slices.Contains(known, k) {
			return nil, errBadRequest("include", fmt.Sprintf("%q is not an allowed relationship; use %s", k, strings.Join(known, ", ")))
		}
		out[k] = true
	}
	return out, nil
}

// includedForSets renders, once each, what inc asks for of sets.
func (st *state) includedForSets(p principal, inc map[string]bool, sets ...*policySet) []resource {
	out := []resource{}
	seen := map[string]bool{}
	add := func(typ, id string, render func() resource) {
		if id == "" || seen[typ+"/"+id] {
			return
		}
		seen[typ+"/"+id] = true
		out = append(out, render())
	}
	renderWS := st.workspaceRenderer(p)
	for _, ps := range sets {
		if inc["policies"] {
			for _, id := range ps.PolicyIDs {
				if pol := st.Policies[id]; pol != nil {
					add("policies", id, func() resource { return st.policyResource(pol, true) })
				}
			}
		}
		for _, rel := range setRelations {
			if !inc[rel.include] {
				continue
			}
			for _, id := range *rel.ids(ps) {
				if rel.typ == "workspaces" {
					if ws := st.Workspaces[id]; ws != nil {
						add("workspaces", id, func() resource { return renderWS(ws) })
					}
				} else if prj := st.Projects[id]; prj != nil {
					add("projects", id, func() resource { return st.projectResource(p)(prj) })
				}
			}
		}
		newest, current := st.setVersions(ps)
		if inc["newest_version"] && newest != nil {
			add("policy-set-versions", newest.ID, func() resource { return st.policySetVersionResource(newest) })
		}
		if inc["current_version"] && current != nil {
			add("policy-set-versions", current.ID, func() resource { return st.policySetVersionResource(current) })
		}
	}
	return out
}

// setScope is what createPolicySet and updatePolicySet read of the scope
// and the policies; nil fields were not sent.
type setScope struct {
	policies, workspaces, exclusions, projects, projectExclusions *[]string
}

// relIDsSent returns the ids of a to-many relationship, or nil when it is
// absent; an empty array is a non-nil empty list (clear it).
func relIDsSent(b *body, name, typ string) *[]string {
	rel, ok := b.res.Relationships[name]
	if !ok || len(rel.Data) == 0 || string(rel.Data) == "null" {
		return nil
	}
	ids := b.relIDs(name, typ)
	if ids == nil {
		ids = []string{}
	}
	return &ids
}

func readSetScope(b *body) setScope {
	return setScope{
		policies:          relIDsSent(b, "policies", "policies"),
		workspaces:        relIDsSent(b, "workspaces", "workspaces"),
		exclusions:        relIDsSent(b, "workspace-exclusions", "workspaces"),
		projects:          relIDsSent(b, "projects", "projects"),
		projectExclusions: relIDsSent(b, "project-exclusions", "projects"),
	}
}

// readTagSelectors reads `tag-selectors` (nil when not sent).
func readTagSelectors(b *body) *[]tagSelector {
	var in []struct {
		Key       *string `json:"tag-key"`
		Value     *string `json:"tag-value"`
		IsExclude bool    `json:"is-exclude"`
	}
	if !b.optObject("tag-selectors", &in) {
		return nil
	}
	out := []tagSelector{}
	for i, sel := range in {
		if sel.Key == nil || strings.TrimSpace(*sel.Key) == "" {
			b.fail(errInvalidAttribute("tag-selectors", fmt.Sprintf("tag-selectors[%d].tag-key is required", i)))
			return nil
		}
		out = appendSelector(out, tagSelector{Key: *sel.Key, Value: sel.Value, IsExclude: sel.IsExclude})
	}
	return &out
}

// appendSelector adds sel unless an equal selector is there.
func appendSelector(sels []tagSelector, sel tagSelector) []tagSelector {
	if slices.ContainsFunc(sels, sel.equal) {
		return sels
	}
	return append(sels, sel)
}

func (sel tagSelector) equal(o tagSelector) bool {
	return sel.Key == o.Key && sel.IsExclude == o.IsExclude && (sel.Value == nil) == (o.Value == nil) && (sel.Value == nil || *sel.Value == *o.Value)
}

// readMatchLogic reads `tag-selector-matching-logic`: "any", "all", or
// null (sent: cleared). sent reports whether it was present.
func readMatchLogic(b *body) (logic string, sent bool) {
	if !b.has("tag-selector-matching-logic") {
		return "", false
	}
	v := b.optString("tag-selector-matching-logic")
	b.oneOf("tag-selector-matching-logic", v, "any", "all")
	if v == nil {
		return "", true
	}
	return *v, true
}

// checkScope applies the rules between a set's attributes and its scope,
// on the set as it would be after a write: README.md "Policy sets".
func (st *state) checkScope(ps *policySet) *apiError {
	if ps.Global {
		if len(ps.WorkspaceIDs) > 0 {
			return errInvalidRelationship("workspaces", "a global policy set applies to every workspace: it cannot be attached to workspaces (exclude them instead)")
		}
		if len(ps.ProjectIDs) > 0 {
			return errInvalidRelationship("projects", "a global policy set applies to every workspace: it cannot be attached to projects (exclude them instead)")
		}
		for _, sel := range ps.TagSelectors {
			if !sel.IsExclude {
				return errInvalidAttribute("tag-selectors", "a global policy set applies to every workspace: its tag selectors may only exclude (is-exclude true)")
			}
		}
	}
	if len(ps.PolicyIDs) > 0 && st.versioned(ps) {
		return errInvalidRelationship("policies", "policy set "+ps.ID+" is versioned (its policies come from uploaded versions): individual policies cannot be added to it")
	}
	for _, id := range ps.PolicyIDs {
		pol := st.Policies[id]
		if pol == nil || pol.Org != ps.Org || pol.Kind != ps.Kind {
			return errInvalidRelationship("policies", fmt.Sprintf("policies: policy %s not found among the %s policies of organization %s", id, ps.Kind, ps.Org))
		}
	}
	for _, rel := range setRelations {
		for _, id := range *rel.ids(ps) {
			if e := st.checkScopeTarget(ps.Org, rel, id); e != nil {
				return e
			}
		}
	}
	return nil
}

// checkScopeTarget checks that id names a workspace or project of org.
func (st *state) checkScopeTarget(org string, rel setRelation, id string) *apiError {
	if rel.typ == "workspaces" {
		if ws := st.Workspaces[id]; ws == nil || ws.Org != org {
			return errInvalidRelationship(rel.name, fmt.Sprintf("%s: workspace %s not found in organization %s", rel.name, id, org))
		}
		return nil
	}
	return st.checkProject(org, rel.name, id)
}

func errInvalidRelationship(name, detail string) *apiError {
	return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: detail, Pointer: "/data/relationships/" + name}
}

// readSetAttributes applies the attributes create and update share.
func readSetAttributes(b *body, ps *policySet) {
	assign(&ps.Description, b.optString("description"))
	assign(&ps.Global, b.optBool("global"))
	assign(&ps.Overridable, b.optBool("overridable"))
	assign(&ps.AgentEnabled, b.optBool("agent-enabled"))
	if v := b.optString("policy-tool-version"); v != nil {
		if !toolVersionRE.MatchString(*v) {
			b.fail(errInvalidAttribute("policy-tool-version", fmt.Sprintf("policy-tool-version must be latest or a version such as 0.23.0, got %q", *v)))
		}
		ps.ToolVersion = *v
	}
	if v := b.optStrings("policy-update-patterns"); v != nil {
		if len(v) > 100 {
			b.fail(errInvalidAttribute("policy-update-patterns", "policy-update-patterns holds at most 100 patterns"))
		}
		ps.UpdatePatterns = v
	}
	if v := b.optString("policies-path"); v != nil {
		ps.PoliciesPath = *v
	}
	if sels := readTagSelectors(b); sels != nil {
		ps.TagSelectors = *sels
	}
	if logic, sent := readMatchLogic(b); sent {
		ps.MatchLogic = logic
	}
}

// createPolicySet creates a set: owners, the organization token and teams
// with manage-policies. The free edition's "one policy set of up to five
// policies" is not enforced: the sandbox emulates a paid organization.
func (s *Server) createPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManagePolicies, "policy-sets")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	kind := b.optString("kind")
	b.oneOf("kind", kind, "sentinel", "opa")
	ps := &policySet{Org: org, Name: name, Kind: "sentinel", PolicyIDs: []string{}}
	assign(&ps.Kind, kind)
	readSetAttributes(b, ps)
	sc := readSetScope(b)
	if b.err != nil {
		return b.err
	}
	if e := s.st.readSetVCS(b, ps); e != nil {
		return e
	}
	if e := checkName(name); e != nil {
		return e
	}
	if find(s.st.PolicySets, func(o *policySet) bool { return o.Org == org && o.Name == name }) != nil {
		return errNameTaken()
	}
	applyScope(ps, sc)
	if e := s.st.checkScope(ps); e != nil {
		return e
	}
	ps.record = s.st.newRecord("polset-")
	ps.UpdatedAt = ps.CreatedAt
	s.st.PolicySets[ps.ID] = ps
	return writeOne(w, http.StatusCreated, ps, s.st.policySetResource)
}

// applyScope sets the lists sc carries, each once per ID.
func applyScope(ps *policySet, sc setScope) {
	for dst, src := range map[*[]string]*[]string{
		&ps.PolicyIDs: sc.policies, &ps.WorkspaceIDs: sc.workspaces, &ps.WorkspaceExclusions: sc.exclusions,
		&ps.ProjectIDs: sc.projects, &ps.ProjectExclusions: sc.projectExclusions,
	} {
		if src != nil {
			*dst = uniqueIDs(*src)
		}
	}
}

func uniqueIDs(ids []string) []string {
	out := []string{}
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// updatePolicySet changes a set. kind cannot change (a 422: the set's
// policies and versions are of its kind). Making a set global detaches it
// from its workspaces and projects, which a global set cannot have; the
// exclusions stay.
func (s *Server) updatePolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "policy-sets")
	if e != nil {
		return e
	}
	if b.res.ID != "" && b.res.ID != ps.ID {
		return errConflict("data.id does not match the policy set in the path")
	}
	next := *ps
	next.UpdatePatterns = slices.Clone(ps.UpdatePatterns)
	next.TagSelectors = slices.Clone(ps.TagSelectors)
	name := b.optString("name")
	if kind := b.optString("kind"); kind != nil && *kind != ps.Kind {
		b.fail(errInvalidAttribute("kind", fmt.Sprintf("kind cannot be changed (policy set %s is %s): make a new policy set", ps.ID, ps.Kind)))
	}
	readSetAttributes(b, &next)
	sc := readSetScope(b)
	if sc.policies != nil {
		b.fail(errInvalidRelationship("policies", "policies are changed through /policy-sets/:id/relationships/policies"))
	}
	if b.err != nil {
		return b.err
	}
	if e := s.st.readSetVCS(b, &next); e != nil {
		return e
	}
	if name != nil {
		if e := checkName(*name); e != nil {
			return e
		}
		if *name != ps.Name && find(s.st.PolicySets, func(o *policySet) bool { return o.Org == ps.Org && o.Name == *name }) != nil {
			return errNameTaken()
		}
		next.Name = *name
	}
	if next.Global && !ps.Global && sc.workspaces == nil && sc.projects == nil {
		next.WorkspaceIDs, next.ProjectIDs = nil, nil
	}
	applyScope(&next, sc)
	if e := s.st.checkScope(&next); e != nil {
		return e
	}
	next.UpdatedAt = s.st.now()
	*ps = next
	return writeOne(w, http.StatusOK, ps, s.st.policySetResource)
}

// listPolicySets lists the organization's sets, oldest first, with
// `search[name]` (part of the name, any case), `filter[kind]`,
// `filter[versioned]` and `include`.
func (s *Server) listPolicySets(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, canManagePolicies)
	if e != nil {
		return e
	}
	inc, e := policySetIncludes(r)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	search := strings.ToLower(q.Get("search[name]"))
	kind := q.Get("filter[kind]")
	if kind != "" && kind != "sentinel" && kind != "opa" {
		return errBadRequest("filter[kind]", fmt.Sprintf("must be sentinel or opa, got %q", kind))
	}
	var versioned *bool
	if v := q.Get("filter[versioned]"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errBadRequest("filter[versioned]", fmt.Sprintf("must be true or false, got %q", v))
		}
		versioned = &b
	}
	all := sorted(s.st.PolicySets, func(ps *policySet) bool {
		return ps.Org == org && strings.Contains(strings.ToLower(ps.Name), search) &&
			(kind == "" || ps.Kind == kind) && (versioned == nil || *versioned == s.st.versioned(ps))
	})
	doc, items, e := listPage(r, all, s.st.policySetResource)
	if e != nil {
		return e
	}
	if len(inc) > 0 {
		doc.Included = s.st.includedForSets(p, inc, items...)
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// policySetFor returns the set at id when p may manage policies in its
// organization, or nil.
func (st *state) policySetFor(p principal, id string) *policySet {
	return visible(st.PolicySets[id], func(ps *policySet) bool { return st.canManagePoliciesIn(p, ps.Org) })
}

func (s *Server) readPolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return errNotFound()
	}
	inc, e := policySetIncludes(r)
	if e != nil {
		return e
	}
	doc := document{Data: s.st.policySetResource(ps)}
	if len(inc) > 0 {
		doc.Included = s.st.includedForSets(p, inc, ps)
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

func (s *Server) deletePolicySet(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.policySetFor(p, r.PathValue("id")), s.st.deletePolicySet)
}

// deletePolicySet removes a set with its versions and parameters; the
// policies in it stay (a policy's sets are derived from the sets' PolicyIDs,
// see policies.go).
func (st *state) deletePolicySet(id string) {
	deleteWhere(st.PolicySetVersions, func(v *policySetVersion) bool { return v.SetID == id }, func(vid string) { delete(st.PolicySetVersions, vid) })
	deleteWhere(st.PolicySetParameters, func(v *policySetParameter) bool { return v.SetID == id }, func(vid string) { delete(st.PolicySetParameters, vid) })
	delete(st.PolicySets, id)
}

// forgetScopeTarget removes a deleted workspace or project from every
// set's scope.
func (st *state) forgetScopeTarget(typ, id string) {
	for _, ps := range st.PolicySets {
		for _, rel := range setRelations {
			if rel.typ == typ {
				ids := rel.ids(ps)
				*ids = slices.DeleteFunc(*ids, func(x string) bool { return x == id })
			}
		}
	}
}

// changeSetRelation serves POST (add) and DELETE (remove) on
// /policy-sets/:id/relationships/{workspaces,workspace-exclusions,projects,
// project-exclusions}: 204. Adding what is there or removing what is not is
// not an error; nothing changes when any ID is refused.
func (s *Server) changeSetRelation(rel setRelation, add bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		ps := s.st.policySetFor(p, r.PathValue("id"))
		if ps == nil {
			return errNotFound()
		}
		ids, e := decodeLinkage(r, rel.typ)
		if e != nil {
			return e
		}
		if add && rel.attach && ps.Global {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("policy set %s is global: it applies to every workspace and cannot be attached to %s", ps.ID, rel.name), Pointer: "/data"}
		}
		for i, id := range ids {
			if e := s.st.checkScopeTarget(ps.Org, rel, id); e != nil && (add || rel.typ == "projects") {
				e.Pointer = fmt.Sprintf("/data/%d", i)
				return e
			}
		}
		list := rel.ids(ps)
		before := len(*list)
		if add {
			*list = uniqueIDs(append(*list, ids...))
		} else {
			*list = slices.DeleteFunc(*list, func(id string) bool { return slices.Contains(ids, id) })
		}
		if len(*list) != before {
			ps.UpdatedAt = s.st.now()
		}
		writeNoContent(w)
		return nil
	}
}

// changeTagSelectors serves POST (add) and DELETE (remove) on
// /policy-sets/:id/tag-selectors, whose body is `{"data": [{"tag-key",
// "tag-value", "is-exclude"}]}` (go-tfe's wire format, not resource
// objects): 204.
func (s *Server) changeTagSelectors(add bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		ps := s.st.policySetFor(p, r.PathValue("id"))
		if ps == nil {
			return errNotFound()
		}
		var doc struct {
			Data []struct {
				Key       *string `json:"tag-key"`
				Value     *string `json:"tag-value"`
				IsExclude bool    `json:"is-exclude"`
			} `json:"data"`
		}
		raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody))
		if err != nil || json.Unmarshal(raw, &doc) != nil {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be an array of tag selectors ({tag-key, tag-value, is-exclude})", Pointer: "/data"}
		}
		if len(doc.Data) == 0 {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must name at least one tag selector", Pointer: "/data"}
		}
		next := slices.Clone(ps.TagSelectors)
		for i, d := range doc.Data {
			if d.Key == nil || strings.TrimSpace(*d.Key) == "" {
				return &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: fmt.Sprintf("data[%d].tag-key is required", i), Pointer: fmt.Sprintf("/data/%d", i)}
			}
			sel := tagSelector{Key: *d.Key, Value: d.Value, IsExclude: d.IsExclude}
			if add {
				if ps.Global && !sel.IsExclude {
					return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid tag selector", Detail: "a global policy set applies to every workspace: its tag selectors may only exclude (is-exclude true)", Pointer: fmt.Sprintf("/data/%d", i)}
				}
				next = appendSelector(next, sel)
			} else {
				next = slices.DeleteFunc(next, sel.equal)
			}
		}
		if len(next) != len(ps.TagSelectors) {
			ps.TagSelectors = next
			ps.UpdatedAt = s.st.now()
		}
		writeNoContent(w)
		return nil
	}
}

// scopeOf is the scope function's view of a set.
func (ps *policySet) scopeOf() scopeSet {
	return scopeSet{
		Global: ps.Global, Workspaces: ps.WorkspaceIDs, WorkspaceExclusions: ps.WorkspaceExclusions,
		Projects: ps.ProjectIDs, ProjectExclusions: ps.ProjectExclusions,
		TagSelectors: ps.TagSelectors, MatchAll: ps.MatchLogic == "all",
	}
}

// governedBy returns the IDs of the workspaces the set governs, sorted.
func (st *state) governedBy(ps *policySet) []string {
	var all []scopeWorkspace
	for _, ws := range st.Workspaces {
		if ws.Org == ps.Org {
			all = append(all, st.scopeWorkspaceOf(ws))
		}
	}
	return governedWorkspaces(ps.scopeOf(), all)
}

// GovernedWorkspaces returns the IDs of the workspaces policy set id
// governs now, sorted, or false when there is no such set: the ground truth
// for tests that check what a client computed.
func (s *Server) GovernedWorkspaces(id string) ([]string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := s.st.PolicySets[id]
	if ps == nil {
		return nil, false
	}
	return s.st.governedBy(ps), true
}

// readSetVCS applies a sent `vcs-repo` (null detaches the repository) and checks `policies-path`,
// valid only with one. The OAuth token must be the organization's (checkVCSRepo); nothing is fetched.
func (st *state) readSetVCS(b *body, ps *policySet) *apiError {
	if b.present("vcs-repo") && string(b.res.Attributes["vcs-repo"]) == "null" {
		ps.VCSRepo = nil
	} else if b.present("vcs-repo") {
		var in setVCSInput
		if !b.optObject("vcs-repo", &in) {
			return b.err
		}
		repo := &setVCSRepo{moduleVCSRepo: moduleVCSRepo{Identifier: str(in.Identifier), OAuthTokenID: str(in.OAuthTokenID), Branch: str(in.Branch)},
			IngressSubmodules: in.IngressSubmodules != nil && *in.IngressSubmodules}
		repo.DisplayIdentifier = repo.Identifier
		if e := st.checkVCSRepo(ps.Org, in.vcsRepoInput, &repo.moduleVCSRepo); e != nil {
			return e
		}
		if len(ps.PolicyIDs) > 0 {
			return errInvalidRelationship("policies", "policy set "+ps.ID+" has individual policies: remove them before connecting a VCS repository")
		}
		ps.VCSRepo = repo
	}
	if ps.PoliciesPath != "" && ps.VCSRepo == nil {
		return errInvalidAttribute("policies-path", "policies-path is only valid with a vcs-repo")
	}
	return nil
}

// setVCSResource is a set's `vcs-repo`, shaped as go-tfe's VCSRepo; null without one.
func setVCSResource(v *setVCSRepo) any {
	if v == nil {
		return nil
	}
	out := vcsRepoResource(&v.moduleVCSRepo)
	out["ingress-submodules"] = v.IngressSubmodules
	return out
}
