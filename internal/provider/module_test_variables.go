package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"
)

// testVariableListPageSize is the page size the provider asks for: the
// largest the service serves, so a module of up to 100 variables is one
// request.
const testVariableListPageSize = 100

// testVariableList is every test variable of one module.
type testVariableList struct {
	// moduleMissing is set when the list was a 404: the module is gone (or
	// the token may no longer see it), and so are its variables.
	moduleMissing bool
	byID          map[string]*tfe.Variable
	byKey         map[string]*tfe.Variable
}

// listTestVariables reads every page of a module's test variables.
func listTestVariables(ctx context.Context, client *tfe.Client, mod testVariableModule) (*testVariableList, error) {
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

// moduleTestVariables returns the test variables of mod.
func (d *providerData) moduleTestVariables(ctx context.Context, mod testVariableModule) (*testVariableList, error) {
	return listTestVariables(ctx, d.client, mod)
}
