package sandbox

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The "Policies" section of the reference, and the policy-set endpoints that add and remove
// policies; which sets include a policy is stored once, on the sets (README.md "Policies").

// MaxPolicyCodeSize is the largest policy code the upload endpoint accepts:
// 10 MB (10 MiB, 10,485,760 bytes). A larger body is a 413 and nothing is
// saved.
const MaxPolicyCodeSize = 10 << 20

type policy struct {
	record
	Org  string `json:"org"`
	Name string `json:"name"`
	// Description is nil until one is set (the API's default null).
	Description *string `json:"description"`
	Kind        string  `json:"kind"`
	// Query is nil for sentinel policies.
	Query *string `json:"query"`
	Level string  `json:"level"`
	// Code is the uploaded code; Uploaded tells an empty upload from none.
	Code     []byte `json:"code"`
	Uploaded bool   `json:"uploaded"`
	// UpdatedAt is zero (null in the API) until the first update or upload.
	UpdatedAt time.Time `json:"updated_at"`
}

// policyLevels are the enforcement levels each kind allows, in the
// reference's order.
var policyLevels = map[string][]string{
	"sentinel": {"hard-mandatory", "soft-mandatory", "advisory"},
	"opa":      {"mandatory", "advisory"},
}

// policyExtension is the file extension of each kind's code, used in the
// deprecated `enforce` paths.
var policyExtension = map[string]string{"sentinel": ".sentinel", "opa": ".rego"}

// defaultPolicyLevel is the level a policy gets when no usable level is
// sent: the reference's deprecated-`enforce` defaults, hard-mandatory for
// Sentinel and advisory for OPA.
var defaultPolicyLevel = map[string]string{"sentinel": "hard-mandatory", "opa": "advisory"}

func (s *Server) registerPolicies() {
	s.route("POST /api/v2/organizations/{org}/policies", s.createPolicy)
	s.route("GET /api/v2/organizations/{org}/policies", s.listPolicies)
	s.route("GET /api/v2/policies/{id}", s.readPolicy)
	s.route("PATCH /api/v2/policies/{id}", s.updatePolicy)
	s.route("DELETE /api/v2/policies/{id}", s.deletePolicy)
	s.route("PUT /api/v2/policies/{id}/upload", s.uploadPolicy)
	s.route("GET /api/v2/policies/{id}/download", s.downloadPolicy)
	s.route("POST /api/v2/policy-sets/{id}/relationships/policies", s.addPolicySetPolicies)
	s.route("DELETE /api/v2/policy-sets/{id}/relationships/policies", s.removePolicySetPolicies)
}

// canManagePoliciesIn reports whether p may read and write the policies of
// org.
func (st *state) canManagePoliciesIn(p principal, org string) bool {
	return st.memberOf(p, org) && st.hasOrgAccess(p, org, canManagePolicies)
}

// policyFor returns the policy at id when p may manage it.
func (st *state) policyFor(p principal, id string) *policy {
	pol := st.Policies[id]
	if pol == nil || !st.canManagePoliciesIn(p, pol.Org) {
		return nil
	}
	return pol
}

// setsOf lists the policy sets that include the policy, oldest first.
func (st *state) setsOf(policyID string) []*policySet {
	return sorted(st.PolicySets, func(ps *policySet) bool { return slices.Contains(ps.PolicyIDs, policyID) })
}

