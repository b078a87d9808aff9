package provider

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/tfgov/terraform-provider-tfgov/internal/statesize"
)

// crossTypeSuites gives, by suite, the resource types the suite's own cases
// cover (each derived in the suite's file from what it runs).
var crossTypeSuites = map[string]func() map[string]bool{
	suiteStateBudget:     stateBudgetTypes,
	suiteRequestBudgets:  requestBudgetTypes,
	suiteChaos:           chaosTypes,
	suiteCrash:           crashTypes,
	suiteIdentityNoPrior: identityNoPriorTypes,
	suiteIdentityUpdate:  identityUpdateTypes,
	suiteImportMissing:   importMissingTypes,
	suiteGenerateConfig:  queryAdoptionTypes,
}

// TestRegistry_crossTypeSuites: every registered resource type has a kit
// (kit_test.go's kits), and the kit gives each suite that claims to cover
// every type its case, which the suite runs, or a typed reason why not;
// a suite covers no type the registry lacks.
func TestRegistry_crossTypeSuites(t *testing.T) {
	registered := map[string]bool{}
	for _, r := range resourceRegistry {
		registered[r.typ.typeName("tfgov")] = true
	}
	tests := testFuncs(t, ".")
	kitOf := map[string]typeKit{}
	for _, k := range kits {
		name := kitName(k)
		if kitOf[name] != nil {
			t.Errorf("%s has two kits in kits (kit_test.go)", name)
		}
		kitOf[name] = k
		if !registered[name] {
			t.Errorf("%s has a kit (%s_kit_test.go), and the registry (registry.go) does not list it", name, k.kitType())
		}
	}
	for _, r := range resourceRegistry {
		if name := r.typ.typeName("tfgov"); kitOf[name] == nil {
			t.Errorf("%s has no kit: add internal/provider/%s_kit_test.go (a type implementing typeKit, as agent_token_kit_test.go) and list it in kits (kit_test.go)", name, r.typ)
		}
	}
	for _, k := range kits {
		name := kitName(k)
		parts := kitParts(k)
		for _, suite := range slices.Sorted(maps.Keys(parts)) {
			p := parts[suite]
			covered := crossTypeSuites[suite]()[name]
			switch {
			case crossTypeSuites[suite] == nil:
				t.Errorf("%s: its kit has a part for %s, which registry_test.go's crossTypeSuites lacks", name, suite)
			case p.ok && !covered:
				t.Errorf("%s: its kit's case of %s (%s_kit_test.go) makes no object of %s: the suite does not run it", name, suite, k.kitType(), name)
			case !p.ok && covered:
				t.Errorf("%s is covered by %s, yet its kit (%s_kit_test.go) exempts it (%q): drop the exemption", name, suite, k.kitType(), exemptionText[p.exempt.why])
			case p.ok:
			case exemptionText[p.exempt.why] == "":
				t.Errorf("%s: its kit (%s_kit_test.go) gives %s neither a case (cover) nor an exemption of exemptionText (exempted)", name, k.kitType(), suite)
			case p.exempt.why == exemptOwnTest && !tests[p.exempt.test]:
				t.Errorf("%s: exempt from %s for a test of its own, and names no test of this package (%q)", name, suite, p.exempt.test)
			}
		}
		for suite := range crossTypeSuites {
			if _, ok := parts[suite]; !ok {
				t.Errorf("%s: kitParts (kit_test.go) has no part for the suite %s", name, suite)
			}
		}
	}
	for _, suite := range slices.Sorted(maps.Keys(crossTypeSuites)) {
		for _, name := range slices.Sorted(maps.Keys(crossTypeSuites[suite]())) {
			if !registered[name] {
				t.Errorf("%s covers %s, which the registry (registry.go) does not list", suite, name)
			}
		}
	}
}

// TestRegistry_derivedTables: the derived tables hold every registered
// type once.
func TestRegistry_derivedTables(t *testing.T) {
	if got, want := len(registeredResources()), len(resourceRegistry); got != want {
		t.Errorf("Resources: %d, want %d", got, want)
	}
	orders := map[int]bool{}
	for _, r := range resourceRegistry {
		if orders[r.providerOrder] {
			t.Errorf("%s: providerOrder %d is taken", r.typ, r.providerOrder)
		}
		orders[r.providerOrder] = true
		if len(resourceIdentities[r.typ]) == 0 {
			t.Errorf("%s: no identity", r.typ)
		}
	}
}

