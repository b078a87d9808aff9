package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// scopeFixture: through go-tfe, a project tagged env=prod holding workspaces "a" and "c" (c tagged
// skip), a workspace "b" outside it, and sets named <prefix>-<letter> that scope them every way.
type scopeFixture struct {
	prefix  string
	a, b, c *tfe.Workspace
	sets    map[string]*tfe.PolicySet // by letter
}

func testAccScopeFixture(t *testing.T) scopeFixture {
	t.Helper()
	ctx, c, org := context.Background(), testAccClient(t), testAccOrganization()
	f := scopeFixture{prefix: testAccName("gov"), sets: map[string]*tfe.PolicySet{}}
	prj, err := c.Projects.Create(ctx, org, tfe.ProjectCreateOptions{Name: f.prefix, TagBindings: []*tfe.TagBinding{{Key: "env", Value: "prod"}}})
	if err != nil {
		t.Fatalf("project: %v", err)
	}
	t.Cleanup(func() { cleanupErr(t, "project "+prj.ID, c.Projects.Delete(ctx, prj.ID)) }) // after its workspaces'
	ws := func(name string, project *tfe.Project, tags ...string) *tfe.Workspace {
		opts := tfe.WorkspaceCreateOptions{Name: tfe.String(f.prefix + "-" + name), Project: project}
		for _, tag := range tags {
			opts.Tags = append(opts.Tags, &tfe.Tag{Name: tag})
		}
		w, err := c.Workspaces.Create(ctx, org, opts)
		if err != nil {
			t.Fatalf("workspace %s: %v", name, err)
		}
		t.Cleanup(func() { cleanupErr(t, "workspace "+w.ID, c.Workspaces.DeleteByID(ctx, w.ID)) })
		return w
	}
	f.a, f.c = ws("a", prj), ws("c", prj, "skip")
	f.b = ws("b", nil)
	prod := "prod"
	for letter, opts := range map[string]tfe.PolicySetCreateOptions{
		"global":  {Global: tfe.Bool(true), WorkspaceExclusions: []*tfe.Workspace{f.b}},
		"direct":  {Workspaces: []*tfe.Workspace{f.a}},
		"project": {Projects: []*tfe.Project{prj}, TagSelectors: []*tfe.PolicySetTagSelector{{Key: "skip", IsExclude: true}}},
		"tagged":  {TagSelectors: []*tfe.PolicySetTagSelector{{Key: "env", Value: &prod}}},
		"other":   {Workspaces: []*tfe.Workspace{f.b}, Kind: tfe.OPA},
	} {
		opts.Name = tfe.String(f.prefix + "-" + letter)
		ps, err := c.PolicySets.Create(ctx, org, opts)
		if err != nil {
			t.Fatalf("policy set %s: %v", letter, err)
		}
		t.Cleanup(func() { cleanupErr(t, "policy set "+ps.ID, c.PolicySets.Delete(ctx, ps.ID)) })
		f.sets[letter] = ps
	}
	return f
}

// governedBy checks the data source's names, keeping only this fixture's sets (other tests of the
// organization may make global sets meanwhile).
func (f scopeFixture) governedBy(addr string, letters ...string) stateCheckFunc {
	return func(_ context.Context, s *tfjson.State) error {
		for _, r := range s.Values.RootModule.Resources {
			if r.Address != addr {
				continue
			}
			var got []string
			for _, n := range r.AttributeValues["names"].([]any) {
				if strings.HasPrefix(n.(string), f.prefix+"-") {
					got = append(got, strings.TrimPrefix(n.(string), f.prefix+"-"))
				}
			}
			want := slices.Clone(letters)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: governed by %v, want %v", addr, got, want)
			}
			return nil
		}
		return fmt.Errorf("%s not in state", addr)
	}
}

// TestAccWorkspacePolicySetsDataSource: the sets governing each workspace, derived from every kind
// of scope (global with an exclusion, a workspace, a project with an excluded tag, a project's
// key/value tag); a missing workspace names the closest names.
func TestAccWorkspacePolicySetsDataSource(t *testing.T) {
	f := testAccScopeFixture(t)
	config := ""
	for _, w := range []*tfe.Workspace{f.a, f.b, f.c} {
		config += fmt.Sprintf("data \"tfgov_workspace_policy_sets\" %q {\n  workspace_name = %q\n}\n", strings.TrimPrefix(w.Name, f.prefix+"-"), w.Name)
	}
	accParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					f.governedBy("data.tfgov_workspace_policy_sets.a", "direct", "global", "project", "tagged"),
					f.governedBy("data.tfgov_workspace_policy_sets.b", "other"),
					f.governedBy("data.tfgov_workspace_policy_sets.c", "global", "tagged"),
					statecheck.ExpectKnownValue("data.tfgov_workspace_policy_sets.a", tfjsonpath.New("id"), knownvalue.StringExact(f.a.ID)),
				},
			},
			{
				Config:      fmt.Sprintf("data \"tfgov_workspace_policy_sets\" \"x\" {\n  workspace_name = %q\n}\n", f.a.Name+"x"),
				ExpectError: matchWrapped(fmt.Sprintf("has no workspace named %q that the API token can see; the closest names: %q", f.a.Name+"x", f.a.Name)),
			},
		},
	})
}
