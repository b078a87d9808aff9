package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// fakeLists is a fetch function for testVariableLists that counts its calls
// per module, can be held until released, and fails while failNext is set.
type fakeLists struct {
	mu       sync.Mutex
	calls    map[string]int
	hold     chan struct{} // when not nil, fetches wait for it to close
	started  chan string   // when not nil, each fetch reports its start
	failNext bool
}

func (f *fakeLists) fetch(key string) func(context.Context) (*testVariableList, error) {
	return func(context.Context) (*testVariableList, error) {
		f.mu.Lock()
		f.calls[key]++
		n, hold, started, fail := f.calls[key], f.hold, f.started, f.failNext
		f.failNext = false
		f.mu.Unlock()
		if started != nil {
			started <- key
		}
		if hold != nil {
			<-hold
		}
		if fail {
			return nil, errors.New("list failed")
		}
		v := &tfe.Variable{ID: fmt.Sprintf("var-%s%d", key, n), Key: "K"}
		return &testVariableList{recordsByID: recordsByID[*tfe.Variable]{byID: map[string]*tfe.Variable{v.ID: v}}, byKey: map[string]*tfe.Variable{v.Key: v}}, nil
	}
}

func (f *fakeLists) count(key string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[key]
}

// fetchedID is the ID of the one variable of a fake list: var-<key><n> for
// the n-th fetch of key.
func fetchedID(l *testVariableList) string {
	for id := range l.byID {
		return id
	}
	return ""
}

func TestTestVariableLists(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := map[string]struct {
		// run drives the cache; it returns the fetches it expects per module.
		run func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int
	}{
		"sequential reads share one request": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			for range 10 {
				l, err := c.get(ctx, "a", f.fetch("a"))
				if err != nil || fetchedID(l) != "var-a1" {
					t.Fatalf("get = %v, %v", l, err)
				}
			}
			return map[string]int{"a": 1}
		}},
		"concurrent reads wait for one request": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			f.hold, f.started = make(chan struct{}), make(chan string, 1)
			const n = 100
			var wg sync.WaitGroup
			var done atomic.Int32
			ids := make([]string, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					l, err := c.get(ctx, "a", f.fetch("a"))
					if err != nil {
						t.Errorf("get: %v", err)
						return
					}
					ids[i] = fetchedID(l)
					done.Add(1)
				}()
			}
			<-f.started
			time.Sleep(20 * time.Millisecond) // let the others reach the request in flight
			if d := done.Load(); d != 0 {
				t.Errorf("%d reads returned while the list was still being fetched", d)
			}
			close(f.hold)
			wg.Wait()
			for i, id := range ids {
				if id != "var-a1" {
					t.Errorf("read %d got %q, want the one list var-a1", i, id)
				}
			}
			return map[string]int{"a": 1}
		}},
		"modules are listed separately": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			for _, k := range []string{"a", "b", "a", "b"} {
				if _, err := c.get(ctx, k, f.fetch(k)); err != nil {
					t.Fatal(err)
				}
			}
			return map[string]int{"a": 1, "b": 1}
		}},
		"a write to the module fetches the list again": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			if _, err := c.get(ctx, "a", f.fetch("a")); err != nil {
				t.Fatal(err)
			}
			c.invalidate("a")
			l, err := c.get(ctx, "a", f.fetch("a"))
			if err != nil || fetchedID(l) != "var-a2" {
				t.Fatalf("after invalidate: %v, %v; want the second list", l, err)
			}
			return map[string]int{"a": 2}
		}},
		"a write to another module keeps the list": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			for range 2 {
				if _, err := c.get(ctx, "a", f.fetch("a")); err != nil {
					t.Fatal(err)
				}
				c.invalidate("b")
			}
			return map[string]int{"a": 1}
		}},
		"invalidate before any read": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			c.invalidate("a")
			if _, err := c.get(ctx, "a", f.fetch("a")); err != nil {
				t.Fatal(err)
			}
			if _, err := c.get(ctx, "a", f.fetch("a")); err != nil {
				t.Fatal(err)
			}
			return map[string]int{"a": 1}
		}},
		"errors are not kept": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			f.failNext = true
			if _, err := c.get(ctx, "a", f.fetch("a")); err == nil {
				t.Fatal("the failed list returned no error")
			}
			l, err := c.get(ctx, "a", f.fetch("a"))
			if err != nil || fetchedID(l) != "var-a2" {
				t.Fatalf("after a failure: %v, %v", l, err)
			}
			return map[string]int{"a": 2}
		}},
		"a list fetched across a write is not kept": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			f.hold, f.started = make(chan struct{}), make(chan string, 1)
			got := make(chan string)
			go func() {
				l, err := c.get(ctx, "a", f.fetch("a"))
				if err != nil {
					t.Errorf("get: %v", err)
				}
				got <- fetchedID(l)
			}()
			<-f.started
			c.invalidate("a")
			close(f.hold)
			if id := <-got; id != "var-a1" {
				t.Errorf("the read in flight got %q", id)
			}
			f.hold, f.started = nil, nil
			l, err := c.get(ctx, "a", f.fetch("a"))
			if err != nil || fetchedID(l) != "var-a2" {
				t.Fatalf("read after the write: %v, %v; want a new list", l, err)
			}
			return map[string]int{"a": 2}
		}},
		"a read after a write does not wait for an older request": {func(t *testing.T, c *testVariableLists, f *fakeLists) map[string]int {
			hold1, started := make(chan struct{}), make(chan string, 2)
			f.hold, f.started = hold1, started
			first := make(chan string)
			go func() {
				l, err := c.get(ctx, "a", f.fetch("a"))
				if err != nil {
					t.Errorf("get: %v", err)
				}
				first <- fetchedID(l)
			}()
			<-started
			c.invalidate("a")
			f.mu.Lock()
			f.hold = nil // the second fetch does not wait
			f.mu.Unlock()
			second := make(chan string, 1)
			go func() {
				l, err := c.get(ctx, "a", f.fetch("a"))
				if err != nil {
					t.Errorf("get: %v", err)
				}
				second <- fetchedID(l)
			}()
			select {
			case id := <-second:
				if id != "var-a2" {
					t.Errorf("read after the write got %q, want its own list var-a2", id)
				}
			case <-time.After(5 * time.Second):
				t.Error("the read after the write waited for the older request")
			}
			<-started
			close(hold1)
			if id := <-first; id != "var-a1" {
				t.Errorf("the older read got %q", id)
			}
			// The newer list is the one kept.
			if l, _ := c.get(ctx, "a", f.fetch("a")); fetchedID(l) != "var-a2" {
				t.Errorf("kept %q, want var-a2", fetchedID(l))
			}
			return map[string]int{"a": 2}
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := &fakeLists{calls: map[string]int{}}
			var c testVariableLists
			want := tc.run(t, &c, f)
			for key, n := range want {
				if got := f.count(key); got != n {
					t.Errorf("module %s listed %d times, want %d", key, got, n)
				}
			}
		})
	}
}