// TestRegistry_typedNames: each entry's typed name is the type its
// constructor makes, and each type says what the API token needs (its list
// resource too).
func TestRegistry_typedNames(t *testing.T) {
	ctx := context.Background()
	for _, r := range resourceRegistry {
		var md resource.MetadataResponse
		r.new().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		if want := r.typ.typeName("tfgov"); md.TypeName != want {
			t.Errorf("registry entry %s makes %s", want, md.TypeName)
		}
		if r.permissions == "" {
			t.Errorf("%s: no permissions", r.typ)
		}
		if r.list != nil {
			var lmd resource.MetadataResponse
			r.list().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "tfgov"}, &lmd)
			if lmd.TypeName != md.TypeName {
				t.Errorf("%s: its list resource is %s", md.TypeName, lmd.TypeName)
			}
		}
		if (r.list != nil) != (r.listPermissions != "") {
			t.Errorf("%s: listPermissions %q, list resource %t: both or neither", r.typ, r.listPermissions, r.list != nil)
		}
	}
	for _, r := range dataSourceRegistry {
		var md datasource.MetadataResponse
		r.new().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		if want := r.typ.typeName("tfgov"); md.TypeName != want {
			t.Errorf("data source entry %s makes %s", want, md.TypeName)
		}
		if r.permissions == "" {
			t.Errorf("data source %s: no permissions", r.typ)
		}
	}
	for _, r := range actionRegistry {
		var md action.MetadataResponse
		r.new().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "tfgov"}, &md)
		if want := r.typ.typeName("tfgov"); md.TypeName != want {
			t.Errorf("action entry %s makes %s", want, md.TypeName)
		}
		if r.permissions == "" {
			t.Errorf("action %s: no permissions", r.typ)
		}
	}
}

// typePlace is a place CONTRIBUTING.md "Adding a type" lists, which every
// registered type of a kind must have: a file at path, holding needle when
// one is given ("<name>" in either is the type's name, "<permissions>" its
// permissions as a page shows them).
type typePlace struct{ kind, path, needle string }

const (
	kindResource     = "resource"
	kindListResource = "list resource"
	kindDataSource   = "data source"
	kindAction       = "action"
)

var typePlaces = []typePlace{
	{kindResource, "templates/resources/<name>.md.tmpl", ""},
	{kindResource, "examples/resources/tfgov_<name>/resource.tf", ""},
	{kindResource, "examples/resources/tfgov_<name>/import.sh", ""},
	{kindResource, "examples/resources/tfgov_<name>/import-by-string-id.tf", ""},
	{kindResource, "examples/resources/tfgov_<name>/identity-import.tf", ""},
	{kindResource, "docs/resources/<name>.md", ""},
	{kindResource, "templates/index.md.tmpl", "| `tfgov_<name>` | resource | <permissions> |"},
	{kindResource, "README.md", "| `tfgov_<name>` |"},
	{kindResource, "CHANGELOG.md", "**New Resource:** `tfgov_<name>`"},
	{kindResource, "PERFORMANCE.md", "| `tfgov_<name>`"},
	{kindResource, "internal/provider/<name>_resource_test.go", "\nfunc TestAcc"},
	{kindListResource, "examples/list-resources/tfgov_<name>/list-resource.tfquery.hcl", ""},
	{kindListResource, "docs/list-resources/<name>.md", ""},
	{kindListResource, "templates/index.md.tmpl", "| `tfgov_<name>` | list resource | <permissions> |"},
	{kindListResource, "CHANGELOG.md", "**New List Resource:** `tfgov_<name>`"},
	{kindDataSource, "examples/data-sources/tfgov_<name>/data-source.tf", ""},
	{kindDataSource, "docs/data-sources/<name>.md", ""},
	{kindDataSource, "templates/index.md.tmpl", "| `tfgov_<name>` | data source | <permissions> |"},
	{kindDataSource, "README.md", "`data.tfgov_<name>`"},
	{kindDataSource, "CHANGELOG.md", "**New Data Source:** `tfgov_<name>`"},
	{kindAction, "examples/actions/tfgov_<name>/action.tf", ""},
	{kindAction, "docs/actions/<name>.md", ""},
	{kindAction, "templates/index.md.tmpl", "| `tfgov_<name>` | action | <permissions> |"},
	{kindAction, "README.md", "`action.tfgov_<name>`"},
	{kindAction, "CHANGELOG.md", "**New Action:** `tfgov_<name>`"},
}

