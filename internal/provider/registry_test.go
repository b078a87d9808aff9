package provider

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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
}

// TestRegistry_crossTypeSuites: every registered resource type is in every
// suite that claims to cover every type, or its registry entry says why
// not; a suite covers no type the registry lacks, and claims no exemption
// it does not need.
func TestRegistry_crossTypeSuites(t *testing.T) {
	registered := map[string]bool{}
	for _, r := range resourceRegistry {
		registered[r.typ.typeName("tfgov")] = true
		for suite := range r.exempt {
			if crossTypeSuites[suite] == nil {
				t.Errorf("%s: exempt from %s, which is no cross-type suite", r.typ.typeName("tfgov"), suite)
			}
		}
	}
	for _, suite := range slices.Sorted(maps.Keys(crossTypeSuites)) {
		covered := crossTypeSuites[suite]()
		for _, r := range resourceRegistry {
			name := r.typ.typeName("tfgov")
			reason, exempt := r.exempt[suite]
			switch {
			case !covered[name] && !exempt:
				t.Errorf("%s is not covered by %s, and its registry entry (registry.go) gives no reason", name, suite)
			case covered[name] && exempt:
				t.Errorf("%s is covered by %s, yet exempt from it in the registry (%q): drop the exemption", name, suite, reason)
			case exempt && strings.TrimSpace(reason) == "":
				t.Errorf("%s: its exemption from %s gives no reason", name, suite)
			}
		}
		for name := range covered {
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
