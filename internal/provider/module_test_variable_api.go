package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// testVariableList: a module's test variables by ID and by key (imports take either), shared (shared_lists.go).
type testVariableList struct {
	recordsByID[*tfe.Variable]
	byKey map[string]*tfe.Variable
}

// listTestVariables reads every page; a 404 on the first means the module is gone, on a later one
// it is an error (a list cut short must never read as "no variables").
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

type testVariableLists = sharedLists[string, testVariableList] // by moduleRef.String()

func (d *providerData) moduleTestVariables(ctx context.Context, mod moduleRef) (*testVariableList, error) {
	return d.testVariables.get(ctx, mod.String(), func(ctx context.Context) (*testVariableList, error) {
		l, err := listTestVariables(ctx, d.client, mod)
		if err == nil {
			tflog.Debug(ctx, "Listed module test variables", map[string]any{"module": mod.String(), "count": len(l.byID), "module_missing": l.parentMissing})
		}
		return l, err
	})
}

func (d *providerData) testVariablesChanged(mod moduleRef) {
	d.testVariables.invalidate(mod.String())
}

// lostTestVariable finds the variable with the sent key that a lost create (amb) may have made:
// never adopted, as nothing proves who made it (DESIGN.md "Lost creates"); it fails as "already exists".
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

// locateTestVariable is the refresh of variable id of mod after a write's 404 (Read's reads,
// made afresh): absent from the module's list (several pages: a read by ID first) is gone.
func (d *providerData) locateTestVariable(mod moduleRef, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.testVariablesChanged(mod)
		d.lists.parents.invalidate("module:" + mod.String())
		vars, err := d.moduleTestVariables(ctx, mod)
		switch {
		case err != nil:
			return false, fmt.Sprintf("Test variable %s of module %s cannot be %s: listing the module's test variables to tell whether it is gone failed: %s. State keeps it.", id, mod, check.done, err)
		case vars.parentMissing:
			return false, d.moduleTestCannotSee(ctx, check, mod, "Test variable "+id+" of module "+mod.String(), "test variables")
		case vars.byID[id] != nil:
			return true, ""
		case vars.pages <= 1:
			return false, ""
		}
		_, err = d.client.TestVariables.Read(ctx, mod.id(), id)
		if err != nil && !isNotFound(err) {
			return false, fmt.Sprintf("Test variable %s of module %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", id, mod, check.done, err)
		}
		return err == nil, ""
	}
}