// policyResource renders a policy. withDownload adds `links.download`,
// which the reference gives in show, update and list responses but not in
// the create response.
func (st *state) policyResource(pol *policy, withDownload bool) resource {
	sets := st.setsOf(pol.ID)
	setIDs := make([]string, len(sets))
	for i, ps := range sets {
		setIDs[i] = ps.ID
	}
	// The deprecated `enforce` is `[]` until code has been uploaded, then
	// one element naming the code file and the level, as on the real service.
	enforce := []map[string]any{}
	if pol.Uploaded {
		enforce = append(enforce, map[string]any{"path": pol.Name + policyExtension[pol.Kind], "mode": pol.Level})
	}
	var description, query any
	if pol.Description != nil {
		description = *pol.Description
	}
	if pol.Query != nil {
		query = *pol.Query
	}
	links := map[string]any{
		"self":   apiPath("policies", pol.ID),
		"upload": apiPath("policies", pol.ID, "upload"),
	}
	if withDownload {
		links["download"] = apiPath("policies", pol.ID, "download")
	}
	return resource{
		Type: "policies",
		ID:   pol.ID,
		Attributes: map[string]any{
			"name":              pol.Name,
			"description":       description,
			"kind":              pol.Kind,
			"query":             query,
			"enforcement-level": pol.Level,
			"enforce":           enforce,
			"policy-set-count":  len(setIDs),
			"updated-at":        nullableTime(pol.UpdatedAt),
		},
		Relationships: map[string]any{
			"organization": relOne("organizations", pol.Org),
			"policy-sets":  relMany("policy-sets", setIDs),
		},
		Links: links,
	}
}

// policyIncludes parses `include` for show and list: only `policy_sets` is
// known; anything else is a 400 naming the parameter, as the real service
// answers an unknown include.
func policyIncludes(r *http.Request) (bool, *apiError) {
	inc := includes(r)
	for k := range inc {
		if k != "policy_sets" {
			return false, errBadRequest("include", fmt.Sprintf("%q is not an allowed relationship; use policy_sets", k))
		}
	}
	return inc["policy_sets"], nil
}

// includedSets renders the policy sets of pols once each, for `included`.
func (st *state) includedSets(pols ...*policy) []resource {
	out := []resource{}
	seen := map[string]bool{}
	for _, pol := range pols {
		for _, ps := range st.setsOf(pol.ID) {
			if !seen[ps.ID] {
				seen[ps.ID] = true
				out = append(out, st.policySetResource(ps))
			}
		}
	}
	return out
}

// enforceItem is one element of the deprecated `enforce` array.
type enforceItem struct {
	Path *string `json:"path"`
	Mode *string `json:"mode"`
}

// readLevel reads the enforcement level a create or update asks for:
// `enforcement-level`, or else the deprecated `enforce` array. It returns
// "" when neither is sent (or `enforce` is `[]`). Both at once is a 422, as
// go-tfe refuses to send them together.
//
// From `enforce` (one element, `path` and `mode` both required), the level
// is `mode` when `path` is `<NAME>.sentinel` (Sentinel) or `<NAME>.rego`
// (OPA); for any other path it is the reference's default: hard-mandatory
// for Sentinel, advisory for OPA. Either way `mode` must be a level of the
// policy's kind.
func readLevel(b *body, kind, name string) string {
	level := b.optString("enforcement-level")
	var items []enforceItem
	sentEnforce := b.optObject("enforce", &items) && len(items) > 0
	if b.err != nil {
		return ""
	}
	allowed := policyLevels[kind]
	if level != nil {
		if sentEnforce {
			b.fail(errInvalidAttribute("enforcement-level", "send enforcement-level or the deprecated enforce, not both"))
			return ""
		}
		if !slices.Contains(allowed, *level) {
			b.fail(errInvalidAttribute("enforcement-level", fmt.Sprintf("enforcement-level must be one of %s for a %s policy, got %q", strings.Join(allowed, ", "), kind, *level)))
			return ""
		}
		return *level
	}
	switch {
	case !sentEnforce:
		return ""
	case len(items) > 1:
		b.fail(errInvalidAttribute("enforce", fmt.Sprintf("enforce holds one element, got %d", len(items))))
		return ""
	case items[0].Path == nil || strings.TrimSpace(*items[0].Path) == "":
		b.fail(errInvalidAttribute("enforce", "enforce[0].path is required"))
		return ""
	case items[0].Mode == nil:
		b.fail(errInvalidAttribute("enforce", "enforce[0].mode is required"))
		return ""
	case !slices.Contains(allowed, *items[0].Mode):
		b.fail(errInvalidAttribute("enforce", fmt.Sprintf("enforce[0].mode must be one of %s for a %s policy, got %q", strings.Join(allowed, ", "), kind, *items[0].Mode)))
		return ""
	case *items[0].Path == name+policyExtension[kind]:
		return *items[0].Mode
	default:
		return defaultPolicyLevel[kind]
	}
}

