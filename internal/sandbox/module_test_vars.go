package sandbox

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"unicode/utf8"
)

// The test variables of the "Module test runs" section of the reference, as the real service
// keeps its `vars`: README.md "Module test variables".

// testVariable is one variable of a module's tests.
type testVariable struct {
	record
	ModuleID    string `json:"module_id"`
	Key         string `json:"key"`
	Value       string `json:"value"`
	Description string `json:"description"`
	Category    string `json:"category"`
	HCL         bool   `json:"hcl"`
	Sensitive   bool   `json:"sensitive"`
	VersionID   string `json:"version_id"`
}

// testVariableCategory is the only category the reference allows.
const testVariableCategory = "env"

// testVariableDescriptionMax is the real service's limit on descriptions.
const testVariableDescriptionMax = 512

var testVariableKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (s *Server) registerModuleTestVars() {
	const mod = "/api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/vars"
	s.route("GET "+mod, s.listTestVariables)
	s.route("POST "+mod, s.createTestVariable)
	s.route("GET "+mod+"/{id}", s.readTestVariable)
	s.route("PATCH "+mod+"/{id}", s.updateTestVariable)
	s.route("DELETE "+mod+"/{id}", s.deleteTestVariable)
}

// moduleTestVariables lists the variables of a module, oldest first. Test
// runs use them as environment variables.
func (st *state) moduleTestVariables(moduleID string) []*testVariable {
	return sorted(st.TestVariables, func(v *testVariable) bool { return v.ModuleID == moduleID })
}

// moduleTestEnv returns the environment ("KEY=value") that every test run
// of the module receives: its test variables, sensitive ones included (the
// service hides their values from the API, not from the runs), in creation
// order. A run's own `variables` take precedence over them (see the engine).
// The variables are read when a run starts, so a change applies to runs
// that start afterwards.
func (st *state) moduleTestEnv(moduleID string) []string {
	vars := st.moduleTestVariables(moduleID)
	env := make([]string, 0, len(vars))
	for _, v := range vars {
		env = append(env, v.Key+"="+v.Value)
	}
	return env
}

// testVariablesModule is the module a `{mod}/vars` path names, when p may
// use its module-test endpoints.
func (st *state) testVariablesModule(r *http.Request, p principal) *registryModule {
	return st.moduleForTests(p, r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"))
}

// testVariableAt is the variable at `{mod}/vars/{id}`, or nil (404).
func (st *state) testVariableAt(r *http.Request, p principal) (*registryModule, *testVariable) {
	m := st.testVariablesModule(r, p)
	if m == nil {
		return nil, nil
	}
	v := st.TestVariables[r.PathValue("id")]
	if v == nil || v.ModuleID != m.ID {
		return nil, nil
	}
	return m, v
}

// keyTaken reports whether another variable of the module has key.
func (st *state) keyTaken(moduleID, key, exceptID string) bool {
	for _, v := range st.TestVariables {
		if v.ModuleID == moduleID && v.Key == key && v.ID != exceptID {
			return true
		}
	}
	return false
}

func newVersionID() string {
	buf := make([]byte, 20)
	if _, err := rand.Read(buf); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(buf)
}

func testVariableResource(v *testVariable) resource {
	var value any = v.Value
	if v.Sensitive {
		value = nil
	}
	return resource{
		Type: "vars",
		ID:   v.ID,
		Attributes: map[string]any{
			"key":         v.Key,
			"value":       value,
			"description": v.Description,
			"category":    v.Category,
			"hcl":         v.HCL,
			"sensitive":   v.Sensitive,
			"created-at":  timestamp(v.CreatedAt),
			"version-id":  v.VersionID,
		},
		Links: map[string]any{"self": apiPath("vars", v.ID)},
	}
}

// checkTestVariableKey records a 422 for a key the service refuses.
func checkTestVariableKey(b *body, key string) {
	if b.err == nil && !testVariableKeyRE.MatchString(key) {
		b.fail(errInvalidAttribute("key", fmt.Sprintf("key must begin with a letter or an underscore and contain only letters, numbers and underscores, got %q", key)))
	}
}

func checkTestVariableCategory(b *body, category *string) {
	if b.err == nil && category != nil && *category != testVariableCategory {
		b.fail(errInvalidAttribute("category", fmt.Sprintf("category must be %q (test variables are environment variables), got %q", testVariableCategory, *category)))
	}
}

func checkTestVariableDescription(b *body, description *string) {
	if b.err == nil && description != nil && utf8.RuneCountInString(*description) > testVariableDescriptionMax {
		b.fail(errInvalidAttribute("description", fmt.Sprintf("description is too long (maximum is %d characters, got %d)", testVariableDescriptionMax, utf8.RuneCountInString(*description))))
	}
}

func keyTakenError(key string) *apiError {
	return errInvalidAttribute("key", fmt.Sprintf("key %q has already been taken: the module has a test variable with that key", key))
}

// listTestVariables lists the module's variables, 20 a page by default.
func (s *Server) listTestVariables(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.testVariablesModule(r, p)
	if m == nil {
		return errNotFound()
	}
	return writeList(w, r, s.st.moduleTestVariables(m.ID), testVariableResource)
}

// createTestVariable answers 201 with the new variable. `key` and
// `category` are required; `value` defaults to "", `description` to "",
// `hcl` and `sensitive` to false.
func (s *Server) createTestVariable(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.testVariablesModule(r, p)
	if m == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "vars")
	if e != nil {
		return e
	}
	key := b.reqString("key")
	value := b.optString("value")
	description := b.optString("description")
	category := b.optString("category")
	hcl := b.optBool("hcl")
	sensitive := b.optBool("sensitive")
	if b.err == nil && category == nil {
		b.fail(errInvalidAttribute("category", fmt.Sprintf("category is required and must be %q", testVariableCategory)))
	}
	checkTestVariableKey(b, key)
	checkTestVariableCategory(b, category)
	checkTestVariableDescription(b, description)
	if b.err != nil {
		return b.err
	}
	if s.st.keyTaken(m.ID, key, "") {
		return keyTakenError(key)
	}
	v := &testVariable{
		record:    s.st.newRecord("var-"),
		ModuleID:  m.ID,
		Key:       key,
		Category:  *category,
		VersionID: newVersionID(),
	}
	if value != nil {
		v.Value = *value
	}
	if description != nil {
		v.Description = *description
	}
	if hcl != nil {
		v.HCL = *hcl
	}
	if sensitive != nil {
		v.Sensitive = *sensitive
	}
	s.st.TestVariables[v.ID] = v
	writeDoc(w, http.StatusCreated, document{Data: testVariableResource(v)})
	return nil
}

