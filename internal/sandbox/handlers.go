package sandbox

import "net/http"

// The handler shapes the areas share, written once: starting a create in an
// organization, checking a name, answering with one record or a page of
// them, and deleting a record with what hangs off it. Every one answers a
// record that is missing or that the caller may not see with the same 404.

// orgFor returns the organization named by the request's {org} when p is a
// member of it and, with a non-nil allowed, has the organization access
// allowed selects. Otherwise it is a 404, as for a missing organization.
func (st *state) orgFor(r *http.Request, p principal, allowed func(orgAccess) bool) (string, *apiError) {
	org := r.PathValue("org")
	if !st.mayIn(p, org, allowed) {
		return "", errNotFound()
	}
	return org, nil
}

// mayIn reports whether p is a member of org and, with a non-nil allowed,
// has the organization access allowed selects.
func (st *state) mayIn(p principal, org string, allowed func(orgAccess) bool) bool {
	return st.memberOf(p, org) && (allowed == nil || st.hasOrgAccess(p, org, allowed))
}

// managing is allowed when manage is set and nil otherwise: a finder's
// "may also manage" switch for mayIn.
func managing(manage bool, allowed func(orgAccess) bool) func(orgAccess) bool {
	if manage {
		return allowed
	}
	return nil
}

// visible returns v when it is not nil and ok(v), else nil: the shape of
// every finder, which answers a missing record and a forbidden one alike.
func visible[T any](v *T, ok func(*T) bool) *T {
	if v == nil || !ok(v) {
		return nil
	}
	return v
}

// decodeIn starts a create in the organization at {org}: orgFor, then the
// JSON:API body whose data.type is one of types.
func (st *state) decodeIn(r *http.Request, p principal, allowed func(orgAccess) bool, types ...string) (string, *body, *apiError) {
	org, e := st.orgFor(r, p, allowed)
	if e != nil {
		return "", nil, e
	}
	b, e := decodeBody(r, types...)
	if e != nil {
		return "", nil, e
	}
	return org, b, nil
}

// checkName applies nameRE, the rule for organization, workspace, module
// and policy set names.
func checkName(name string) *apiError {
	if !nameRE.MatchString(name) {
		return errInvalidAttribute("name", "name may contain only letters, numbers, - and _")
	}
	return nil
}

// assign sets *dst to *v when v is not nil: how a create or an update
// applies an optional attribute that was sent.
func assign[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// errNameTaken is the real service's 422 for a name already used where it
// must be unique.
func errNameTaken() *apiError { return errInvalidAttribute("name", "name has already been taken") }

// find returns a record of m that pred selects, or nil. Callers select at
// most one (a name is unique in its scope).
func find[T any](m map[string]*T, pred func(*T) bool) *T {
	for _, v := range m {
		if pred(v) {
			return v
		}
	}
	return nil
}

// deleteWhere calls del with the key of every value of m that pred
// selects; del may delete from m.
func deleteWhere[T any](m map[string]T, pred func(T) bool, del func(id string)) {
	for id, v := range m {
		if pred(v) {
			del(id)
		}
	}
}

// writeOne answers with v rendered by render, or 404 when v is nil.
func writeOne[T any](w http.ResponseWriter, status int, v *T, render func(*T) resource) *apiError {
	if v == nil {
		return errNotFound()
	}
	writeDoc(w, status, document{Data: render(v)})
	return nil
}

// listPage renders the page of all that the request's page[number] and
// page[size] select (20 by default) and returns that page's items too, for
// lists that include related records.
func listPage[T any](r *http.Request, all []T, render func(T) resource) (document, []T, *apiError) {
	pg, e := parsePage(r, 20)
	if e != nil {
		return document{}, nil, e
	}
	items := paginate(all, pg)
	data := make([]resource, 0, len(items))
	for _, v := range items {
		data = append(data, render(v))
	}
	return pageDocument(r, pg, len(all), data), items, nil
}

// writeList answers with listPage.
func writeList[T any](w http.ResponseWriter, r *http.Request, all []T, render func(T) resource) *apiError {
	doc, _, e := listPage(r, all, render)
	if e != nil {
		return e
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// recordID lets deleteOne hand a stored record's ID to the per-kind delete.
func (r record) recordID() string { return r.ID }

// deleteOne deletes v through del (the per-kind delete that also removes
// what hangs off it) and answers 204, or 404 when v is nil.
func deleteOne[T any, P interface {
	*T
	recordID() string
}](w http.ResponseWriter, v P, del func(id string)) *apiError {
	if v == nil {
		return errNotFound()
	}
	del(v.recordID())
	writeNoContent(w)
	return nil
}
