package provider

import (
	"context"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// parameterList: a policy set's parameters by ID and by key (imports take either), shared (shared_lists.go).
type parameterList struct {
	recordsByID[*tfe.PolicySetParameter]
	byKey map[string]*tfe.PolicySetParameter
}

// listPolicySetParameters reads every page; a 404 on the first means the set is gone or hidden (gone.go).
func listPolicySetParameters(ctx context.Context, client *tfe.Client, setID string) (*parameterList, error) {
	byID, err := listAllPages(ctx, func(v *tfe.PolicySetParameter) string { return v.ID }, func(ctx context.Context, n int) ([]*tfe.PolicySetParameter, *tfe.Pagination, error) {
		page, err := client.PolicySetParameters.List(ctx, setID, &tfe.PolicySetParameterListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}})
		if err != nil {
			return nil, nil, err
		}
		return page.Items, page.Pagination, nil
	})
	if err != nil {
		return nil, err
	}
	l := &parameterList{recordsByID: *byID, byKey: make(map[string]*tfe.PolicySetParameter, len(byID.byID))}
	for _, v := range byID.byID {
		l.byKey[v.Key] = v
	}
	return l, nil
}

func (d *providerData) policySetParameters(ctx context.Context, setID string) (*parameterList, error) {
	return d.lists.setParameters.get(ctx, setID, func(ctx context.Context) (*parameterList, error) {
		l, err := listPolicySetParameters(ctx, d.client, setID)
		if err == nil {
			tflog.Debug(ctx, "Listed policy set parameters", map[string]any{"policy_set_id": setID, "count": len(l.byID), "set_missing": l.parentMissing})
		}
		return l, err
	})
}

func (d *providerData) policySetParametersChanged(setID string) {
	d.lists.setParameters.invalidate(setID)
}

// policySetRead is one read of a policy set: missing answers 404 (gone, or the token may not see it).
type policySetRead struct {
	set     *tfe.PolicySet
	missing bool
}

// policySet reads a set once per operation: a parameter's plan checks that it takes parameters.
func (d *providerData) policySet(ctx context.Context, setID string) (*policySetRead, error) {
	return d.lists.setReads.get(ctx, setID, func(ctx context.Context) (*policySetRead, error) {
		ps, err := d.client.PolicySets.Read(ctx, setID)
		if isNotFound(err) {
			return &policySetRead{missing: true}, nil
		}
		if err != nil {
			return nil, err
		}
		return &policySetRead{set: ps}, nil
	})
}

// setVersioned reports whether ps holds versions (uploaded, or from a VCS repository): go-tfe
// decodes no `versioned`, so its newest version or repository says it.
func setVersioned(ps *tfe.PolicySet) bool {
	return ps.NewestVersion != nil || ps.VCSRepo != nil
}

// parametersRefused says why set ps cannot use parameters, "" when it can: only Sentinel reads
// them, and the service takes them only on a versioned set (hashicorp/terraform-provider-tfe
// #1512: on a set of individually attached policies the create answers a bare 404).
func parametersRefused(ps *tfe.PolicySet) string {
	what := fmt.Sprintf("Policy set %q (%s)", ps.Name, ps.ID)
	switch {
	case ps.Kind == tfe.OPA:
		return what + " is an OPA set: only Sentinel policies read parameters, so this parameter could never take effect. " +
			"Give the value to the OPA policies another way (in their code, or as data of a versioned set), or remove the parameter."
	case ps.PolicyCount > 0 && !setVersioned(ps):
		return fmt.Sprintf("%s holds %d individually attached policies (`policy_ids`): HCP Terraform takes parameters only on a versioned policy set, "+
			"whose policies come from uploaded versions or a VCS repository, and answers a parameter's create on this set with 404 (\"resource not found\"). "+
			"Make the set versioned (tfgov_policy_set's `source`, or a VCS repository), or remove the parameter.", what, ps.PolicyCount)
	}
	return ""
}

// parameterSetError explains a write on setID's parameters that answered 404 (what: "create
// parameter \"region\""): the set refuses parameters, is missing, or hides from the token.
func (d *providerData) parameterSetError(ctx context.Context, setID, what string, err error) string {
	if !isNotFound(err) {
		return fmt.Sprintf("Could not %s of policy set %s: %s", what, setID, err)
	}
	d.lists.setReads.invalidate(setID)
	read, rerr := d.policySet(ctx, setID)
	switch {
	case rerr != nil:
		return fmt.Sprintf("Could not %s of policy set %s: the service answered 404, and reading the set to tell why failed: %s", what, setID, rerr)
	case read.missing:
		return fmt.Sprintf("Could not %s of policy set %s: the set was not found. It does not exist, or the API token may not manage its organization's policies: it needs %s, or to be an owner, or the organization token.",
			what, setID, permManagePolicies)
	}
	if why := parametersRefused(read.set); why != "" {
		return fmt.Sprintf("Could not %s: %s", what, why)
	}
	return fmt.Sprintf("Could not %s of policy set %q (%s): the service answered 404 although the API token may read the set: %s", what, read.set.Name, setID, err)
}