// createPolicy creates a policy record without code, answering 200 as the reference does; its
// 422s and defaults: README.md "Policies".
func (s *Server) createPolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.canManagePoliciesIn(p, org) {
		return errNotFound()
	}
	b, e := decodeBody(r, "policies")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	kind := b.optString("kind")
	b.oneOf("kind", kind, "sentinel", "opa")
	desc := b.optString("description")
	query := b.optString("query")
	setIDs := b.relIDs("policy-sets", "policy-sets")
	if b.err != nil {
		return b.err
	}
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", fmt.Sprintf("name may contain only letters, numbers, - and _, got %q", name))
	}
	for _, other := range s.st.Policies {
		if other.Org == org && other.Name == name {
			return errInvalidAttribute("name", fmt.Sprintf("name %q has already been taken in organization %s", name, org))
		}
	}
	pol := &policy{Org: org, Name: name, Kind: "sentinel", Description: desc}
	if kind != nil {
		pol.Kind = *kind
	}
	if e := checkQuery(pol.Kind, query, true); e != nil {
		return e
	}
	pol.Query = query
	pol.Level = readLevel(b, pol.Kind, name)
	if b.err != nil {
		return b.err
	}
	if pol.Level == "" {
		pol.Level = defaultPolicyLevel[pol.Kind]
	}
	sets, e := s.st.policySetsForPolicy(org, pol.Kind, setIDs)
	if e != nil {
		return e
	}
	pol.record = s.st.newRecord("pol-")
	s.st.Policies[pol.ID] = pol
	for _, ps := range sets {
		s.st.attachPolicy(ps, pol.ID)
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.policyResource(pol, false)})
	return nil
}

// checkQuery applies the query rules: only OPA policies take one, and an
// OPA policy must have one at creation (go-tfe requires it client-side).
// A PATCH of a Sentinel policy never gets here with a query: updatePolicy
// drops it first, as the real service does.
func checkQuery(kind string, query *string, creating bool) *apiError {
	switch {
	case query != nil && kind != "opa":
		return errInvalidAttribute("query", "query is only valid for opa policies")
	case query != nil && strings.TrimSpace(*query) == "":
		return errInvalidAttribute("query", "query can't be blank")
	case query == nil && kind == "opa" && creating:
		return errInvalidAttribute("query", "query is required for opa policies")
	}
	return nil
}

// policySetsForPolicy resolves the sets a create names in its
// `policy-sets` relationship: each must be a set of org of the same kind.
func (st *state) policySetsForPolicy(org, kind string, ids []string) ([]*policySet, *apiError) {
	var out []*policySet
	for _, id := range ids {
		ps := st.PolicySets[id]
		if ps == nil || ps.Org != org {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("policy-sets: policy set %s not found in organization %s", id, org), Pointer: "/data/relationships/policy-sets"}
		}
		if ps.Kind != kind {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("policy-sets: policy set %s is a %s set; a %s policy cannot join it", id, ps.Kind, kind), Pointer: "/data/relationships/policy-sets"}
		}
		if st.versioned(ps) {
			return nil, errInvalidRelationship("policy-sets", "policy-sets: policy set "+id+" is versioned (its policies come from uploaded versions): individual policies cannot join it")
		}
		out = append(out, ps)
	}
	return out, nil
}

// attachPolicy adds a policy to a set, once.
func (st *state) attachPolicy(ps *policySet, policyID string) {
	if !slices.Contains(ps.PolicyIDs, policyID) {
		ps.PolicyIDs = append(ps.PolicyIDs, policyID)
		ps.UpdatedAt = st.now()
	}
}

