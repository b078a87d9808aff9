package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// The requests of tfgov_policy_set, and what their errors mean.

// organizationPolicySets is the organization's shared policy set list: a request per 100 sets per
// operation, which every set's refresh reads (a set's scope, policies and versions are in its list entry).
func (d *providerData) organizationPolicySets(ctx context.Context, org string) (*recordsByID[*tfe.PolicySet], error) {
	return d.lists.policySets.get(ctx, org, func(ctx context.Context) (*recordsByID[*tfe.PolicySet], error) {
		return listAllPages(ctx, func(ps *tfe.PolicySet) string { return ps.ID }, func(ctx context.Context, n int) ([]*tfe.PolicySet, *tfe.Pagination, error) {
			l, err := d.client.PolicySets.List(ctx, org, &tfe.PolicySetListOptions{ListOptions: listPage(n)})
			if err != nil {
				return nil, nil, err
			}
			return l.Items, l.Pagination, nil
		})
	})
}

// refreshPolicySet finds set id of org: from the shared list, else by ID (a list over one page may
// miss a set that moved pages); nil when the service confirms it gone (DESIGN.md "Gone or cannot see").
func (d *providerData) refreshPolicySet(ctx context.Context, check goneCheck, org, id string) (*tfe.PolicySet, error) {
	all, err := d.organizationPolicySets(ctx, org)
	if err != nil {
		return nil, err
	}
	if all.parentMissing {
		return nil, &cannotSeeError{d.policyCannotSee(ctx, check, org, "Policy set "+id)}
	}
	if ps, ok := all.lookup(id); ok {
		return ps, nil
	}
	ps, err := d.client.PolicySets.Read(ctx, id)
	if isNotFound(err) {
		return nil, nil // the token lists the organization's sets, and this one is not among them
	}
	return ps, err
}