// registeredKinds is every registered type by kind: its name and permissions.
func registeredKinds() map[string]map[string]string {
	kinds := map[string]map[string]string{kindResource: {}, kindListResource: {}, kindDataSource: {}, kindAction: {}}
	for _, r := range resourceRegistry {
		kinds[kindResource][string(r.typ)] = r.permissions
		if r.list != nil {
			kinds[kindListResource][string(r.typ)] = r.listPermissions
		}
	}
	for _, r := range dataSourceRegistry {
		kinds[kindDataSource][string(r.typ)] = r.permissions
	}
	for _, r := range actionRegistry {
		kinds[kindAction][string(r.typ)] = r.permissions
	}
	return kinds
}

// TestRegistry_everyPlace: every registered type has each place of its kind
// that CONTRIBUTING.md "Adding a type" lists, and the guide names each place
// and each cross-type suite.
func TestRegistry_everyPlace(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	read := func(path string) (string, error) {
		b, err := os.ReadFile(filepath.Join(root, path))
		return string(b), err
	}
	kinds := registeredKinds()
	for _, p := range typePlaces {
		for _, name := range slices.Sorted(maps.Keys(kinds[p.kind])) {
			perms := kinds[p.kind][name]
			fill := strings.NewReplacer("<name>", name, "<permissions>", strings.ToUpper(perms[:1])+perms[1:]).Replace
			text, err := read(fill(p.path))
			switch {
			case err != nil:
				t.Errorf("%s tfgov_%s: no %s (CONTRIBUTING.md \"Adding a type\")", p.kind, name, fill(p.path))
			case p.needle != "" && !strings.Contains(text, fill(p.needle)):
				t.Errorf("%s tfgov_%s: %s lacks %q (CONTRIBUTING.md \"Adding a type\")", p.kind, name, fill(p.path), strings.TrimSpace(fill(p.needle)))
			}
		}
	}
	// A data source's acceptance test: a file of TestAcc tests reading it.
	testFiles, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	accTested := map[string]bool{}
	for _, f := range testFiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if text := string(b); strings.Contains(text, "\nfunc TestAcc") {
			for name := range kinds[kindDataSource] {
				if strings.Contains(text, `data "tfgov_`+name+`"`) || strings.Contains(text, `data \"tfgov_`+name+`\"`) {
					accTested[name] = true
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(kinds[kindDataSource])) {
		if !accTested[name] {
			t.Errorf("data source tfgov_%s: no acceptance test: no file of TestAcc tests in internal/provider reads data \"tfgov_%s\" (CONTRIBUTING.md \"Adding a type\": internal/provider/<file>_data_source_test.go)", name, name)
		}
	}
	guide, err := read("CONTRIBUTING.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range typePlaces {
		if !strings.Contains(guide, p.path) {
			t.Errorf("CONTRIBUTING.md does not name %s, a place of every %s", p.path, p.kind)
		}
	}
	for suite := range crossTypeSuites {
		if !strings.Contains(guide, suite) {
			t.Errorf("CONTRIBUTING.md does not name the cross-type suite %s", suite)
		}
	}
	tests := testFuncs(t, ".", filepath.Join("..", "sandbox"), root)
	for _, m := range guideTestRE.FindAllStringSubmatch(guide, -1) {
		if !tests[m[1]] {
			t.Errorf("CONTRIBUTING.md names %s, which is no test (renamed?)", m[1])
		}
	}
	design, err := read("DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range designRefRE.FindAllStringSubmatch(guide, -1) {
		section := strings.Join(strings.Fields(m[1]), " ")
		if !strings.Contains(design, "\n## "+section+"\n") && !strings.Contains(design, "\n### "+section+"\n") {
			t.Errorf("CONTRIBUTING.md points to DESIGN.md %q, which has no such section", section)
		}
	}
}

var (
	guideTestRE = regexp.MustCompile("`(Test[A-Z][A-Za-z0-9_]*)`")
	designRefRE = regexp.MustCompile(`DESIGN\.md "([^"<]+)"`)
)

// testFuncs are the Test functions of the _test.go files in dirs.
func testFuncs(t *testing.T, dirs ...string) map[string]bool {
	t.Helper()
	names := map[string]bool{}
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") {
					names[fd.Name.Name] = true
				}
			}
		}
	}
	return names
}