// TestListTestVariables reads every page of a module with more variables
// than a page holds, and reports a missing module, on an in-process sandbox.
func TestListTestVariables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	c, err := tfe.NewClient(&tfe.Config{Address: inst.URL, Token: inst.Token})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("acme"), Email: tfe.String("o@acme.test")}); err != nil {
		t.Fatal(err)
	}
	mod := moduleRef{Organization: "acme", Name: "vpc", Provider: "aws"}
	if _, err := c.RegistryModules.Create(ctx, "acme", tfe.RegistryModuleCreateOptions{Name: tfe.String(mod.Name), Provider: tfe.String(mod.Provider), RegistryName: tfe.PrivateRegistry}); err != nil {
		t.Fatal(err)
	}
	// In order, one after the other: the cases add to the same module.
	tests := []struct {
		name                string
		variables, requests int
	}{
		{"empty", 0, 1},
		{"one page", 100, 1},
		{"two pages", 101, 2},
		{"three pages", 250, 3},
		{"missing module", -1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := c.TestVariables.List(ctx, mod.id(), &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
			if err != nil {
				t.Fatal(err)
			}
			target := mod
			if tc.variables < 0 {
				target.Name = "nope"
			}
			for i := l.TotalCount; i < tc.variables; i++ {
				if _, err := c.TestVariables.Create(ctx, mod.id(), tfe.VariableCreateOptions{Key: tfe.String(fmt.Sprintf("V%03d", i)), Category: tfe.Category(tfe.CategoryEnv)}); err != nil {
					t.Fatal(err)
				}
			}
			before := inst.Server.RequestsTo("GET", target.varsPath())
			got, err := listTestVariables(ctx, c, target)
			if err != nil {
				t.Fatal(err)
			}
			if n := inst.Server.RequestsTo("GET", target.varsPath()) - before; n != tc.requests {
				t.Errorf("%d list requests, want %d", n, tc.requests)
			}
			if tc.variables < 0 {
				if !got.parentMissing {
					t.Error("a missing module was not reported")
				}
				return
			}
			if got.parentMissing || len(got.byID) != tc.variables || len(got.byKey) != tc.variables {
				t.Errorf("listed %d by ID and %d by key, want %d", len(got.byID), len(got.byKey), tc.variables)
			}
			for id, v := range got.byID {
				if got.byKey[v.Key] != v || v.ID != id {
					t.Errorf("variable %s: indexes disagree", id)
				}
			}
		})
	}
}

// TestSharedListsInvalidateWhere: invalidateWhere drops every matching
// parent's list, held or never yet kept, and no other.
func TestSharedListsInvalidateWhere(t *testing.T) {
	t.Parallel()
	type key struct {
		module string
		page   int
	}
	var c sharedLists[key, int]
	calls := map[key]int{}
	fetch := func(k key) func(context.Context) (*int, error) {
		return func(context.Context) (*int, error) { calls[k]++; n := calls[k]; return &n, nil }
	}
	keys := []key{{"a", 1}, {"a", 2}, {"b", 1}}
	for _, k := range keys {
		if _, err := c.get(context.Background(), k, fetch(k)); err != nil {
			t.Fatal(err)
		}
	}
	c.invalidateWhere(func(k key) bool { return k.module == "a" })
	for _, k := range keys {
		if _, err := c.get(context.Background(), k, fetch(k)); err != nil {
			t.Fatal(err)
		}
	}
	want := map[key]int{{"a", 1}: 2, {"a", 2}: 2, {"b", 1}: 1}
	for k, n := range want {
		if calls[k] != n {
			t.Errorf("%v fetched %d times, want %d", k, calls[k], n)
		}
	}
}
