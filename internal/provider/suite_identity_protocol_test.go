package provider

import (
	"context"
	"maps"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Protocol-level identity tests (acctest_protocol_test.go) of a state that has no
// identity yet, as every state written by Terraform 1.11 (or by this
// provider before identity): the refresh of an object deleted outside
// Terraform removes it without "Missing Resource Identity After Read", a
// refresh of an existing one returns its identity, and an update returns
// one without "Missing Resource Identity After Update" (hashicorp/tfe
// shipped both bugs).

// readNoIdentity refreshes state (of typ) with no current identity.
func (p *protoProvider) readNoIdentity(typ string, state map[string]tftypes.Value, private ...byte) *tfprotov6.ReadResourceResponse {
	p.t.Helper()
	resp, err := p.srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: p.dynamic(p.schema.ResourceSchemas[typ].ValueType(), state), Private: private,
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// identityOfResponse decodes an identity (nil when there is none).
func (p *protoProvider) identityOfResponse(typ string, id *tfprotov6.ResourceIdentityData) map[string]string {
	p.t.Helper()
	if id == nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range p.decode(p.idents.IdentitySchemas[typ].ValueType(), id.IdentityData) {
		out[k] = str(p.t, v)
	}
	return out
}

func TestIdentity_protocolNoPriorIdentity(t *testing.T) {
	ctx := context.Background()
	const org = "ident-org"
	_, c, p := protoSandbox(t, org, nil)

	// One object of each type, found through the list resources (whose
	// include_resource is the state a refresh writes).
	pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	uploaded, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("uploaded"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Policies.Upload(ctx, uploaded.ID, []byte("main = rule { true }\n")); err != nil {
		t.Fatal(err)
	}
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("ws")})
	if err != nil {
		t.Fatal(err)
	}
	team, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String("team"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	ta, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	prj, tpa := identityProjectGrant(t, c, org, team)
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("tok")})
	if err != nil {
		t.Fatal(err)
	}
	mod := listTestModule(t, c, org, "1.0.0")
	v, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String("K"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
	if err != nil {
		t.Fatal(err)
	}
	ver := moduleVersionRef{Organization: org, Name: mod.Name, Provider: mod.Provider, Version: "1.0.0"}
	if _, err := deprecateModuleVersion(ctx, c, ver, tfe.String("old"), nil); err != nil {
		t.Fatal(err)
	}
	packed, err := packConfiguration(testModuleDir(t, "pass"), true)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
		RegistryModule:       &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: org, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: org}},
	}); err != nil {
		t.Fatal(err)
	}

	ps, err := c.PolicySets.Create(ctx, org, tfe.PolicySetCreateOptions{Name: tfe.String("set"), Workspaces: []*tfe.Workspace{ws}})
	if err != nil {
		t.Fatal(err)
	}
	f := &identityFixtures{ctx: ctx, c: c, pol: pol, uploaded: uploaded, ws: ws, ta: ta, prj: prj, tpa: tpa, pool: pool, tok: tok, mod: mod, v: v, ver: ver, ps: ps,
		param: identityParameter(t, ctx, c, ps.ID)}
	for _, k := range kits {
		tc := k.identityNoPrior(f).c
		if !k.identityNoPrior(f).ok {
			continue
		}
		t.Run(string(k.kitType()), func(t *testing.T) {
			typ := kitName(k)
			var state map[string]tftypes.Value
			var want map[string]string
			for _, r := range p.list(typ, tc.cfg(), true, 100) {
				if tc.pick == nil || tc.pick(r.identity) {
					state, want = r.resource, r.identity
				}
			}
			if state == nil {
				t.Fatalf("%s: nothing listed", typ)
			}
			// An existing object: its identity comes back.
			resp := p.fresh().readNoIdentity(typ, state)
			if hasErrors(resp.Diagnostics) {
				t.Fatalf("refresh: %s", diagText(resp.Diagnostics))
			}
			if got := p.identityOfResponse(typ, resp.NewIdentity); len(got) == 0 || !maps.Equal(got, want) {
				t.Errorf("refresh: identity %v, want %v", got, want)
			}
			// Deleted outside Terraform: removed from state, no error
			// (with the private state the refresh wrote, as Terraform keeps it).
			if err := tc.remove(); err != nil {
				t.Fatal(err)
			}
			resp = p.fresh().readNoIdentity(typ, state, resp.Private...)
			if len(resp.Diagnostics) > 0 {
				t.Fatalf("refresh after delete: %s", diagText(resp.Diagnostics))
			}
			if got := p.decode(p.schema.ResourceSchemas[typ].ValueType(), resp.NewState); got != nil {
				t.Errorf("refresh after delete kept %v", got)
			}
		})
	}
}