// readPolicy shows a policy, with `included` policy sets on request.
func (s *Server) readPolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	pol := s.st.policyFor(p, r.PathValue("id"))
	if pol == nil {
		return errNotFound()
	}
	withSets, e := policyIncludes(r)
	if e != nil {
		return e
	}
	doc := document{Data: s.st.policyResource(pol, true)}
	if withSets {
		doc.Included = s.st.includedSets(pol)
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// updatePolicy changes description, query and enforcement level; what it refuses and
// ignores: README.md "Policies".
func (s *Server) updatePolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	pol := s.st.policyFor(p, r.PathValue("id"))
	if pol == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "policies")
	if e != nil {
		return e
	}
	if b.res.ID != "" && b.res.ID != pol.ID {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid id", Detail: fmt.Sprintf("data.id %q does not match the policy %s", b.res.ID, pol.ID), Pointer: "/data/id"}
	}
	name := b.optString("name")
	kind := b.optString("kind")
	desc := b.optString("description")
	query := b.optString("query")
	if b.err != nil {
		return b.err
	}
	if name != nil && *name != pol.Name {
		return errInvalidAttribute("name", fmt.Sprintf("name cannot be changed (it is %q); make a new policy instead", pol.Name))
	}
	if kind != nil && *kind != pol.Kind {
		return errInvalidAttribute("kind", fmt.Sprintf("kind cannot be changed (it is %q); make a new policy instead", pol.Kind))
	}
	if pol.Kind != "opa" {
		query = nil
	}
	if e := checkQuery(pol.Kind, query, false); e != nil {
		return e
	}
	level := readLevel(b, pol.Kind, pol.Name)
	if b.err != nil {
		return b.err
	}
	if b.has("description") {
		pol.Description = desc
	}
	if query != nil {
		pol.Query = query
	}
	if level != "" {
		pol.Level = level
	}
	if s.policyUpdatedAt.byPatch() {
		pol.UpdatedAt = s.st.now()
	}
	writeDoc(w, http.StatusOK, document{Data: s.st.policyResource(pol, true)})
	return nil
}