// readTestVariable shows one variable (go-tfe's TestVariables.Read).
func (s *Server) readTestVariable(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	_, v := s.st.testVariableAt(r, p)
	if v == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: testVariableResource(v)})
	return nil
}

// updateTestVariable changes the attributes present in the body, all or
// none: every rule is checked before anything changes. Every update, an
// empty one included, issues a new version-id. Answers 200 with the
// variable.
func (s *Server) updateTestVariable(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m, v := s.st.testVariableAt(r, p)
	if v == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "vars")
	if e != nil {
		return e
	}
	if b.res.ID != "" && b.res.ID != v.ID {
		return &apiError{Status: http.StatusConflict, Title: "conflict", Detail: fmt.Sprintf("data.id %q does not match the variable %s of the path", b.res.ID, v.ID), Pointer: "/data/id"}
	}
	var key *string
	if b.present("key") {
		k := b.reqString("key")
		key = &k
	}
	value := b.optString("value")
	description := b.optString("description")
	category := b.optString("category")
	hcl := b.optBool("hcl")
	sensitive := b.optBool("sensitive")
	if key != nil {
		checkTestVariableKey(b, *key)
	}
	checkTestVariableCategory(b, category)
	checkTestVariableDescription(b, description)
	if b.err != nil {
		return b.err
	}
	switch {
	case v.Sensitive && sensitive != nil && !*sensitive:
		return errInvalidAttribute("sensitive", "sensitive cannot be changed from true to false on saved records: to make this variable readable, delete it and create a new one with the same key")
	case v.Sensitive && key != nil && *key != v.Key:
		return errInvalidAttribute("key", "key cannot be updated for a sensitive variable: delete it and create a new one with the new key")
	case v.Sensitive && hcl != nil && *hcl != v.HCL:
		return errInvalidAttribute("hcl", "hcl cannot be updated for a sensitive variable: delete it and create a new one")
	case key != nil && s.st.keyTaken(m.ID, *key, v.ID):
		return keyTakenError(*key)
	}
	if key != nil {
		v.Key = *key
	}
	if value != nil {
		v.Value = *value
	}
	if description != nil {
		v.Description = *description
	}
	if hcl != nil {
		v.HCL = *hcl
	}
	if sensitive != nil {
		v.Sensitive = *sensitive
	}
	v.VersionID = newVersionID()
	writeDoc(w, http.StatusOK, document{Data: testVariableResource(v)})
	return nil
}

// deleteTestVariable answers 204.
func (s *Server) deleteTestVariable(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	_, v := s.st.testVariableAt(r, p)
	if v == nil {
		return errNotFound()
	}
	delete(s.st.TestVariables, v.ID)
	writeNoContent(w)
	return nil
}
