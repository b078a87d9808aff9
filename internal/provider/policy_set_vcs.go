package provider

import (
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A policy set whose policies come from a VCS repository: the third content form beside
// `policy_ids` and `source`. DESIGN.md "Governed workspaces".

var vcsRepoAttrTypes = map[string]attr.Type{
	"identifier": types.StringType, "branch": types.StringType, "ingress_submodules": types.BoolType,
	"oauth_token_id": types.StringType, "github_app_installation_id": types.StringType,
}

func vcsRepoSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "The VCS repository the set's policies come from (the service ingests it on each push). Not with `policy_ids` or `source`. " +
			"A set cannot move to or from a repository: make a new set beside it.",
		Attributes: map[string]schema.Attribute{
			"identifier": schema.StringAttribute{Required: true, MarkdownDescription: "The repository, `<owner>/<repository>`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"branch": schema.StringAttribute{Optional: true, MarkdownDescription: "The branch to ingest; leave it out for the repository's default branch.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"ingress_submodules": schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Whether to ingest the repository's submodules too. Defaults to false."},
			"oauth_token_id": schema.StringAttribute{Optional: true, MarkdownDescription: "ID of the OAuth token of the organization's VCS connection (`ot-<id>`). Exactly one of it and `github_app_installation_id`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"github_app_installation_id": schema.StringAttribute{Optional: true, MarkdownDescription: "ID of a GitHub App installation (`ghain-<id>`), instead of `oauth_token_id`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		},
	}
}

func policiesPathSchema() schema.StringAttribute {
	return schema.StringAttribute{Optional: true,
		MarkdownDescription: "Directory of the repository holding the set's `sentinel.hcl` or `policies.hcl`; leave it out for the repository's root. Only with `vcs_repo`.",
		Validators:          []validator.String{stringvalidator.AlsoRequires(path.MatchRoot("vcs_repo")), stringvalidator.LengthAtLeast(1)}}
}

// vcsRepoObject is the service's vcs-repo as the attribute (null without one).
func vcsRepoObject(v *tfe.VCSRepo) types.Object {
	if v == nil || v.Identifier == "" {
		return types.ObjectNull(vcsRepoAttrTypes)
	}
	return types.ObjectValueMust(vcsRepoAttrTypes, map[string]attr.Value{
		"identifier": types.StringValue(v.Identifier), "branch": nullIfEmpty(v.Branch), "ingress_submodules": types.BoolValue(v.IngressSubmodules),
		"oauth_token_id": nullIfEmpty(v.OAuthTokenID), "github_app_installation_id": nullIfEmpty(v.GHAInstallationID),
	})
}

// validateVCSRepo: exactly one of the two connections, skipping unknowns.
func validateVCSRepo(o types.Object, diags *diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return
	}
	a := o.Attributes()
	oauth, _ := a["oauth_token_id"].(types.String)
	app, _ := a["github_app_installation_id"].(types.String)
	if oauth.IsUnknown() || app.IsUnknown() || oauth.IsNull() != app.IsNull() {
		return
	}
	diags.AddAttributeError(path.Root("vcs_repo"), "vcs_repo needs one connection",
		"vcs_repo takes exactly one of oauth_token_id (an OAuth token of the organization's VCS connection) and github_app_installation_id (a GitHub App installation); "+
			"it has "+map[bool]string{true: "neither", false: "both"}[oauth.IsNull()]+".")
}

func nullIfEmpty(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// vcsRepoOptions is the attribute as go-tfe sends it; nil when null.
func vcsRepoOptions(o types.Object) *tfe.VCSRepoOptions {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	a := o.Attributes()
	str := func(name string) *string {
		if s, ok := a[name].(types.String); ok && !s.IsNull() && !s.IsUnknown() {
			return tfe.String(s.ValueString())
		}
		return nil
	}
	opts := &tfe.VCSRepoOptions{Identifier: str("identifier"), Branch: str("branch"), OAuthTokenID: str("oauth_token_id"), GHAInstallationID: str("github_app_installation_id")}
	if b, ok := a["ingress_submodules"].(types.Bool); ok && !b.IsUnknown() {
		opts.IngressSubmodules = tfe.Bool(b.ValueBool())
	}
	return opts
}

// vcsContentSwitch: the plan moves a set to or from a repository, which the provider refuses ("" when not).
func vcsContentSwitch(prior, plan *policySetResourceModel) string {
	if prior == nil || plan.VCSRepo.IsUnknown() || prior.VCSRepo.IsNull() == plan.VCSRepo.IsNull() {
		return ""
	}
	from, to := "policy_ids or source", "vcs_repo"
	if plan.VCSRepo.IsNull() {
		from, to = to, from
	}
	return fmt.Sprintf("Policy set %q takes its policies from %s; moving it to %s would, for a while, leave it without them or refused by the service (a set with a repository takes no policies). "+
		"Make a new set with %s beside this one, move the scope to it, then remove this one.", prior.Name.ValueString(), from, to, to)
}
