package sandbox

import (
	"fmt"
	"net/http"
)

// Policy set parameters: the `vars` of category `policy-set` a set's
// Sentinel policies read as parameters (README.md "Policy sets").

type policySetParameter struct {
	record
	SetID     string `json:"set_id"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	Sensitive bool   `json:"sensitive"`
}

// policySetParameterCategory is the only category a parameter has.
const policySetParameterCategory = "policy-set"

func (s *Server) registerPolicySetParameters() {
	const base = "/api/v2/policy-sets/{id}/parameters"
	s.route("GET "+base, s.listPolicySetParameters)
	s.route("POST "+base, s.createPolicySetParameter)
	s.route("GET "+base+"/{param}", s.readPolicySetParameter)
	s.route("PATCH "+base+"/{param}", s.updatePolicySetParameter)
	s.route("DELETE "+base+"/{param}", s.deletePolicySetParameter)
}

// policySetParameterResource renders a parameter; a sensitive value is
// never shown (null), as for every sensitive variable.
func policySetParameterResource(v *policySetParameter) resource {
	var value any = v.Value
	if v.Sensitive {
		value = nil
	}
	return resource{
		Type: "vars",
		ID:   v.ID,
		Attributes: map[string]any{
			"key":       v.Key,
			"value":     value,
			"category":  policySetParameterCategory,
			"sensitive": v.Sensitive,
		},
		Relationships: map[string]any{"configurable": relOne("policy-sets", v.SetID)},
		Links:         map[string]any{"self": apiPath("policy-sets", v.SetID, "parameters", v.ID)},
	}
}

// parametersOf lists a set's parameters, oldest first.
func (st *state) parametersOf(setID string) []*policySetParameter {
	return sorted(st.PolicySetParameters, func(v *policySetParameter) bool { return v.SetID == setID })
}

// parameterAt is the set and parameter a `{id}/parameters/{param}` path
// names, when p may manage the set's policies; nil otherwise (404).
func (st *state) parameterAt(r *http.Request, p principal) (*policySet, *policySetParameter) {
	ps := st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return nil, nil
	}
	v := st.PolicySetParameters[r.PathValue("param")]
	if v == nil || v.SetID != ps.ID {
		return ps, nil
	}
	return ps, v
}

func (st *state) parameterKeyTaken(setID, key, exceptID string) bool {
	return find(st.PolicySetParameters, func(v *policySetParameter) bool {
		return v.SetID == setID && v.Key == key && v.ID != exceptID
	}) != nil
}

// checkParameter applies the rules for key and category.
func checkParameter(b *body, key *string, category *string, creating bool) {
	if b.err != nil {
		return
	}
	if key != nil && !testVariableKeyRE.MatchString(*key) {
		b.fail(errInvalidAttribute("key", fmt.Sprintf("key must begin with a letter or an underscore and contain only letters, numbers and underscores (a Sentinel parameter name), got %q", *key)))
	}
	if creating && category == nil {
		b.fail(errInvalidAttribute("category", "category is required and must be \"policy-set\""))
	}
	if category != nil && *category != policySetParameterCategory {
		b.fail(errInvalidAttribute("category", fmt.Sprintf("category must be %q, got %q", policySetParameterCategory, *category)))
	}
}

func (s *Server) listPolicySetParameters(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return errNotFound()
	}
	return writeList(w, r, s.st.parametersOf(ps.ID), policySetParameterResource)
}

// createPolicySetParameter answers 201. `key` and `category` are
// required; `value` defaults to "" and `sensitive` to false. Keys are
// unique in the set. A set of individually attached policies takes no
// parameters: 404, as the service answers (README.md "Policy sets").
func (s *Server) createPolicySetParameter(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil || (len(ps.PolicyIDs) > 0 && s.st.versionsOf(ps.ID) == nil) {
		return errNotFound()
	}
	b, e := decodeBody(r, "vars")
	if e != nil {
		return e
	}
	key := b.reqString("key")
	value := b.optString("value")
	category := b.optString("category")
	sensitive := b.optBool("sensitive")
	checkParameter(b, &key, category, true)
	if b.err != nil {
		return b.err
	}
	if s.st.parameterKeyTaken(ps.ID, key, "") {
		return errInvalidAttribute("key", fmt.Sprintf("key %q has already been taken: policy set %s has a parameter with that key", key, ps.ID))
	}
	v := &policySetParameter{record: s.st.newRecord("var-"), SetID: ps.ID, Key: key}
	assign(&v.Value, value)
	assign(&v.Sensitive, sensitive)
	s.st.PolicySetParameters[v.ID] = v
	return writeOne(w, http.StatusCreated, v, policySetParameterResource)
}

func (s *Server) readPolicySetParameter(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	_, v := s.st.parameterAt(r, p)
	return writeOne(w, http.StatusOK, v, policySetParameterResource)
}

// updatePolicySetParameter changes key, value and sensitive; a sensitive
// parameter cannot be made non-sensitive again (422), as for variables.
func (s *Server) updatePolicySetParameter(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps, v := s.st.parameterAt(r, p)
	if v == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "vars")
	if e != nil {
		return e
	}
	if b.res.ID != "" && b.res.ID != v.ID {
		return errConflict("data.id does not match the parameter in the path")
	}
	key := b.optString("key")
	value := b.optString("value")
	category := b.optString("category")
	sensitive := b.optBool("sensitive")
	checkParameter(b, key, category, false)
	if b.err != nil {
		return b.err
	}
	if sensitive != nil && !*sensitive && v.Sensitive {
		return errInvalidAttribute("sensitive", "a sensitive parameter cannot be made non-sensitive: delete it and create it again")
	}
	if key != nil && s.st.parameterKeyTaken(ps.ID, *key, v.ID) {
		return errInvalidAttribute("key", fmt.Sprintf("key %q has already been taken: policy set %s has a parameter with that key", *key, ps.ID))
	}
	assign(&v.Key, key)
	assign(&v.Value, value)
	assign(&v.Sensitive, sensitive)
	return writeOne(w, http.StatusOK, v, policySetParameterResource)
}

func (s *Server) deletePolicySetParameter(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	_, v := s.st.parameterAt(r, p)
	return deleteOne(w, v, func(id string) { delete(s.st.PolicySetParameters, id) })
}
