package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Refreshing module test variables: every refresh (and import) looks the
// variable up in its module's list, which the provider fetches once per
// operation and shares (sharedLists, shared_lists.go). Lists are fetched 100
// variables a page: a module of up to 100 variables costs one request. The
// list is indexed by ID and by key (imports take either).

// testVariableList is every test variable of one module, by ID
// (recordsByID: parentMissing is a 404, the module gone) and by key. It is
// shared between goroutines: read it, never change it.
type testVariableList struct {
	recordsByID[*tfe.Variable]
	byKey map[string]*tfe.Variable
}

// listTestVariables reads every page of a module's test variables through
// the pager (listAllPages). A 404 on the first page means the module is
// gone; on a later page it is an error like any other: the module answered
// a moment before, and a list cut short must never read as "no variables".
func listTestVariables(ctx context.Context, client *tfe.Client, mod moduleRef) (*testVariableList, error) {
	byID, err := listAllPages(ctx, func(v *tfe.Variable) string { return v.ID }, func(ctx context.Context, n int) ([]*tfe.Variable, *tfe.Pagination, error) {
		page, err := client.TestVariables.List(ctx, mod.id(), &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
		if err != nil {
			return nil, nil, err
		}
		return page.Items, page.Pagination, nil
	})
	if err != nil {
		return nil, err
	}
	l := &testVariableList{recordsByID: *byID, byKey: make(map[string]*tfe.Variable, len(byID.byID))}
	for _, v := range byID.byID {
		l.byKey[v.Key] = v
	}
	return l, nil
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
			tflog.Debug(ctx, "Listed module test variables", map[string]any{"module": mod.String(), "count": len(l.byID), "module_missing": l.parentMissing})
		}
		return l, err
	})
}

// testVariablesChanged drops the shared list of mod after a write to it.
func (d *providerData) testVariablesChanged(mod moduleRef) {
	d.testVariables.invalidate(mod.String())
}

// lostTestVariable looks for the variable a create whose answer was lost
// (amb) may have made: the module's variable with the key sent (keys are
// unique in a module), from a fresh list (through the pager). None means
// the create made nothing. One is never adopted: its created-at and its
// attributes are the same whether this create made it or someone else
// made it before the create or while it was in flight, this create then
// being refused as a duplicate (ownership.go). It fails as it does with no
// fault ("already exists", with its import block).
func lostTestVariable(ctx context.Context, client *tfe.Client, mod moduleRef, sent tfe.VariableCreateOptions, amb *tfeclient.AmbiguousWriteError) (*tfe.Variable, bool, error) {
	l, err := listTestVariables(ctx, client, mod)
	if err != nil {
		return nil, false, err
	}
	key := *sent.Key
	v := l.byKey[key]
	if v == nil {
		return nil, false, nil
	}
	return nil, false, &identityTakenError{&conflictError{fmt.Sprintf("Module %s already has a test variable with key %q (%s). %s\n\n%s",
		mod, key, v.ID, lostAnswerFound(amb), importAdvice("tfgov_module_test_variable", v.ID, mod.String()+"/"+v.ID))}}
}
