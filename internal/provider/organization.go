package provider

import (
	"context"
	"fmt"
	"sync"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// planOrganization (ModifyPlan) fills a null `organization` with the provider's default, and
// replaces the resource when that default moved away from the organization in state.
func (d *providerData) planOrganization(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || d == nil {
		return // destroy, or the provider is not configured yet
	}
	var cfg types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("organization"), &cfg)...)
	if resp.Diagnostics.HasError() || !cfg.IsNull() {
		return
	}
	if d.organizationUnknown {
		// The provider's organization is known only after apply, so is a new resource's;
		// an existing one keeps its own (the provider's is checked again at apply).
		if req.State.Raw.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("organization"), types.StringUnknown())...)
		}
		return
	}
	if d.organization == "" {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Missing organization",
			"Set organization on this resource, or organization on the provider (or the TFE_ORGANIZATION environment variable).")
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("organization"), d.organization)...)
	if req.State.Raw.IsNull() {
		return
	}
	var state types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("organization"), &state)...)
	if !state.IsNull() && state.ValueString() != d.organization {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("organization"))
	}
}

// organizationOr (data sources) is v, else the provider's organization, else an error naming the attribute.
func (d *providerData) organizationOr(v types.String, diags *diag.Diagnostics) string {
	if !v.IsNull() && v.ValueString() != "" {
		return v.ValueString()
	}
	switch {
	case d.organizationUnknown:
		diags.AddAttributeError(path.Root("organization"), "Organization unknown until apply",
			"The provider's organization is known only after apply, and this data source needs one to read. Set organization here to a value known at plan, or make the provider's known at plan.")
	case d.organization == "":
		diags.AddAttributeError(path.Root("organization"), "Missing organization",
			"Set organization here, or organization on the provider (or the TFE_ORGANIZATION environment variable).")
	}
	return d.organization
}

// moveTarget is the check of an organization that policies move to, made once per provider
// process, so once per plan walk (DESIGN.md "Moving objects to another organization").
type moveTarget struct {
	once    sync.Once
	problem string // why the policies cannot move there; "" when they can
}

// policyMoveProblem says why org cannot receive policies, or "" when it can: one policy list
// (page size 1), which answers 404 both for a missing organization and for a token that may not
// manage its policies; only then the organization and the organizations the token can see are read,
// to say which.
func (d *providerData) policyMoveProblem(ctx context.Context, org string) string {
	v, _ := d.moveTargets.LoadOrStore(org, &moveTarget{})
	t, ok := v.(*moveTarget)
	if !ok {
		return "" // only moveTargets' own values are stored
	}
	t.once.Do(func() {
		_, err := d.client.Policies.List(ctx, org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 1}})
		switch {
		case err == nil:
		case !isNotFound(err):
			t.problem = fmt.Sprintf("Checking organization %s failed: %s", org, err)
		default:
			if _, oerr := d.client.Organizations.Read(ctx, org); oerr == nil {
				t.problem = fmt.Sprintf("The API token may not manage the policies of organization %s: it needs to be an owner's, or a member's of a team with the manage-policies permission there.", org)
				return
			}
			t.problem = fmt.Sprintf("Organization %s does not exist, or the API token cannot see it. %s", org, d.visibleOrganizations(ctx, org))
		}
	})
	return t.problem
}

// visibleOrganizations names the organizations the token can see, the closest to org first.
func (d *providerData) visibleOrganizations(ctx context.Context, org string) string {
	orgs, err := tfeclient.ListAll(ctx, func(ctx context.Context, page int) ([]*tfe.Organization, *tfe.Pagination, error) {
		l, err := d.client.Organizations.List(ctx, &tfe.OrganizationListOptions{ListOptions: listPage(page)})
		if err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	})
	if err != nil {
		return fmt.Sprintf("(Listing the organizations the token can see failed: %s.)", err)
	}
	if len(orgs) == 0 {
		return "The API token can see no organization."
	}
	names := namesOf(orgs, func(o *tfe.Organization) string { return o.Name })
	closest := ""
	if near := closestBy(org, names, closestCount, wholeDistance); len(near) > 0 {
		closest = fmt.Sprintf(" (the closest: %s)", quoted(near))
	}
	return fmt.Sprintf("The organizations the API token can see: %s%s.", quoted(names), closest)
}

// planPolicyMove (ModifyPlan) checks the organization a policy moves to, before the plan destroys
// it where it is: an error naming the organization when it cannot receive it, else a warning that
// the policy is replaced and leaves its policy sets. Terraform folds these warnings into one with
// the count of the others ("and N more similar warnings").
func (d *providerData) planPolicyMove(ctx context.Context, name string, from, to types.String, resp *resource.ModifyPlanResponse) {
	if from.IsNull() || from.IsUnknown() || to.IsNull() || to.IsUnknown() || from.ValueString() == to.ValueString() {
		return
	}
	if problem := d.policyMoveProblem(ctx, to.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(path.Root("organization"), "Cannot move policies to organization "+to.ValueString(),
			fmt.Sprintf("This plan would replace policy %q because its organization changes from %s to %s. %s\n\n"+
				"Check the organization (this resource's, the provider's, or TFE_ORGANIZATION): applying would destroy the policy in %s and then fail to create it in %s.",
				name, from.ValueString(), to.ValueString(), problem, from.ValueString(), to.ValueString()))
		return
	}
	resp.Diagnostics.AddAttributeWarning(path.Root("organization"), fmt.Sprintf("Policies move from organization %s to %s: each is replaced", from.ValueString(), to.ValueString()),
		fmt.Sprintf("Policy %q (and each policy of the similar warnings Terraform counts after this one) is destroyed in %s and created in %s, because its organization changes. "+
			"A replaced policy leaves its policy sets: the sets of %s that held it lose it, and the new policy belongs to no policy set until one adds it. "+
			"If the organization changed by mistake (the provider's organization or TFE_ORGANIZATION), do not apply this plan.",
			name, from.ValueString(), to.ValueString(), from.ValueString()))
}