// TestIdentity_protocolUpdateNoPriorIdentity: an in-place update of a
// resource whose state has no identity (made by Terraform 1.11, then
// applied with -refresh=false on 1.12 or later) returns the identity.
func TestIdentity_protocolUpdateNoPriorIdentity(t *testing.T) {
	ctx := context.Background()
	const org = "ident-upd"
	_, c, p := protoSandbox(t, org, nil)
	pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	const typ = "tfgov_policy"
	res := p.list(typ, nil, true, 10)
	if len(res) != 1 {
		t.Fatalf("%d policies listed", len(res))
	}
	prior := res[0].resource
	planned := map[string]tftypes.Value{}
	for k, v := range prior {
		planned[k] = v
	}
	planned["description"] = tftypes.NewValue(tftypes.String, "changed")
	config := map[string]tftypes.Value{
		"name": prior["name"], "kind": prior["kind"], "enforcement_level": prior["enforcement_level"], "description": planned["description"],
	}
	rt := p.schema.ResourceSchemas[typ].ValueType()
	resp, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typ, PriorState: p.dynamic(rt, prior), PlannedState: p.dynamic(rt, planned), Config: p.dynamic(rt, config),
	})
	if err != nil {
		t.Fatal(err)
	}
	if hasErrors(resp.Diagnostics) {
		t.Fatalf("update: %s", diagText(resp.Diagnostics))
	}
	if got := p.identityOfResponse(typ, resp.NewIdentity); got["id"] != pol.ID {
		t.Errorf("update: identity %v, want id %s", got, pol.ID)
	}
	if got := str(t, p.decode(rt, resp.NewState)["description"]); got != "changed" {
		t.Errorf("update: description %q", got)
	}
}

// TestIdentity_protocolUpdateEveryType: an update of each type whose
// state has no identity returns one (Update's identity comes from the
// state it returns, whatever the update does).
func TestIdentity_protocolUpdateEveryType(t *testing.T) {
	ctx := context.Background()
	const org = "ident-every"
	_, c, p := protoSandbox(t, org, nil)
	pol, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Policies.Upload(ctx, pol.ID, []byte("main = rule { true }\n")); err != nil {
		t.Fatal(err)
	}
	ws, err := c.Workspaces.Create(ctx, org, tfe.WorkspaceCreateOptions{Name: tfe.String("ws")})
	if err != nil {
		t.Fatal(err)
	}
	team, err := c.Teams.Create(ctx, org, tfe.TeamCreateOptions{Name: tfe.String("team"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TeamAccess.Add(ctx, tfe.TeamAccessAddOptions{Access: tfe.Access(tfe.AccessRead), Team: team, Workspace: ws}); err != nil {
		t.Fatal(err)
	}
	prj, _ := identityProjectGrant(t, c, org, team)
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("tok")}); err != nil {
		t.Fatal(err)
	}
	mod := listTestModule(t, c, org, "1.0.0")
	if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String("K"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
		t.Fatal(err)
	}
	if _, err := deprecateModuleVersion(ctx, c, moduleVersionRef{Organization: org, Name: mod.Name, Provider: mod.Provider, Version: "1.0.0"}, tfe.String("old"), nil); err != nil {
		t.Fatal(err)
	}
	packed, err := packConfiguration(testModuleDir(t, "pass"), true)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := testRunClient{c}.uploadConfiguration(ctx, mod, packed.archive)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.TestRuns.Create(ctx, tfe.TestRunCreateOptions{
		ConfigurationVersion: &tfe.ConfigurationVersion{ID: cv},
		RegistryModule:       &tfe.RegistryModule{Name: mod.Name, Provider: mod.Provider, Namespace: org, RegistryName: tfe.PrivateRegistry, Organization: &tfe.Organization{Name: org}},
	}); err != nil {
		t.Fatal(err)
	}
	ps, err := c.PolicySets.Create(ctx, org, tfe.PolicySetCreateOptions{Name: tfe.String("set"), Description: tfe.String("before"), Workspaces: []*tfe.Workspace{ws}})
	if err != nil {
		t.Fatal(err)
	}
	identityParameter(t, ctx, c, ps.ID)
	f := &identityFixtures{ws: ws, prj: prj, pool: pool, mod: mod, ps: ps}
	for _, k := range kits {
		tc := k.identityUpdate(f).c
		if !k.identityUpdate(f).ok {
			continue
		}
		t.Run(string(k.kitType()), func(t *testing.T) {
			typ := kitName(k)
			res := p.list(typ, tc.cfg(), true, 10)
			if len(res) != 1 {
				t.Fatalf("%d listed", len(res))
			}
			prior := res[0].resource
			planned := map[string]tftypes.Value{}
			for k, v := range prior {
				planned[k] = v
			}
			for k, v := range tc.change {
				planned[k] = v
			}
			if v, ok := planned["content_sha256"]; ok && v.IsNull() {
				planned["content_sha256"] = tftypes.NewValue(tftypes.String, sha256String("main = rule { false }\n"))
			}
			rt := p.schema.ResourceSchemas[typ].ValueType()
			resp, err := p.fresh().srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
				TypeName: typ, PriorState: p.dynamic(rt, prior), PlannedState: p.dynamic(rt, planned), Config: p.dynamic(rt, planned),
			})
			if err != nil {
				t.Fatal(err)
			}
			if hasErrors(resp.Diagnostics) {
				t.Fatalf("update: %s", diagText(resp.Diagnostics))
			}
			if got := p.identityOfResponse(typ, resp.NewIdentity); !maps.Equal(got, res[0].identity) {
				t.Errorf("update: identity %v, want %v", got, res[0].identity)
			}
		})
	}
}

