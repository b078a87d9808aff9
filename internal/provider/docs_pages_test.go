package provider

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