// configResourceRE finds the resource types a configuration declares.
var configResourceRE = regexp.MustCompile(`(?m)^resource "(tfgov_[a-z_]+)"`)

// configTypes are the tfgov resource types configuration declares.
func configTypes(config string) map[string]bool {
	types := map[string]bool{}
	for _, m := range configResourceRE.FindAllStringSubmatch(config, -1) {
		types[m[1]] = true
	}
	return types
}

// perfTable is the table of PERFORMANCE.md's section heading: its rows'
// cells by column name, in order.
func perfTable(t *testing.T, heading string) []map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "PERFORMANCE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## "+heading+"\n")
	if !ok {
		t.Fatalf("PERFORMANCE.md has no section %q", heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var header []string
	var rows []map[string]string
	for line := range strings.SplitSeq(section, "\n") {
		if !strings.HasPrefix(line, "|") {
			if header != nil {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case header == nil:
			header = cells
		case strings.HasPrefix(cells[0], "---"):
		default:
			row := map[string]string{}
			for i, c := range cells {
				if i < len(header) {
					row[header[i]] = c
				}
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// perfCell reads a cell of PERFORMANCE.md's "Request budgets": the requests
// measured, then "(≤ budget)" when the budget is higher.
func perfCell(cell string) (measured, budget int, ok bool) {
	m, b, cut := strings.Cut(cell, " (≤ ")
	measured, err := strconv.Atoi(m)
	if err != nil {
		return 0, 0, false
	}
	if !cut {
		return measured, measured, true
	}
	b, found := strings.CutSuffix(b, ")")
	budget, err = strconv.Atoi(b)
	return measured, budget, found && err == nil
}

// TestRegistry_performanceFigures: PERFORMANCE.md's request budgets are the
// budgets TestAccRequestBudgets holds each case to (opBudget, at N = 1 and
// 101), and its state budgets the stated budgets TestAccStateBudget holds
// the types hashicorp/tfe lacks to; every row is some case's.
func TestRegistry_performanceFigures(t *testing.T) {
	t.Parallel()
	const heading = `PERFORMANCE.md "Request budgets"`
	docRows := map[string]map[string]string{}
	for _, r := range perfTable(t, "Request budgets") {
		docRows[r["type"]+" N="+r["N"]] = r
	}
	used := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(budgetCases)) {
		c := budgetCases[name]
		if c.row == "" {
			if c.movedBy == "" {
				t.Errorf("budget case %s has no row of %s: give it one (budgetCase.row)", name, heading)
			}
			continue
		}
		for _, n := range []int{1, 101} {
			key := fmt.Sprintf("%s N=%d", c.row, n)
			doc, ok := docRows[key]
			if !ok {
				t.Errorf("%s: %s lacks the row %q at N = %d (budget case %s)", c.row, heading, c.row, n, name)
				continue
			}
			used[key] = true
			for _, op := range budgetOps {
				want := c.opBudget(op, n, (n+bulkPageSize-1)/bulkPageSize, 0)
				measured, budget, ok := perfCell(doc[string(op)])
				switch {
				case !ok:
					t.Errorf("%s at N = %d: %s's %s is %q, not the requests measured and their budget (%d, or \"5 (≤ %d)\")", c.row, n, heading, op, doc[string(op)], want, want)
				case budget != want:
					t.Errorf("%s at N = %d: %s gives %s a budget of %d, the test's is %d (budget case %s)", c.row, n, heading, op, budget, want, name)
				case measured > budget:
					t.Errorf("%s at N = %d: %s gives %s %d requests measured, over its budget of %d", c.row, n, heading, op, measured, budget)
				}
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(docRows)) {
		if !used[key] {
			t.Errorf("%s's row %q is no budget case's (budgetCase.row)", heading, key)
		}
	}
	// The stated state budgets; the others are hashicorp/tfe's bytes for the
	// object the test made, known only once it ran.
	states := perfTable(t, "State budgets")
	for _, c := range stateBudgetCases(stateBudgets{}, nil) {
		if c.against != "stated" {
			continue
		}
		typ, _, _ := strings.Cut(c.addr, ".")
		want := strconv.Itoa(c.budget(statesize.Instance{}))
		i := slices.IndexFunc(states, func(r map[string]string) bool {
			return r["type"] == "`"+typ+"`" || strings.HasPrefix(r["type"], "`"+typ+"` ")
		})
		switch {
		case i < 0:
			t.Errorf("%s: PERFORMANCE.md \"State budgets\" lacks its row (`%s`), budget %s", typ, typ, want)
		case states[i]["budget"] != want:
			t.Errorf("%s: PERFORMANCE.md \"State budgets\" gives budget %q, the test's stated budget is %s (%s)", typ, states[i]["budget"], want, c.addr)
		}
	}
	// Every kit's type has its rows, which say what its budget is: a
	// stated number, or hashicorp/tfe's resource (the kit's tfe); every
	// row is some kit's.
	for _, k := range kits {
		name := "`" + kitName(k) + "`"
		rows := 0
		for _, r := range states {
			if r["type"] != name && !strings.HasPrefix(r["type"], name+" ") {
				continue
			}
			rows++
			what := r["what the budget is"]
			if tfe := k.tfe(); tfe != "" && !strings.Contains(what, "`"+tfe+"`") {
				t.Errorf("%s: PERFORMANCE.md \"State budgets\" row %s says its budget is %q, which does not name `%s`, its kit's hashicorp/tfe resource", kitName(k), r["type"], what, tfe)
			}
		}
		if rows == 0 && k.stateBudget().ok {
			t.Errorf("%s: PERFORMANCE.md \"State budgets\" has no row of it (its kit has a state budget)", kitName(k))
		}
	}
	for _, r := range states {
		if !slices.ContainsFunc(kits, func(k typeKit) bool {
			name := "`" + kitName(k) + "`"
			return r["type"] == name || strings.HasPrefix(r["type"], name+" ")
		}) {
			t.Errorf("PERFORMANCE.md \"State budgets\" has a row of %s, which no kit (kit_test.go) has", r["type"])
		}
	}
}

// kitOptionalFields are the functions of a kit's cases that a case may
// leave nil; every other function a suite calls.
var kitOptionalFields = map[string]bool{"budgetCase.fixtures": true, "identityNoPriorCase.pick": true, "identityNoPriorCase.make": true, "identityUpdateCase.make": true}

// TestRegistry_kitParents: a kit's cases refer only to the parents its
// parents() declares, which are all each suite makes for it, so a kit
// that reads an undeclared kind fails here naming the type, the suite
// and the kind, not with an empty ID in an acceptance run; and a fleet
// asks for more of a kind only among those it declares.
func TestRegistry_kitParents(t *testing.T) {
	for _, k := range kits {
		name := kitName(k)
		declared := map[*parentKind]int{}
		for _, p := range k.parents() {
			declared[p] = 10
		}
		env := func() parentIDs {
			p := parentIDs{org: "org", ids: map[*parentKind][]string{}, undeclared: map[*parentKind]bool{}, many: map[*parentKind]bool{}}
			for kind, n := range declared {
				for i := range n {
					p.ids[kind] = append(p.ids[kind], fmt.Sprintf("%s-%d", kind.prefix, i))
				}
			}
			return p
		}
		check := func(suite string, p parentIDs) {
			for kind := range p.undeclared {
				t.Errorf("%s: its kit's case of %s refers to a %s, which its parents() does not declare, so the suite makes none (%s_kit_test.go)", name, suite, kind.name, k.kitType())
			}
		}
		for suite, fleet := range map[string]covered[fleetKit]{suiteChaos: k.chaos(), suiteCrash: k.crash()} {
			if !fleet.ok || fleet.c.config == nil {
				continue
			}
			for kind, n := range fleet.c.parents {
				if _, ok := declared[kind]; !ok {
					t.Errorf("%s: its kit's case of %s asks for %d of a %s, which its parents() does not declare (%s_kit_test.go)", name, suite, n, kind.name, k.kitType())
				}
			}
			e := fleetEnv{parentIDs: env()}
			fleet.c.config(e)
			check(suite, e.parentIDs)
			for kind := range e.many {
				if fleet.c.parents[kind] == 0 && declared[kind] > 0 {
					t.Errorf("%s: its kit's case of %s refers to every %s of the fleet, and asks for no number of them (fleetKit.parents), so the suite makes one (%s_kit_test.go)", name, suite, kind.name, k.kitType())
				}
			}
		}
		if sk := k.stateBudget(); sk.ok && sk.c.config != nil {
			e := stateEnv{parentIDs: env(), files: map[string]string{"median": "m", "p99": "p"}}
			sk.c.config(e)
			check(suiteStateBudget, e.parentIDs)
		}
		f := &identityFixtures{parentIDs: env(), made: map[resourceType]string{}}
		if c := k.identityNoPrior(f); c.ok && c.c.cfg != nil {
			c.c.cfg()
			check(suiteIdentityNoPrior, f.parentIDs)
		}
		f = &identityFixtures{parentIDs: env(), made: map[resourceType]string{}}
		if c := k.identityUpdate(f); c.ok && c.c.cfg != nil {
			c.c.cfg()
			check(suiteIdentityUpdate, f.parentIDs)
		}
	}
}

// TestRegistry_kitFields: every case a kit gives has each function its
// suite calls, so a kit missing one fails here naming the type, the suite
// and the field, not with a nil call in an acceptance run.
func TestRegistry_kitFields(t *testing.T) {
	f := &identityFixtures{}
	for _, k := range kits {
		name := kitName(k)
		var cases []any
		add := func(suite string, ok bool, c any) {
			if ok {
				cases = append(cases, suite, c)
			}
		}
		add(suiteStateBudget, k.stateBudget().ok, k.stateBudget().c)
		for _, c := range k.requestBudgets().c {
			add(suiteRequestBudgets, true, c)
		}
		add(suiteChaos, k.chaos().ok, k.chaos().c)
		add(suiteCrash, k.crash().ok, k.crash().c)
		add(suiteIdentityNoPrior, k.identityNoPrior(f).ok, k.identityNoPrior(f).c)
		add(suiteIdentityUpdate, k.identityUpdate(f).ok, k.identityUpdate(f).c)
		add(suiteImportMissing, k.importMissing().ok, k.importMissing().c)
		add(suiteGenerateConfig, k.generateConfig().ok, k.generateConfig().c)
		for i := 0; i < len(cases); i += 2 {
			v := reflect.ValueOf(cases[i+1])
			for j := range v.NumField() {
				field := v.Type().Name() + "." + v.Type().Field(j).Name
				if v.Field(j).Kind() == reflect.Func && v.Field(j).IsNil() && !kitOptionalFields[field] {
					t.Errorf("%s: its kit's case of %s has no %s, which the suite calls (%s_kit_test.go)", name, cases[i], field, k.kitType())
				}
			}
		}
	}
}

// TestRegistry_tfeMoves: a type whose kit names hashicorp/tfe's resource
// for the same object moves it (the registry's tfeMove, reached through
// the resource's MoveState), and its state budget is that resource's
// bytes; a type without one has neither.
func TestRegistry_tfeMoves(t *testing.T) {
	ctx := context.Background()
	for _, k := range kits {
		name, tfeName := kitName(k), k.tfe()
		reg := k.kitType().registered()
		switch {
		case tfeName != "" && reg.tfeMove == nil:
			t.Errorf("%s: hashicorp/tfe has %s (its kit's tfe), and its registry entry (registry.go) has no tfeMove: add `tfeMove: &tfe…Move` from %s_move.go", name, tfeName, k.kitType())
		case tfeName != "" && reg.tfeMove.source != tfeName:
			t.Errorf("%s: its registry entry's tfeMove moves %s, its kit's tfe is %s", name, reg.tfeMove.source, tfeName)
		case tfeName == "" && reg.tfeMove != nil:
			t.Errorf("%s: its registry entry moves %s, and its kit's tfe says hashicorp/tfe has no such resource", name, reg.tfeMove.source)
		}
		if tfeName != "" {
			m, ok := reg.new().(resource.ResourceWithMoveState)
			if !ok || len(m.MoveState(ctx)) == 0 {
				t.Errorf("%s: the resource has no MoveState moving %s: add it (%s_move.go, as team_access_move.go)", name, tfeName, k.kitType())
			}
		}
		sk := k.stateBudget()
		if !sk.ok {
			continue
		}
		for _, c := range sk.c.cases(stateBudgets{}, nil) {
			stated := c.against == "stated"
			if tfeName != "" && stated {
				t.Errorf("%s: its state budget %s is a stated number, not from %s's bytes (its kit's tfe)", name, c.addr, tfeName)
			}
			if tfeName == "" && !stated {
				t.Errorf("%s: its state budget %s is %q, and its kit's tfe names no hashicorp/tfe resource: a stated budget", name, c.addr, c.against)
			}
		}
	}
}

// TestRegistry_schemaPermissions: every type's page ends with what the API
// token needs: its Schema defers withPermissions (CONTRIBUTING.md "The
// type's files"), which the page shows only after make docs.
func TestRegistry_schemaPermissions(t *testing.T) {
	ctx := context.Background()
	check := func(kind, name, file, desc, perms string) {
		want := permissionsPrefix + strings.ToUpper(perms[:1]) + perms[1:]
		if !strings.HasSuffix(desc, want) {
			t.Errorf("%s tfgov_%s: its Schema's description does not end with %q: start %s's Schema with `defer withPermissions(&resp.Schema.MarkdownDescription, …)`", kind, name, want, file)
		}
	}
	for _, r := range resourceRegistry {
		var s resource.SchemaResponse
		r.new().Schema(ctx, resource.SchemaRequest{}, &s)
		check(kindResource, string(r.typ), string(r.typ)+"_resource.go", s.Schema.MarkdownDescription, r.permissions)
		if r.list != nil {
			var ls list.ListResourceSchemaResponse
			r.list().ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &ls)
			check(kindListResource, string(r.typ), string(r.typ)+"_list.go", ls.Schema.MarkdownDescription, r.listPermissions)
		}
	}
	for _, r := range dataSourceRegistry {
		var s datasource.SchemaResponse
		r.new().Schema(ctx, datasource.SchemaRequest{}, &s)
		check(kindDataSource, string(r.typ), "its data source file", s.Schema.MarkdownDescription, r.permissions)
	}
	for _, r := range actionRegistry {
		var s action.SchemaResponse
		r.new().Schema(ctx, action.SchemaRequest{}, &s)
		check(kindAction, string(r.typ), "its action file", s.Schema.MarkdownDescription, r.permissions)
	}
}

// TestRegistry_sandboxREADME: the sandbox file that serves each type
// (its kit's sandboxArea) exists, and the sandbox README's "Where things
// are" links it.
func TestRegistry_sandboxREADME(t *testing.T) {
	dir := filepath.Join("..", "sandbox")
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	where, _, _ := strings.Cut(string(readme), "\n## Running the sandbox")
	for _, k := range kits {
		file := k.sandboxArea()
		if _, err := os.Stat(filepath.Join(dir, file)); err != nil {
			t.Errorf("%s: its kit's sandboxArea is %s, which internal/sandbox lacks", kitName(k), file)
			continue
		}
		if link := fmt.Sprintf("[`%s`](%s)", file, file); !strings.Contains(where, link) {
			t.Errorf("%s: internal/sandbox/README.md \"Where things are\" lacks %s, the row of the sandbox file that serves it (its kit's sandboxArea)", kitName(k), link)
		}
	}
}