// findPolicySetByName is the set of org named name: the list's search[name], matched exactly.
func (d *providerData) findPolicySetByName(ctx context.Context, org, name string) (*tfe.PolicySet, error) {
	var found *tfe.PolicySet
	_, err := tfeclient.WalkPages(ctx, func(ctx context.Context, n int) ([]*tfe.PolicySet, *tfe.Pagination, error) {
		l, err := d.client.PolicySets.List(ctx, org, &tfe.PolicySetListOptions{ListOptions: listPage(n), Search: name})
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}, func(items []*tfe.PolicySet) bool {
		for _, ps := range items {
			if ps.Name == name {
				found = ps
				return true
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	if found == nil {
		return nil, errNoPolicySetNamed
	}
	return found, nil
}

var errNoPolicySetNamed = fmt.Errorf("no policy set with that name: %w", tfe.ErrResourceNotFound)

// policySetNameError: no set of that name among those the token lists, or the list failed.
func (d *providerData) policySetNameError(ctx context.Context, org, name string, err error) string {
	if !errors.Is(err, errNoPolicySetNamed) {
		return d.organizationPoliciesError(ctx, org, err)
	}
	return fmt.Sprintf("Organization %s has no policy set named %q: its policy sets, which the API token may list, do not include it.", org, name)
}

// lostPolicySetCreate fails when a set with the name sent exists: names are unique in an organization, but
// nothing the API returns tells the set a lost create made from one someone else made (DESIGN.md "Lost creates").
func (d *providerData) lostPolicySetCreate(ctx context.Context, org, name string, amb *tfeclient.AmbiguousWriteError) (*tfe.PolicySet, bool, error) {
	ps, err := d.findPolicySetByName(ctx, org, name)
	if errors.Is(err, errNoPolicySetNamed) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return nil, false, &identityTakenError{&conflictError{fmt.Sprintf("Organization %s already has a policy set named %q (%s). %s\n\n%s",
		org, name, ps.ID, lostAnswerFound(amb), importAdvice("tfgov_policy_set", ps.ID, ps.ID))}}
}

// locatePolicySet is the refresh of set id after a write's 404, with the list read afresh.
func (d *providerData) locatePolicySet(org, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.lists.policySets.invalidate(org)
		ps, err := d.refreshPolicySet(ctx, check, org, id)
		var hidden *cannotSeeError
		switch {
		case errors.As(err, &hidden):
			return false, hidden.detail
		case err != nil:
			return false, fmt.Sprintf("Listing the policy sets of organization %s to tell whether it is gone failed: %s. State keeps it.", org, err)
		}
		return ps != nil, ""
	}
}

// scopeOfSet is a set's scope as the API shows it.
func scopeOfSet(ps *tfe.PolicySet) setScope {
	sc := setScope{Global: ps.Global, MatchAll: ps.TagSelectorMatchingLogic != nil && *ps.TagSelectorMatchingLogic == "all"}
	for _, ws := range ps.Workspaces {
		sc.WorkspaceIDs = append(sc.WorkspaceIDs, ws.ID)
	}
	for _, ws := range ps.WorkspaceExclusions {
		sc.ExcludedWorkspaceIDs = append(sc.ExcludedWorkspaceIDs, ws.ID)
	}
	for _, p := range ps.Projects {
		sc.ProjectIDs = append(sc.ProjectIDs, p.ID)
	}
	for _, p := range ps.ProjectExclusions {
		sc.ExcludedProjectIDs = append(sc.ExcludedProjectIDs, p.ID)
	}
	for _, sel := range ps.TagSelectors {
		t := scopeTag{Key: sel.Key}
		if sel.Value != nil {
			t.Value, t.HasValue = *sel.Value, true
		}
		if sel.IsExclude {
			sc.ExcludedTags = append(sc.ExcludedTags, t)
		} else {
			sc.Tags = append(sc.Tags, t)
		}
	}
	return sc
}

// selectors is the scope's tag selectors as the API takes them.
func (scope setScope) selectors() []*tfe.PolicySetTagSelector {
	var out []*tfe.PolicySetTagSelector
	add := func(tags []scopeTag, exclude bool) {
		for _, t := range tags {
			sel := &tfe.PolicySetTagSelector{Key: t.Key, IsExclude: exclude}
			if t.HasValue {
				sel.Value = tfe.String(t.Value)
			}
			out = append(out, sel)
		}
	}
	add(scope.Tags, false)
	add(scope.ExcludedTags, true)
	return out
}

func workspaceRefs(ids []string) []*tfe.Workspace {
	out := make([]*tfe.Workspace, 0, len(ids))
	for _, id := range ids {
		out = append(out, &tfe.Workspace{ID: id})
	}
	return out
}

func projectRefs(ids []string) []*tfe.Project {
	out := make([]*tfe.Project, 0, len(ids))
	for _, id := range ids {
		out = append(out, &tfe.Project{ID: id})
	}
	return out
}

func policyRefs(ids []string) []*tfe.Policy {
	out := make([]*tfe.Policy, 0, len(ids))
	for _, id := range ids {
		out = append(out, &tfe.Policy{ID: id})
	}
	return out
}

// missing returns the IDs of want not in have, sorted.
func missing(want, have []string) []string {
	var out []string
	for _, id := range want {
		if !slices.Contains(have, id) {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// changeScope moves the set's scope from have to want with the relationship endpoints: removals
// first, as a global set refuses attachments and inclusion tags; the global flag is the PATCH's.
func (d *providerData) changeScope(ctx context.Context, id string, have, want setScope, patch func() error) error {
	ps := d.client.PolicySets
	steps := []struct {
		ids []string
		do  func([]string) error
	}{
		{missing(have.WorkspaceIDs, want.WorkspaceIDs), func(ids []string) error {
			return ps.RemoveWorkspaces(ctx, id, tfe.PolicySetRemoveWorkspacesOptions{Workspaces: workspaceRefs(ids)})
		}},
		{missing(have.ProjectIDs, want.ProjectIDs), func(ids []string) error {
			return ps.RemoveProjects(ctx, id, tfe.PolicySetRemoveProjectsOptions{Projects: projectRefs(ids)})
		}},
		{missing(have.ExcludedWorkspaceIDs, want.ExcludedWorkspaceIDs), func(ids []string) error {
			return ps.RemoveWorkspaceExclusions(ctx, id, tfe.PolicySetRemoveWorkspaceExclusionsOptions{WorkspaceExclusions: workspaceRefs(ids)})
		}},
		{missing(have.ExcludedProjectIDs, want.ExcludedProjectIDs), func(ids []string) error {
			return ps.RemoveProjectExclusions(ctx, id, tfe.PolicySetRemoveProjectExclusionsOptions{ProjectExclusions: projectRefs(ids)})
		}},
	}
	haveSel, wantSel := have.selectors(), want.selectors()
	if gone := selectorsMissing(haveSel, wantSel); len(gone) > 0 {
		if err := ps.RemoveTagSelectors(ctx, id, tfe.PolicySetRemoveTagSelectorsOptions{TagSelectors: gone}); err != nil {
			return fmt.Errorf("removing tag selectors: %w", err)
		}
	}
	for _, s := range steps {
		if len(s.ids) > 0 {
			if err := s.do(s.ids); err != nil {
				return err
			}
		}
	}
	if err := patch(); err != nil {
		return err
	}
	adds := []struct {
		ids []string
		do  func([]string) error
	}{
		{missing(want.WorkspaceIDs, have.WorkspaceIDs), func(ids []string) error {
			return ps.AddWorkspaces(ctx, id, tfe.PolicySetAddWorkspacesOptions{Workspaces: workspaceRefs(ids)})
		}},
		{missing(want.ProjectIDs, have.ProjectIDs), func(ids []string) error {
			return ps.AddProjects(ctx, id, tfe.PolicySetAddProjectsOptions{Projects: projectRefs(ids)})
		}},
		{missing(want.ExcludedWorkspaceIDs, have.ExcludedWorkspaceIDs), func(ids []string) error {
			return ps.AddWorkspaceExclusions(ctx, id, tfe.PolicySetAddWorkspaceExclusionsOptions{WorkspaceExclusions: workspaceRefs(ids)})
		}},
		{missing(want.ExcludedProjectIDs, have.ExcludedProjectIDs), func(ids []string) error {
			return ps.AddProjectExclusions(ctx, id, tfe.PolicySetAddProjectExclusionsOptions{ProjectExclusions: projectRefs(ids)})
		}},
	}
	for _, s := range adds {
		if len(s.ids) > 0 {
			if err := s.do(s.ids); err != nil {
				return err
			}
		}
	}
	if add := selectorsMissing(wantSel, haveSel); len(add) > 0 {
		if err := ps.AddTagSelectors(ctx, id, tfe.PolicySetAddTagSelectorsOptions{TagSelectors: add}); err != nil {
			return fmt.Errorf("adding tag selectors: %w", err)
		}
	}
	return nil
}

// selectorsMissing returns the selectors of a not in b.
func selectorsMissing(a, b []*tfe.PolicySetTagSelector) []*tfe.PolicySetTagSelector {
	var out []*tfe.PolicySetTagSelector
	for _, s := range a {
		if !slices.ContainsFunc(b, func(o *tfe.PolicySetTagSelector) bool { return sameSelector(s, o) }) {
			out = append(out, s)
		}
	}
	return out
}

func sameSelector(a, b *tfe.PolicySetTagSelector) bool {
	return a.Key == b.Key && a.IsExclude == b.IsExclude && (a.Value == nil) == (b.Value == nil) && (a.Value == nil || *a.Value == *b.Value)
}

// changePolicies attaches and detaches individual policies.
func (d *providerData) changePolicies(ctx context.Context, id string, have, want []string) error {
	if gone := missing(have, want); len(gone) > 0 {
		if err := d.client.PolicySets.RemovePolicies(ctx, id, tfe.PolicySetRemovePoliciesOptions{Policies: policyRefs(gone)}); err != nil {
			return err
		}
	}
	if add := missing(want, have); len(add) > 0 {
		return d.client.PolicySets.AddPolicies(ctx, id, tfe.PolicySetAddPoliciesOptions{Policies: policyRefs(add)})
	}
	return nil
}

// uploadPolicySetVersion makes a version of set id, uploads archive and polls it until `ready`
// (its ID) or `errored` (an error with the service's message).
func (d *providerData) uploadPolicySetVersion(ctx context.Context, id string, archive []byte) (string, error) {
	// A version whose create answer was lost is not looked for: only its one-time upload link could fill it.
	v, err := reconcileCreate(ctx, "policy set version",
		func() (*tfe.PolicySetVersion, error) { return d.client.PolicySetVersions.Create(ctx, id) },
		func(context.Context, *tfeclient.AmbiguousWriteError) (*tfe.PolicySetVersion, bool, error) {
			return nil, false, nil
		})
	if err != nil {
		return "", fmt.Errorf("creating a version of policy set %s: %w", id, err)
	}
	link, _ := v.Links["upload"].(string)
	if link == "" {
		return v.ID, fmt.Errorf("policy set version %s has no upload link", v.ID)
	}
	tflog.Debug(ctx, "Uploading policy set version", map[string]any{"policy_set_version_id": v.ID, "bytes": len(archive)})
	if err := d.client.ConfigurationVersions.UploadTarGzip(ctx, link, bytes.NewReader(archive)); err != nil {
		// The link is one-time: after a lost answer the version's status tells whether the upload landed.
		if got, rerr := d.client.PolicySetVersions.Read(ctx, v.ID); rerr != nil || got.Status == tfe.PolicySetVersionPending {
			return v.ID, fmt.Errorf("uploading to policy set version %s: %w", v.ID, err)
		}
	}
	delay := pollStart / 5
	for {
		v, err = d.client.PolicySetVersions.Read(ctx, v.ID)
		if err != nil {
			return "", fmt.Errorf("reading policy set version: %w", err)
		}
		switch v.Status {
		case tfe.PolicySetVersionReady:
			return v.ID, nil
		case tfe.PolicySetVersionErrored:
			return v.ID, fmt.Errorf("policy set version %s errored: %s", v.ID, cmpOrText(v.ErrorMessage, v.Error))
		}
		if err := sleepCtx(ctx, delay); err != nil {
			return v.ID, fmt.Errorf("waiting for policy set version %s to be ready (it is %s): %w", v.ID, v.Status, err)
		}
		delay = min(delay*3/2, pollMax)
	}
}

func cmpOrText(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// regoTests reads an OPA source directory's Rego: its policies and its *_test.rego tests.
func regoTests(dir string) (modules, tests []policyeval.Module, err error) {
	err = filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		code, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m := policyeval.Module{Name: filepath.ToSlash(rel), Code: code}
		if strings.HasSuffix(p, "_test.rego") {
			tests = append(tests, m)
		} else {
			modules = append(modules, m)
		}
		return nil
	})
	return modules, tests, err
}
