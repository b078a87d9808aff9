package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

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
	// pages counts the list's pages: a variable missing from a list of
	// more than one page is only probably gone (recordsByID.definite).
	pages int
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
		l.pages++
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

// testVariableAPI is a test variable with its creation time, which go-tfe's
// tfe.Variable lacks: lostTestVariable needs it.
type testVariableAPI struct {
	ID          string           `jsonapi:"primary,vars"`
	Key         string           `jsonapi:"attr,key"`
	Value       string           `jsonapi:"attr,value"`
	Description string           `jsonapi:"attr,description"`
	Category    tfe.CategoryType `jsonapi:"attr,category"`
	HCL         bool             `jsonapi:"attr,hcl"`
	Sensitive   bool             `jsonapi:"attr,sensitive"`
	VersionID   string           `jsonapi:"attr,version-id"`
	CreatedAt   time.Time        `jsonapi:"attr,created-at,iso8601"`
}

type testVariableAPIList struct {
	*tfe.Pagination
	Items []*testVariableAPI
}

// lostTestVariable looks for the variable a create whose answer was lost
// (amb) may have made: the module's variable with the key sent (keys are
// unique in a module). It is adopted only when it provably did not exist
// before this create: it is not in the module's pre-write snapshot
// (ownership.go), no other create of this provider received it, it was
// created within the request's window (its created-at, give or take
// clockSkew), and its description, category, hcl, sensitive and (unless
// sensitive, which hides it) value are as sent. A variable that existed
// before fails as it would without the fault ("already exists", with its
// import block); one in any other shape is refused with its ID and import
// ID. No such variable means the create made nothing.
func lostTestVariable(ctx context.Context, client *tfe.Client, mod moduleRef, sent tfe.VariableCreateOptions, amb *ambiguousWriteError, owned *ownership) (*tfe.Variable, bool, error) {
	path := strings.TrimPrefix(mod.varsPath(), "/api/v2/")
	opts := &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: testVariableListPageSize}}
	key := *sent.Key
	for {
		req, err := client.NewRequest("GET", path, opts)
		if err != nil {
			return nil, false, err
		}
		page := &testVariableAPIList{}
		if err := req.Do(ctx, page); err != nil {
			return nil, false, err
		}
		for _, v := range page.Items {
			if v.Key != key {
				continue
			}
			existed, snapshot := owned.existedBefore(testVariableSnapshotKey(mod), v.ID)
			if existed {
				return nil, false, &existedBeforeError{&conflictError{fmt.Sprintf("Module %s already has a test variable with key %q (%s), which existed before this create was sent: %s.\n\n%s",
					mod, key, v.ID, amb, importAdvice("tfgov_module_test_variable", v.ID, mod.String()+"/"+v.ID))}}
			}
			var differs []string
			if !snapshot {
				differs = append(differs, "the provider could not list the module's variables before the create, so it cannot tell whether the variable existed before")
			}
			if owned.wasReceived(v.ID) {
				differs = append(differs, "another resource of this apply created it")
			}
			if !amb.within(v.CreatedAt) {
				differs = append(differs, "it was created at "+v.CreatedAt.UTC().Format(time.RFC3339)+", outside the request's window")
			}
			if sent.Description != nil && v.Description != *sent.Description {
				differs = append(differs, "the description differs")
			}
			if sent.Category != nil && v.Category != *sent.Category {
				differs = append(differs, fmt.Sprintf("category is %q", v.Category))
			}
			if sent.HCL != nil && v.HCL != *sent.HCL {
				differs = append(differs, "hcl differs")
			}
			if sent.Sensitive != nil && v.Sensitive != *sent.Sensitive {
				differs = append(differs, "sensitive differs")
			}
			if !v.Sensitive && sent.Value != nil && v.Value != *sent.Value {
				differs = append(differs, "the value differs")
			}
			if len(differs) > 0 {
				return nil, false, &conflictError{ambiguousConflict("tfgov_module_test_variable",
					fmt.Sprintf("a test variable with key %q in module %s", key, mod), v.ID, mod.String()+"/"+v.ID, strings.Join(differs, ", "), amb)}
			}
			return &tfe.Variable{ID: v.ID, Key: v.Key, Value: v.Value, Description: v.Description, Category: v.Category,
				HCL: v.HCL, Sensitive: v.Sensitive, VersionID: v.VersionID}, true, nil
		}
		if page.Pagination == nil || page.NextPage == 0 || page.NextPage <= page.CurrentPage {
			return nil, false, nil
		}
		opts.PageNumber = page.NextPage
	}
}