// listPolicies lists an organization's policies, oldest first, 20 a page
// by default, with `links` and `meta.pagination`. `search[name]` keeps the
// policies whose name contains it (case-insensitive, as the real service's
// partial-name search); `filter[kind]` keeps one kind (another value is a
// 400 naming the parameter); `include=policy_sets` adds the policy sets of
// the page's policies to `included`.
func (s *Server) listPolicies(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org := r.PathValue("org")
	if !s.st.canManagePoliciesIn(p, org) {
		return errNotFound()
	}
	pg, e := parsePage(r, 20)
	if e != nil {
		return e
	}
	withSets, e := policyIncludes(r)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	search := strings.ToLower(q.Get("search[name]"))
	kind := q.Get("filter[kind]")
	if kind != "" && policyLevels[kind] == nil {
		return errBadRequest("filter[kind]", fmt.Sprintf("must be sentinel or opa, got %q", kind))
	}
	all := sorted(s.st.Policies, func(pol *policy) bool {
		return pol.Org == org &&
			(search == "" || strings.Contains(strings.ToLower(pol.Name), search)) &&
			(kind == "" || pol.Kind == kind)
	})
	pols := paginate(all, pg)
	data := make([]resource, 0, len(pols))
	for _, pol := range pols {
		data = append(data, s.st.policyResource(pol, true))
	}
	doc := pageDocument(r, pg, len(all), data)
	if withSets {
		doc.Included = s.st.includedSets(pols...)
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// deletePolicy deletes a policy and its code: 204, and it leaves every set
// that included it.
func (s *Server) deletePolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	pol := s.st.policyFor(p, r.PathValue("id"))
	if pol == nil {
		return errNotFound()
	}
	s.st.deletePolicy(pol.ID)
	writeNoContent(w)
	return nil
}

// deletePolicy removes a policy and takes it out of every policy set.
func (st *state) deletePolicy(id string) {
	for _, ps := range st.PolicySets {
		if i := slices.Index(ps.PolicyIDs, id); i >= 0 {
			ps.PolicyIDs = slices.Delete(ps.PolicyIDs, i, i+1)
			ps.UpdatedAt = st.now()
		}
	}
	delete(st.Policies, id)
}

// uploadPolicy stores the request body, byte for byte, as the policy's code
// and answers 200 with an empty body. The reference does not show the
// success status; the sandbox answers 200, like its one-time upload
// addresses, and go-tfe accepts any 2xx. The body is not parsed: the
// service checks the code when a run evaluates it. Any Content-Type is
// accepted (go-tfe sends application/octet-stream). An empty body is a
// valid upload, as on the real service. A body over MaxPolicyCodeSize is a
// 413 and the earlier code, if any, stays. `updated-at` becomes the time of
// the upload, unless the PolicyUpdatedAt switch says uploads do not move it.
func (s *Server) uploadPolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	pol := s.st.policyFor(p, r.PathValue("id"))
	if pol == nil {
		return errNotFound()
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, MaxPolicyCodeSize+1))
	if err != nil {
		return &apiError{Status: http.StatusBadRequest, Title: "bad request", Detail: "could not read the policy code"}
	}
	if len(raw) > MaxPolicyCodeSize {
		// Drain (a bounded amount of) the rest, so the client, still
		// sending, reads the 413 rather than a reset connection.
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 8*MaxPolicyCodeSize))
		return errPolicyTooLarge()
	}
	pol.Code = raw
	pol.Uploaded = true
	if s.policyUpdatedAt.byUpload() {
		pol.UpdatedAt = s.st.now()
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

func errPolicyTooLarge() *apiError {
	return &apiError{Status: http.StatusRequestEntityTooLarge, Title: "payload too large", Detail: "policy code may not exceed 10 MB (" + strconv.Itoa(MaxPolicyCodeSize) + " bytes); the policy was not saved"}
}

// downloadPolicy answers 200 with the stored code exactly, as
// `application/octet-stream`, or 404 when no code has been uploaded yet.
func (s *Server) downloadPolicy(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	pol := s.st.policyFor(p, r.PathValue("id"))
	if pol == nil || !pol.Uploaded {
		return errNotFound()
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(pol.Code)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pol.Code)
	return nil
}

// policySetPolicies resolves the set and the linkage body of the policy-set
// relationship endpoints. 404 for a missing or forbidden set; 422 naming
// `data` for a policy that is not in the set's organization or is of
// another kind (the real service's "one or more policies not found").
func (s *Server) policySetPolicies(r *http.Request, p principal) (*policySet, []string, *apiError) {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return nil, nil, errNotFound()
	}
	ids, e := decodeLinkage(r, "policies")
	if e != nil {
		return nil, nil, e
	}
	if s.st.versioned(ps) && r.Method == http.MethodPost {
		return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "policy set " + ps.ID + " is versioned (its policies come from uploaded versions): individual policies cannot be added to it", Pointer: "/data"}
	}
	for i, id := range ids {
		pol := s.st.Policies[id]
		if r.Method == http.MethodDelete && pol == nil {
			// Deleting a policy already took it out of every set: removing it again is no error.
			continue
		}
		if pol == nil || pol.Org != ps.Org {
			return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("data: policy %s not found in organization %s", id, ps.Org), Pointer: fmt.Sprintf("/data/%d", i)}
		}
		if pol.Kind != ps.Kind {
			return nil, nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("data: policy %s is a %s policy; policy set %s takes %s policies", id, pol.Kind, ps.ID, ps.Kind), Pointer: fmt.Sprintf("/data/%d", i)}
		}
	}
	return ps, ids, nil
}

// addPolicySetPolicies adds policies to a set: 204. Adding a policy the set
// already has is not an error. Nothing changes when any policy is refused.
func (s *Server) addPolicySetPolicies(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps, ids, e := s.policySetPolicies(r, p)
	if e != nil {
		return e
	}
	for _, id := range ids {
		s.st.attachPolicy(ps, id)
	}
	writeNoContent(w)
	return nil
}

// removePolicySetPolicies removes policies from a set: 204. Removing a
// policy the set does not have is not an error.
func (s *Server) removePolicySetPolicies(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps, ids, e := s.policySetPolicies(r, p)
	if e != nil {
		return e
	}
	kept := slices.DeleteFunc(slices.Clone(ps.PolicyIDs), func(id string) bool { return slices.Contains(ids, id) })
	if len(kept) != len(ps.PolicyIDs) {
		ps.PolicyIDs = kept
		ps.UpdatedAt = s.st.now()
	}
	writeNoContent(w)
	return nil
}