// identityFixtures are the objects the identity protocol tests make; the
// cases read them only when run, so the cases' types can be listed
// without them (registry_test.go).
type identityFixtures struct {
	ctx           context.Context
	c             *tfe.Client
	pol, uploaded *tfe.Policy
	ws            *tfe.Workspace
	ta            *tfe.TeamAccess
	prj           *tfe.Project
	tpa           *tfe.TeamProjectAccess
	pool          *tfe.AgentPool
	tok           *tfe.AgentToken
	mod           moduleRef
	v             *tfe.Variable
	ver           moduleVersionRef
	ps            *tfe.PolicySet
	param         *tfe.PolicySetParameter
}

func (f *identityFixtures) modCfg() map[string]string {
	return map[string]string{"module_name": f.mod.Name, "module_provider": f.mod.Provider}
}

// identityNoPriorCase is a kit's case of
// TestIdentity_protocolNoPriorIdentity: the list resource's config, which
// listed object to refresh (nil: any), and its removal outside Terraform.
type identityNoPriorCase struct {
	cfg    func() map[string]string
	pick   func(identity map[string]string) bool
	remove func() error
}

// identityUpdateCase is a kit's case of
// TestIdentity_protocolUpdateEveryType.
type identityUpdateCase struct {
	cfg func() map[string]string
	// change is the planned change of the update.
	change map[string]tftypes.Value
}

// identityNoPriorTypes and identityUpdateTypes are the types the two tests
// cover: their kits' (registry_test.go).
func identityNoPriorTypes() map[string]bool {
	types := map[string]bool{}
	for _, k := range kits {
		if k.identityNoPrior(&identityFixtures{}).ok {
			types[kitName(k)] = true
		}
	}
	return types
}

func identityUpdateTypes() map[string]bool {
	types := map[string]bool{}
	for _, k := range kits {
		if k.identityUpdate(&identityFixtures{}).ok {
			types[kitName(k)] = true
		}
	}
	return types
}

// identityParameter makes a parameter of set setID.
func identityParameter(t *testing.T, ctx context.Context, c *tfe.Client, setID string) *tfe.PolicySetParameter {
	t.Helper()
	p, err := c.PolicySetParameters.Create(ctx, setID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("region"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryPolicySet)})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// identityProjectGrant is a project and a read grant of team on it.
func identityProjectGrant(t *testing.T, c *tfe.Client, org string, team *tfe.Team) (*tfe.Project, *tfe.TeamProjectAccess) {
	t.Helper()
	prj, err := c.Projects.Create(context.Background(), org, tfe.ProjectCreateOptions{Name: "prj"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.TeamProjectAccess.Add(context.Background(), tfe.TeamProjectAccessAddOptions{Access: tfe.TeamProjectAccessRead, Team: team, Project: prj})
	if err != nil {
		t.Fatal(err)
	}
	return prj, g
}
