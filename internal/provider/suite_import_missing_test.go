package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestImportMissing: importing an object that does not exist, by ID and by
// identity (Terraform 1.12+), is the provider's own error naming the ID and
// where it was looked for, for every resource type, not Terraform's
// "Cannot import non-existent remote object". Through the protocol, as
// Terraform imports: ImportResourceState, then ReadResource with the
// import's private state. An unknown route answers 404 too, so each type
// first imports an object that exists, by ID and by identity, through the
// same requests: a 404 then proves a missing object, not a missing route.
func TestImportMissing(t *testing.T) {
	t.Parallel()
	const org = "import-missing"
	_, c, p := protoSandbox(t, org, nil)
	ctx := context.Background()
	pool, err := c.AgentPools.Create(ctx, org, tfe.AgentPoolCreateOptions{Name: tfe.String("pool")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.RegistryModules.Create(ctx, org, tfe.RegistryModuleCreateOptions{Name: tfe.String("net"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	f := importFixtures{t: t, ctx: ctx, c: c, org: org, poolID: pool.ID, mod: moduleRef{Organization: org, Name: "net", Provider: "aws"}}
	for _, k := range kits {
		ik := k.importMissing()
		if !ik.ok {
			continue
		}
		typ := kitName(k)
		ids := ik.c.existing(f)
		if len(ids) == 0 {
			t.Errorf("%s: its kit's importMissing makes no existing object to import first (%s_kit_test.go), so its 404s could be an unknown route's", typ, k.kitType())
			continue
		}
		for i, id := range ids {
			for _, by := range []string{"ID", "identity"} {
				if by == "identity" && i > 0 {
					continue // an identity has one form
				}
				t.Run(typ+" existing "+id+" by "+by, func(t *testing.T) {
					if text, failed := protoImport(ctx, t, p, typ, id, by == "identity"); failed {
						t.Errorf("%s: importing existing %s by %s failed, so its routes may be missing:\n%s", typ, id, by, text)
					}
					if !importMarked(ctx, t, p, typ, id, by == "identity") {
						t.Errorf("%s: ImportState's answer for %s (by %s) has no import mark: its read cannot say what was looked for when the object is missing; call markImporting(ctx, resp) on every path of %s_resource.go's ImportState that succeeds", typ, id, by, k.kitType())
					}
				})
			}
		}
		cases := ik.c.missing(org, pool.ID)
		if len(cases) == 0 {
			t.Errorf("%s: its kit's importMissing gives no missing object to import (%s_kit_test.go)", typ, k.kitType())
		}
		for _, tc := range cases {
			for _, by := range []string{"ID", "identity"} {
				t.Run(tc.name+" by "+by, func(t *testing.T) {
					text, failed := protoImport(ctx, t, p, typ, tc.id, by == "identity")
					if !failed {
						t.Fatalf("%s: importing missing %s by %s gave no error: Terraform would say only \"Cannot import non-existent remote object\" (%s)", typ, tc.id, by, text)
					}
					for _, want := range []string{"Cannot import", tc.want} {
						if !strings.Contains(text, want) {
							t.Errorf("%s: the error lacks %q:\n%s", typ, want, text)
						}
					}
				})
			}
		}
	}
}

// importMarked reports whether ImportResourceState's answer for typ's id
// carries the import mark (markImporting) in its private state.
func importMarked(ctx context.Context, t *testing.T, p *protoProvider, typ, id string, byIdentity bool) bool {
	t.Helper()
	imp, err := p.srv.ImportResourceState(ctx, importRequest(p, typ, id, byIdentity))
	if err != nil || hasErrors(imp.Diagnostics) || len(imp.ImportedResources) != 1 {
		t.Fatalf("%s: ImportResourceState of %s: %v %s", typ, id, err, diagText(imp.Diagnostics))
	}
	var priv map[string][]byte
	if b := imp.ImportedResources[0].Private; len(b) > 0 {
		if err := json.Unmarshal(b, &priv); err != nil {
			t.Fatalf("%s: private state of the import of %s: %v", typ, id, err)
		}
	}
	return len(priv[importingKey]) > 0
}

// importRequest is Terraform's import of typ's id, by ID or by the
// identity the ID's parts give.
func importRequest(p *protoProvider, typ, id string, byIdentity bool) *tfprotov6.ImportResourceStateRequest {
	req := &tfprotov6.ImportResourceStateRequest{TypeName: typ, ID: id}
	if byIdentity {
		req.ID = ""
		vals := map[string]tftypes.Value{}
		parts := strings.Split(id, "/")
		for i, a := range resourceIdentities[resourceType(strings.TrimPrefix(typ, "tfgov_"))] {
			vals[a.name] = tftypes.NewValue(tftypes.String, parts[i])
		}
		req.Identity = &tfprotov6.ResourceIdentityData{IdentityData: p.dynamic(p.idents.IdentitySchemas[typ].ValueType(), vals)}
	}
	return req
}

// protoImport imports typ's object id (by its identity when byIdentity) as
// Terraform does, and returns the read's diagnostics and whether they hold
// an error.
func protoImport(ctx context.Context, t *testing.T, p *protoProvider, typ, id string, byIdentity bool) (string, bool) {
	t.Helper()
	imp, err := p.srv.ImportResourceState(ctx, importRequest(p, typ, id, byIdentity))
	if err != nil || hasErrors(imp.Diagnostics) || len(imp.ImportedResources) != 1 {
		t.Fatalf("%s: ImportResourceState of %s: %v %s", typ, id, err, diagText(imp.Diagnostics))
	}
	ir := imp.ImportedResources[0]
	rd, err := p.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{
		TypeName: typ, CurrentState: ir.State, Private: ir.Private, CurrentIdentity: ir.Identity})
	if err != nil {
		t.Fatal(err)
	}
	failed := hasErrors(rd.Diagnostics)
	if !failed && p.decode(p.schema.ResourceSchemas[typ].ValueType(), rd.NewState) == nil {
		return "the read removed it from state: " + diagText(rd.Diagnostics), true
	}
	return diagText(rd.Diagnostics), failed
}

// importMissingCase is one import of a missing object of a kit's type:
// the subtest's name, the ID imported and what the error must name.
type importMissingCase struct{ name, id, want string }

// importMissingTypes are the types TestImportMissing covers: its kits'
// (registry_test.go).
func importMissingTypes() map[string]bool {
	types := map[string]bool{}
	for _, k := range kits {
		if k.importMissing().ok {
			types[kitName(k)] = true
		}
	}
	return types
}
