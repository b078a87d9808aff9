package provider

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// TestResourceTypesDeriveNames checks that each managed resource's type
// name, identity and list resource come from its one resourceType: every
// resource has an identity with attributes and a list resource of the
// same name (but for withoutList), and every identity and list belongs to
// a resource.
func TestResourceTypesDeriveNames(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := New("test")().(*tfgovProvider)
	// withoutList: resource types that have no list resource, and why.
	withoutList := map[string]string{
		"tfgov_workspace_team_access_exclusive": "it declares a workspace's complete set of teams; the grants themselves are tfgov_team_access's list",
		"tfgov_project_team_access_exclusive":   "it declares a project's complete set of teams; the grants themselves are team project access's list",
	}
	lists := map[string]bool{}
	for _, f := range p.ListResources(ctx) {
		var meta resource.MetadataResponse
		f().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		lists[meta.TypeName] = true
	}
	resources := map[string]bool{}
	for _, f := range p.Resources(ctx) {
		r := f()
		var meta resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &meta)
		resources[meta.TypeName] = true
		ri, ok := r.(resource.ResourceWithIdentity)
		if !ok {
			t.Errorf("%s has no identity", meta.TypeName)
			continue
		}
		var id resource.IdentitySchemaResponse
		ri.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &id)
		if len(id.IdentitySchema.Attributes) == 0 {
			t.Errorf("%s: identity schema without attributes", meta.TypeName)
		}
		if !lists[meta.TypeName] && withoutList[meta.TypeName] == "" {
			t.Errorf("%s has no list resource", meta.TypeName)
		}
	}
	for name := range lists {
		if !resources[name] {
			t.Errorf("list resource %s lists no resource type", name)
		}
	}
	for typ := range resourceIdentities {
		if !resources[typ.typeName("tfgov")] {
			t.Errorf("identity of %q, which is no resource type", typ)
		}
	}
}

// resourceFileRank is each part's place in a resource file's written order
// (CONTRIBUTING.md "The order of a resource file"): the schema and model
// (rank 0, in any order), then CRUD and import, then helpers.
var resourceFileRank = map[string]int{"Create": 1, "Read": 2, "Update": 3, "Delete": 4, "ImportState": 5}

const helperRank = 6

// schemaMethods belong with the schema: the type's plan-time methods.
var schemaMethods = map[string]bool{"Schema": true, "ConfigValidators": true, "ValidateConfig": true, "ModifyPlan": true}

// TestGuide_resourceFileOrder: every *_resource.go is in the written order,
// by each function's position: first the constructor, the resource's
// Schema, ConfigValidators, ValidateConfig and ModifyPlan, and the methods
// of the file's own types (the model); then Create, Read, Update, Delete
// and ImportState, in that order; then every other function (a model's
// method may stand there too). It names the fewest functions to move.
func TestGuide_resourceFileOrder(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*_resource.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		own, res := map[string]bool{}, ""
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					own[s.(*ast.TypeSpec).Name.Name] = true
				}
			}
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "Schema" {
				res = receiverName(fd)
			}
		}
		var names []string
		var ranks []int
		crud := false
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			recv, rank := receiverName(fd), helperRank
			switch {
			case recv == res && resourceFileRank[fd.Name.Name] > 0:
				rank, crud = resourceFileRank[fd.Name.Name], true
			case recv == res && schemaMethods[fd.Name.Name],
				recv == "" && strings.HasPrefix(fd.Name.Name, "New"),
				recv != res && own[recv] && !crud:
				rank = 0
			}
			names = append(names, strings.TrimPrefix(recv+"."+fd.Name.Name, "."))
			ranks = append(ranks, rank)
		}
		if out := outOfOrder(ranks); len(out) > 0 {
			var move []string
			for _, i := range out {
				move = append(move, names[i])
			}
			t.Errorf("%s: out of the written order (schema and model, Create, Read, Update, Delete, ImportState, helpers): move %s", file, strings.Join(move, ", "))
		}
	}
}

// outOfOrder is the indexes to take out of ranks so that the rest never
// decrease: the complement of a heaviest non-decreasing subsequence, where
// keeping a schema or CRUD method in place outweighs keeping helpers.
func outOfOrder(ranks []int) []int {
	n := len(ranks)
	best, prev := make([]int, n), make([]int, n)
	end := -1
	for i := range n {
		w := map[bool]int{true: 1, false: 100}[ranks[i] == helperRank]
		best[i], prev[i] = w, -1
		for j := range i {
			if ranks[j] <= ranks[i] && best[j]+w > best[i] {
				best[i], prev[i] = best[j]+w, j
			}
		}
		if end < 0 || best[i] >= best[end] {
			end = i
		}
	}
	keep := map[int]bool{}
	for i := end; i >= 0; i = prev[i] {
		keep[i] = true
	}
	var out []int
	for i := range n {
		if !keep[i] {
			out = append(out, i)
		}
	}
	return out
}

// receiverName is the method's receiver type ("policyResource"); "" for a
// function.
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

func TestGuide_outOfOrder(t *testing.T) {
	t.Parallel()
	h := helperRank
	tests := map[string]struct {
		ranks []int
		want  []int
	}{
		"in order":                     {[]int{0, 0, 1, 2, 3, 4, 5, h, h}, nil},
		"a helper among CRUD":          {[]int{0, 1, h, 2, 3}, []int{2}},
		"Delete after ImportState":     {[]int{0, 1, 2, 3, 5, 4}, []int{4}},
		"helpers first move, not CRUD": {[]int{0, h, h, h, 1, 2, 3}, []int{1, 2, 3}},
		"a model method after CRUD":    {[]int{0, 1, 2, h}, nil},
	}
	for name, tc := range tests {
		if got := outOfOrder(tc.ranks); !slices.Equal(got, tc.want) {
			t.Errorf("%s: outOfOrder(%v) = %v, want %v", name, tc.ranks, got, tc.want)
		}
	}
}
