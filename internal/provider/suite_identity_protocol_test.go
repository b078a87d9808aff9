package provider

import (
	"context"
	"maps"
	"strings"
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
	// include_resource is the state a refresh writes), under the parents
	// the kits ask for.
	f := newIdentityFixtures(t, ctx, c, org, func(k typeKit) bool { return k.identityNoPrior(&identityFixtures{}).ok })
	cases := map[resourceType]identityNoPriorCase{}
	for _, k := range kits {
		if tc := k.identityNoPrior(f); tc.ok {
			cases[k.kitType()] = tc.c
			if tc.c.make != nil {
				if err := tc.c.make(); err != nil {
					t.Fatalf("%s: %v", kitName(k), err)
				}
			}
		}
	}
	for _, k := range kits {
		tc, ok := cases[k.kitType()]
		if !ok {
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
			checkIDPrefix(t, k, want)
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
	f := newIdentityFixtures(t, ctx, c, org, func(k typeKit) bool { return k.identityUpdate(&identityFixtures{}).ok })
	cases := map[resourceType]identityUpdateCase{}
	for _, k := range kits {
		if tc := k.identityUpdate(f); tc.ok {
			cases[k.kitType()] = tc.c
			if tc.c.make != nil {
				if err := tc.c.make(); err != nil {
					t.Fatalf("%s: %v", kitName(k), err)
				}
			}
		}
	}
	for _, k := range kits {
		tc, ok := cases[k.kitType()]
		if !ok {
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

// identityFixtures are the parents the identity protocol tests make for
// the kits (one of each kind they declare), and the object each kit's
// case makes under them (made); the cases read them only when run, so
// the cases' types can be listed without them (registry_test.go).
type identityFixtures struct {
	parentIDs
	t    *testing.T
	ctx  context.Context
	c    *tfe.Client
	made map[resourceType]string
}

// newIdentityFixtures makes one parent of each kind the kits of a test
// (covers) declare, named by the kind's prefix.
func newIdentityFixtures(t *testing.T, ctx context.Context, c *tfe.Client, org string, covers func(typeKit) bool) *identityFixtures {
	t.Helper()
	m := parentMaker{t: t, ctx: ctx, c: c, org: org, name: func(k *parentKind, _ int) string { return k.prefix }}
	return &identityFixtures{parentIDs: m.make(kitsParents(covers)), t: t, ctx: ctx, c: c, made: map[resourceType]string{}}
}

// keep records the ID of the object a case made for typ.
func (f *identityFixtures) keep(typ resourceType, id string) { f.made[typ] = id }

func (f *identityFixtures) modCfg() map[string]string {
	return map[string]string{"module_name": f.mod().Name, "module_provider": f.mod().Provider}
}

// ver is the module parent's version 1.0.0.
func (f *identityFixtures) ver() moduleVersionRef {
	m := f.mod()
	return moduleVersionRef{Organization: m.Organization, Name: m.Name, Provider: m.Provider, Version: "1.0.0"}
}

// identityNoPriorCase is a kit's case of
// TestIdentity_protocolNoPriorIdentity: the list resource's config, which
// listed object to refresh (nil: any), and its removal outside Terraform.
type identityNoPriorCase struct {
	// make makes the type's object under the fixtures' parents (nil: a
	// parent is the object), keeping its ID (f.keep) for remove.
	make   func() error
	cfg    func() map[string]string
	pick   func(identity map[string]string) bool
	remove func() error
}

// identityUpdateCase is a kit's case of
// TestIdentity_protocolUpdateEveryType.
type identityUpdateCase struct {
	make func() error
	cfg  func() map[string]string
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

// checkIDPrefix: the kit's idPrefix is its objects' (their identity's id,
// or for a type without one, as tfgov_policy_upload, one of the identity's
// IDs), so objectIDRE finds them in Terraform's output (TestAccChaos).
func checkIDPrefix(t *testing.T, k typeKit, identity map[string]string) {
	t.Helper()
	id, p := identity["id"], k.idPrefix()
	if id == "" && p != "" {
		for _, v := range identity {
			if strings.HasPrefix(v, p+"-") {
				id = v
			}
		}
	}
	prefix, _, _ := strings.Cut(id, "-")
	switch {
	case id == "" && p != "":
		t.Errorf("%s: its kit's idPrefix is %q, and no ID of its identity %v has it (%s_kit_test.go)", kitName(k), p, identity, k.kitType())
	case id != "" && p != prefix:
		t.Errorf("%s: its kit's idPrefix is %q, and its objects' IDs are %s-… (%s): objectIDRE finds them in Terraform's output only by the kit's idPrefix (%s_kit_test.go)", kitName(k), p, prefix, id, k.kitType())
	case id != "" && !objectIDRE.MatchString(id):
		t.Errorf("%s: objectIDRE (kit_test.go) does not find its object's ID %s", kitName(k), id)
	}
}
