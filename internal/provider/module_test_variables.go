package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/sync/singleflight"
)

// Refreshing module test variables.
//
// The API reads a variable by ID, but a configuration often holds many
// variables of one module, and Terraform refreshes each resource on its own:
// reading them one by one would cost one request per variable on every
// plan. Instead every refresh (and import) looks the variable up in its
// module's list, which testVariableLists fetches once and shares:
//
//   - one list per module per configured provider. Terraform configures the
//     provider afresh for every operation (the plan, the apply), so a list
//     never outlives the operation that fetched it;
//   - concurrent refreshes of one module wait for the same request
//     (singleflight) instead of each sending their own;
//   - every create, update and delete of a variable drops its module's list,
//     and a list fetched while such a write was under way is not kept, so
//     nothing read after a write is older than the write.
//
// Lists are fetched 100 variables a page (the largest page the service
// serves): a module of up to 100 variables costs one request.

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
// (moduleRef.String()). The zero value is ready to use.
type testVariableLists struct {
	mu    sync.Mutex
	lists map[string]*testVariableList
	// gens counts the invalidations of each module: a fetch keeps its list
	// only if no invalidation happened since it started, and fetches of
	// different generations never share a request.
	gens  map[string]uint64
	group singleflight.Group
}

// get returns the list of module key, fetching it when it is not held. An
// error is returned to every caller waiting for that fetch, and not kept.
func (c *testVariableLists) get(ctx context.Context, key string, fetch func(context.Context) (*testVariableList, error)) (*testVariableList, error) {
	c.mu.Lock()
	if l, ok := c.lists[key]; ok {
		c.mu.Unlock()
		return l, nil
	}
	gen := c.gens[key]
	c.mu.Unlock()
	v, err, _ := c.group.Do(key+"#"+strconv.FormatUint(gen, 10), func() (any, error) {
		l, err := fetch(ctx)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.gens[key] == gen {
			if c.lists == nil {
				c.lists = map[string]*testVariableList{}
			}
			c.lists[key] = l
		}
		return l, nil
	})
	if err != nil {
		return nil, err
	}
	l, ok := v.(*testVariableList)
	if !ok {
		return nil, fmt.Errorf("internal error: cached %T, not a variable list", v)
	}
	return l, nil
}

// invalidate drops the list of module key, and any list of it being
// fetched right now.
func (c *testVariableLists) invalidate(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.lists, key)
	if c.gens == nil {
		c.gens = map[string]uint64{}
	}
	c.gens[key]++
}

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
// unique in a module). It is adopted when it was created within the
// request's window (its created-at, give or take clockSkew) and its
// description, category, hcl, sensitive and (unless sensitive, which hides
// it) value are as sent; a variable with the key in any other shape is
// refused with its ID and import ID. No such variable means the create
// made nothing.
func lostTestVariable(ctx context.Context, client *tfe.Client, mod moduleRef, sent tfe.VariableCreateOptions, amb *ambiguousWriteError) (*tfe.Variable, bool, error) {
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
			var differs []string
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
