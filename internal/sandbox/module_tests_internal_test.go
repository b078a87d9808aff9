package sandbox

import "testing"

func TestModuleForTests(t *testing.T) {
	t.Parallel()
	st := newState()
	owner := st.userByEmail("owner@acme.test")
	o := st.createOrganization("acme", owner.Email, owner)
	member := st.userByEmail("dev@acme.test")
	st.addMember("acme", member)
	devs := &team{record: st.newRecord("team-"), Org: "acme", Name: "devs", Access: ownersAccess, UserIDs: []string{member.ID}}
	st.Teams[devs.ID] = devs
	m := &registryModule{record: st.newRecord("mod-"), Org: "acme", Name: "vpc", Provider: "aws"}
	st.RegistryModules[m.ID] = m
	ownersToken := &token{record: st.newRecord("at-"), Kind: tokenTeam, TeamID: o.OwnersTeamID}
	devsToken := &token{record: st.newRecord("at-"), Kind: tokenTeam, TeamID: devs.ID}
	orgToken := &token{record: st.newRecord("at-"), Kind: tokenOrganization, Org: "acme"}

	tests := map[string]struct {
		p    principal
		path [4]string
		want bool
	}{
		"owner":                            {principal{user: owner}, [4]string{"acme", "acme", "vpc", "aws"}, true},
		"admin":                            {principal{admin: true}, [4]string{"acme", "acme", "vpc", "aws"}, true},
		"owners team token":                {principal{token: ownersToken}, [4]string{"acme", "acme", "vpc", "aws"}, true},
		"member of a team with all access": {principal{user: member}, [4]string{"acme", "acme", "vpc", "aws"}, false},
		"other team token":                 {principal{token: devsToken}, [4]string{"acme", "acme", "vpc", "aws"}, false},
		"organization token":               {principal{token: orgToken}, [4]string{"acme", "acme", "vpc", "aws"}, false},
		"namespace is not the org":         {principal{user: owner}, [4]string{"acme", "other", "vpc", "aws"}, false},
		"missing module":                   {principal{user: owner}, [4]string{"acme", "acme", "nope", "aws"}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := st.moduleForTests(tc.p, tc.path[0], tc.path[1], tc.path[2], tc.path[3]) != nil
			if got != tc.want {
				t.Errorf("moduleForTests = %v, want %v", got, tc.want)
			}
		})
	}
}
