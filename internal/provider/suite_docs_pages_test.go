package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestResourcePages: every resource's page (docs/resources, generated from
// templates/) opens with one paragraph and then its example, before the
// paragraphs on fault handling, and shows an identity `import` block next
// to the import by ID. A page missing is an error: make docs writes one per
// resource.
func TestResourcePages(t *testing.T) {
	t.Parallel()
	p := New("test")()
	for _, f := range p.Resources(t.Context()) {
		var md resource.MetadataResponse
		f().Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		name := md.TypeName
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			page := filepath.Join(repoRoot(), "docs", "resources", strings.TrimPrefix(name, "tfgov_")+".md")
			raw, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			s := string(raw)
			body := s[strings.Index(s, "\n# "+name)+1:]
			ex := strings.Index(body, "\n## Example Usage\n")
			if ex < 0 {
				t.Fatalf("%s has no Example Usage", page)
			}
			if paras := strings.Count(strings.TrimSpace(body[:ex]), "\n\n"); paras > 1 {
				t.Errorf("%s: %d paragraphs before the example, want one (the rest after it)", page, paras)
			}
			for _, w := range []string{"**Lost answers.**", "**Saved plans.**"} {
				if i := strings.Index(body, w); i >= 0 && i < ex {
					t.Errorf("%s: %q comes before the example", page, w)
				}
			}
			i := strings.Index(body, "\n## Import\n")
			if i < 0 {
				t.Fatalf("%s has no Import section", page)
			}
			imp := body[i:]
			for _, w := range []string{"to = " + name + ".", "identity = {", "terraform import " + name + "."} {
				if !strings.Contains(imp, w) {
					t.Errorf("%s: the Import section lacks %q", page, w)
				}
			}
		})
	}
}

// TestPermissionPages: the page of every resource, data source, list
// resource and action says what the API token needs ("Required
// permissions", permissions.go), and docs/index.md's table has a row for
// each type. Each type the provider serves must have its page, so a new
// type without the line fails here; so does a page left from a type that
// is gone.
func TestPermissionPages(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	p := New("test")()
	want := map[string]bool{} // "<docs dir>/<name>"
	for _, f := range p.Resources(ctx) {
		var md resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		want["resources/"+strings.TrimPrefix(md.TypeName, "tfgov_")] = true
	}
	for _, f := range p.DataSources(ctx) {
		var md datasource.MetadataResponse
		f().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		want["data-sources/"+strings.TrimPrefix(md.TypeName, "tfgov_")] = true
	}
	for _, f := range p.(provider.ProviderWithListResources).ListResources(ctx) {
		var md resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		want["list-resources/"+strings.TrimPrefix(md.TypeName, "tfgov_")] = true
	}
	for _, f := range p.(provider.ProviderWithActions).Actions(ctx) {
		var md action.MetadataResponse
		f().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		want["actions/"+strings.TrimPrefix(md.TypeName, "tfgov_")] = true
	}
	docs := filepath.Join(repoRoot(), "docs")
	for _, dir := range []string{"resources", "data-sources", "list-resources", "actions"} {
		pages, err := filepath.Glob(filepath.Join(docs, dir, "*.md"))
		if err != nil {
			t.Fatal(err)
		}
		for _, page := range pages {
			key := dir + "/" + strings.TrimSuffix(filepath.Base(page), ".md")
			if !want[key] {
				t.Errorf("docs/%s.md: no such type (run make docs)", key)
			}
		}
	}
	raw, err := os.ReadFile(filepath.Join(docs, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	index := string(raw)
	table := index[max(strings.Index(index, "\n## Required permissions\n"), 0):]
	if !strings.HasPrefix(table, "\n## Required permissions\n") {
		t.Error("docs/index.md has no Required permissions section")
	}
	for key := range want {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(filepath.Join(docs, key+".md"))
			if err != nil {
				t.Fatalf("%v (run make docs)", err)
			}
			if !strings.Contains(string(raw), "\n"+permissionsPrefix) {
				t.Errorf("docs/%s.md has no %q line: give the type its permissions in its registry entry (registry.go) and defer withPermissions in its Schema", key, permissionsPrefix)
			}
			dir, name, _ := strings.Cut(key, "/")
			row := fmt.Sprintf("| `tfgov_%s` | %s |", name, map[string]string{
				"resources": "resource", "data-sources": "data source", "list-resources": "list resource", "actions": "action"}[dir])
			if !strings.Contains(table, row) {
				t.Errorf("docs/index.md's Required permissions table has no row starting %q", row)
			}
		})
	}
}

// TestPolicyDocsLeadWithOneResource: the policy page's first example and
// the quickstart give each policy its code in the one tfgov_policy
// (source or content_wo, the lean shapes, or content), the two-resource shape
// (tfgov_policy_upload) coming after, as the page recommends (issues 36
// and 37).
func TestPolicyDocsLeadWithOneResource(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join(repoRoot(), "examples", "resources", "tfgov_policy", "resource.tf"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(raw), "\nresource ")
	first := blocks[0]
	if len(blocks) > 1 && !strings.Contains(first, `resource "tfgov_policy"`) {
		first = blocks[1]
	}
	if !strings.Contains(first, "source ") && !strings.Contains(first, "content_wo") {
		t.Errorf("the policy page's first example gives its code neither with source nor content_wo:\n%s", first)
	}
	qs, _ := filepath.Glob(filepath.Join(repoRoot(), "examples", "quickstart", "*.tf"))
	for _, f := range qs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), `resource "tfgov_policy_upload"`) {
			t.Errorf("%s uploads a policy's code with tfgov_policy_upload, not its tfgov_policy's source", f)
		}
	}
}
