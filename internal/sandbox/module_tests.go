package sandbox

// Shared by the module-test sections (test variables, configuration
// versions, test runs): the reference's `{mod}` is
// `/organizations/:organization_name/tests/registry-modules/private/:namespace/:name/:provider`,
// registered as "/api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/...".

// moduleForTests returns the private module that a `{mod}` path names when
// p may use its module-test endpoints. The reference (Authentication, 4):
// "the token must belong to the owners team or to a member of it", which is
// isOwner: the owners team's members, the owners team's token, and the
// admin token. The organization token and every other team get 404, as
// for a missing module.
func (st *state) moduleForTests(p principal, org, ns, name, provider string) *registryModule {
	m := st.moduleByPath(org, ns, name, provider)
	if m == nil || !st.isOwner(p, org) {
		return nil
	}
	return m
}