// parameterGone is the refresh of parameter id of setID (of organization org, "" when unknown)
// after its set's parameter list answered 404 (DESIGN.md "Gone or cannot see"): the organization's
// policy set list, which needs "Manage policies" and then shows every set, lacks the set (several
// pages: a read by ID answers 404 too): gone. Otherwise why it cannot tell.
func (d *providerData) parameterGone(ctx context.Context, check goneCheck, org, setID, id string) (gone bool, why string) {
	what := fmt.Sprintf("Policy set parameter %s of policy set %s", id, setID)
	if org == "" {
		return false, fmt.Sprintf("%s cannot be %s: the set's parameters answered 404 (the set was deleted, or the API token may not manage its policies: it needs %s), "+
			"and state does not record the set's organization to tell which. %s", what, check.done, permManagePolicies, stateRmAdvice)
	}
	sets, err := d.organizationPolicySets(ctx, org)
	switch {
	case err != nil:
		return false, fmt.Sprintf("%s cannot be %s: the set's parameters answered 404, and listing organization %s's policy sets to tell whether it is gone failed: %s. %s.", what, check.done, org, err, check.keeps)
	case sets.parentMissing:
		seen, serr := d.organizationSeen(ctx, org)
		return false, cannotSee(check, what, "organization "+org, "policy sets", permManagePolicies+", or to be an owner, or the organization token", seen, serr)
	case sets.byID[setID] != nil:
		return false, fmt.Sprintf("%s cannot be %s: organization %s lists the set, but its parameters answered 404. %s; %s later.", what, check.done, org, check.keeps, check.again)
	case sets.pages > 1:
		if _, err := d.client.PolicySets.Read(ctx, setID); !isNotFound(err) {
			return false, fmt.Sprintf("%s cannot be %s: the set's parameters answered 404, but reading the set gave: %v. %s.", what, check.done, err, check.keeps)
		}
	}
	return true, ""
}

// locatePolicySetParameter is the refresh of parameter id after a write's 404 (Read's reads, made afresh).
func (d *providerData) locatePolicySetParameter(org, setID, id string) locateFunc {
	return func(ctx context.Context, check goneCheck) (bool, string) {
		d.policySetParametersChanged(setID)
		d.lists.policySets.invalidate(org)
		d.lists.parents.invalidate("organization:" + org)
		params, err := d.policySetParameters(ctx, setID)
		switch {
		case err != nil:
			return false, fmt.Sprintf("Policy set parameter %s cannot be %s: listing its set's parameters to tell whether it is gone failed: %s. State keeps it.", id, check.done, err)
		case params.parentMissing:
			_, why := d.parameterGone(ctx, check, org, setID, id)
			return false, why
		case params.byID[id] != nil:
			return true, ""
		case params.pages <= 1:
			return false, ""
		}
		_, err = d.client.PolicySetParameters.Read(ctx, setID, id)
		if err != nil && !isNotFound(err) {
			return false, fmt.Sprintf("Policy set parameter %s cannot be %s: reading it to tell whether it is gone failed: %s. State keeps it.", id, check.done, err)
		}
		return err == nil, ""
	}
}

// lostPolicySetParameter finds the parameter with the sent key that a lost create (amb) may have
// made: never adopted, as nothing proves who made it (DESIGN.md "Lost creates"); it fails as
// "already exists", with its import block.
func lostPolicySetParameter(ctx context.Context, client *tfe.Client, setID string, sent tfe.PolicySetParameterCreateOptions, amb *tfeclient.AmbiguousWriteError) (*tfe.PolicySetParameter, bool, error) {
	l, err := listPolicySetParameters(ctx, client, setID)
	if err != nil {
		return nil, false, err
	}
	key := *sent.Key
	v := l.byKey[key]
	if v == nil {
		return nil, false, nil
	}
	return nil, false, &identityTakenError{&conflictError{fmt.Sprintf("Policy set %s already has a parameter with key %q (%s). %s\n\n%s",
		setID, key, v.ID, lostAnswerFound(amb), importAdvice("tfgov_policy_set_parameter", v.ID, setID+"/"+v.ID))}}
}
