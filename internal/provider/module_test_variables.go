package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Refreshing module test variables: every refresh (and import) looks the
// variable up in its module's list, which the provider fetches once per
// operation and shares (sharedLists, shared_lists.go). Lists are fetched 100
// variables a page: a module of up to 100 variables costs one request. The
// list is indexed by ID and by key (imports take either).

// testVariableListPageSize is the page size the provider asks for.
const testVariableListPageSize = 100

// testVariableList is every test variable of one module. It is shared
// between goroutines: read it, never change it.
type testVariableList struct {
	// moduleMissing is set when the list was a 404: the module is gone (or
	// the token may no longer see it), and so are its variables.
	moduleMissing bool
	byID          map[string]*tfe.Variable
	byKey         map[string]*tfe.Variable
}

// listTestVariables reads every page of a module's test variables.
func listTestVariables(ctx context.Context, client *tfe.Client, mod moduleRef) (*testVariableList, error) {
	l := &testVariableList{byID: map[string]*tfe.Variable{}, byKey: map[string]*tfe.Variable{}}
	opts := &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: testVariableListPageSize}}
	for {
		page, err := client.TestVariables.List(ctx, mod.id(), opts)
		if isNotFound(err) {
			return &testVariableList{moduleMissing: true}, nil
		}
		if err != nil {
			return nil, err
		}
		for _, v := range page.Items {
			l.byID[v.ID] = v
			l.byKey[v.Key] = v
		}
		if page.Pagination == nil || page.NextPage == 0 {
			return l, nil
		}
		opts.PageNumber = page.NextPage
	}
}

// testVariableLists holds the lists of one configured provider, by module
// (moduleRef.String()).
type testVariableLists = sharedLists[string, testVariableList]

// moduleTestVariables returns the test variables of mod, from the list
// this provider shares for the module.
func (d *providerData) moduleTestVariables(ctx context.Context, mod moduleRef) (*testVariableList, error) {
	return d.testVariables.get(ctx, mod.String(), func(ctx context.Context) (*testVariableList, error) {
		l, err := listTestVariables(ctx, d.client, mod)
		if err == nil {
			tflog.Debug(ctx, "Listed module test variables", map[string]any{"module": mod.String(), "count": len(l.byID), "module_missing": l.moduleMissing})
		}
		return l, err
	})
}

// testVariablesChanged drops the shared list of mod after a write to it.
func (d *providerData) testVariablesChanged(mod moduleRef) {
	d.testVariables.invalidate(mod.String())
}
