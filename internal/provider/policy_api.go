package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Policy kinds and the enforcement levels each allows, in the API's order.
var (
	policyKindNames = []string{string(tfe.Sentinel), string(tfe.OPA)}
	policyLevels    = map[string][]string{
		string(tfe.Sentinel): {string(tfe.EnforcementHard), string(tfe.EnforcementSoft), string(tfe.EnforcementAdvisory)},
		string(tfe.OPA):      {string(tfe.EnforcementMandatory), string(tfe.EnforcementAdvisory)},
	}
	allPolicyLevels = []string{string(tfe.EnforcementHard), string(tfe.EnforcementSoft), string(tfe.EnforcementMandatory), string(tfe.EnforcementAdvisory)}
)

// maxPolicyCodeSize is the API's limit on policy code (10 MiB); it refuses more with 413.
const maxPolicyCodeSize = 10 << 20

// policyAPI is a policy as the API returns it: go-tfe's tfe.Policy drops
// `relationships.policy-sets` and reads a null description as "".
type policyAPI struct {
	ID               string               `jsonapi:"primary,policies"`
	Name             string               `jsonapi:"attr,name"`
	Kind             tfe.PolicyKind       `jsonapi:"attr,kind"`
	Query            *string              `jsonapi:"attr,query"`
	Description      *string              `jsonapi:"attr,description"`
	EnforcementLevel tfe.EnforcementLevel `jsonapi:"attr,enforcement-level"`
	PolicySetCount   int                  `jsonapi:"attr,policy-set-count"`
	UpdatedAt        time.Time            `jsonapi:"attr,updated-at,iso8601"`
	Organization     *organizationRef     `jsonapi:"relation,organization"`
	PolicySets       []*policySetRef      `jsonapi:"relation,policy-sets"`
}

// organizationRef and policySetRef are the relations' identifiers only: go-tfe's Organization
// and PolicySet are 280 and 400 bytes, and an organization's policy list keeps one of each a policy.
type organizationRef struct {
	Name string `jsonapi:"primary,organizations"`
}

type policySetRef struct {
	ID string `jsonapi:"primary,policy-sets"`
}

type policyListAPI struct {
	*tfe.Pagination
	Items []*policyAPI
}

// policyClient decodes into policyAPI through go-tfe's own request machinery (tfeclient.APIRequest).
type policyClient struct{ c *tfe.Client }

func (p policyClient) do(ctx context.Context, method, path string, body any, out any) error {
	ctx, notes := tfeclient.WithResponseNotes(ctx)
	return notes.Wrap(tfeclient.APIRequest(ctx, p.c, method, path, body, nil, out))
}

func (p policyClient) upload(ctx context.Context, id string, code []byte) error {
	return p.do(ctx, "PUT", "policies/"+url.PathEscape(id)+"/upload", code, nil)
}

func (p policyClient) read(ctx context.Context, id string) (*policyAPI, error) {
	pol := &policyAPI{}
	if err := p.do(ctx, "GET", "policies/"+url.PathEscape(id), nil, pol); err != nil {
		return nil, err
	}
	return pol, nil
}

// create leaves out an unset enforcement level, which go-tfe's Policies.Create requires, so that
// the API's default applies.
func (p policyClient) create(ctx context.Context, org string, opts *tfe.PolicyCreateOptions) (*policyAPI, error) {
	pol := &policyAPI{}
	if err := p.do(ctx, "POST", "organizations/"+url.PathEscape(org)+"/policies", opts, pol); err != nil {
		return nil, err
	}
	return pol, nil
}

func (p policyClient) update(ctx context.Context, id string, opts *tfe.PolicyUpdateOptions) (*policyAPI, error) {
	pol := &policyAPI{}
	if err := p.do(ctx, "PATCH", "policies/"+url.PathEscape(id), opts, pol); err != nil {
		return nil, err
	}
	return pol, nil
}

func (p policyClient) list(ctx context.Context, org, search, kind string) ([]*policyAPI, error) {
	return tfeclient.ListAll(ctx, p.pages(org, search, kind))
}

func (p policyClient) pages(org, search, kind string) func(context.Context, int) ([]*policyAPI, *tfe.Pagination, error) {
	return func(ctx context.Context, n int) ([]*policyAPI, *tfe.Pagination, error) {
		opts := &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: n, PageSize: bulkPageSize}, Search: search, Kind: tfe.PolicyKind(kind)}
		l := &policyListAPI{}
		if err := p.do(ctx, "GET", "organizations/"+url.PathEscape(org)+"/policies", opts, l); err != nil {
			return nil, nil, err
		}
		return l.Items, l.Pagination, nil
	}
}

// findByName picks the exact name from the partial name search.
func (p policyClient) findByName(ctx context.Context, org, name string) (*policyAPI, error) {
	pols, err := p.list(ctx, org, name, "")
	if err != nil {
		return nil, err
	}
	for _, pol := range pols {
		if pol.Name == name {
			return pol, nil
		}
	}
	return nil, noPolicyNamedError{org: org, name: name}
}

// noPolicyNamedError: a list the token could read has no policy of that name (a 404 for isNotFound).
type noPolicyNamedError struct{ org, name string }

func (e noPolicyNamedError) Error() string {
	return fmt.Sprintf("organization %s has no policy named %q", e.org, e.name)
}

func (e noPolicyNamedError) Unwrap() error { return tfe.ErrResourceNotFound }

// policyNotFound explains a 404 from a policy endpoint: missing, or not allowed to see.
func policyNotFound(what string) string {
	return fmt.Sprintf("%s not found, or the token may not manage policies (it needs to be an owner, the organization token, or in a team with the \"Manage policies\" permission).", what)
}

func policyError(what string, err error) string {
	if isNotFound(err) {
		return policyNotFound(what)
	}
	return fmt.Sprintf("%s: %s", what, err)
}

type policyValues struct {
	ID               types.String
	Organization     types.String
	Name             types.String
	Description      types.String
	Kind             types.String
	Query            types.String
	EnforcementLevel types.String
	PolicySetIDs     types.Set
	PolicySetCount   types.Int64
	UpdatedAt        types.String
}

// values converts an API policy; an empty description is null, as is an unset updated-at.
func (pol *policyAPI) values() policyValues {
	v := policyValues{
		ID:               types.StringValue(pol.ID),
		Name:             types.StringValue(pol.Name),
		Description:      types.StringNull(),
		Kind:             types.StringValue(string(pol.Kind)),
		Query:            types.StringPointerValue(pol.Query),
		EnforcementLevel: types.StringValue(string(pol.EnforcementLevel)),
		PolicySetCount:   types.Int64Value(int64(pol.PolicySetCount)),
		UpdatedAt:        types.StringNull(),
	}
	if pol.Organization != nil {
		v.Organization = types.StringValue(pol.Organization.Name)
	} else {
		v.Organization = types.StringNull()
	}
	if pol.Description != nil && *pol.Description != "" {
		v.Description = types.StringValue(*pol.Description)
	}
	if !pol.UpdatedAt.IsZero() {
		v.UpdatedAt = types.StringValue(pol.UpdatedAt.UTC().Format(time.RFC3339))
	}
	ids := make([]attr.Value, 0, len(pol.PolicySets))
	for _, ps := range pol.PolicySets {
		ids = append(ids, types.StringValue(ps.ID))
	}
	v.PolicySetIDs = types.SetValueMust(types.StringType, ids)
	return v
}

func levelAllowed(kind, level string) bool {
	return slices.Contains(policyLevels[kind], level)
}

var defaultPolicyLevels = map[string]string{
	string(tfe.Sentinel): string(tfe.EnforcementHard),
	string(tfe.OPA):      string(tfe.EnforcementAdvisory),
}

// policyLevelDefault plans the kind's default level when none is configured (a schema Default
// cannot depend on another attribute), so that removing it plans the change.
type policyLevelDefault struct{}

func (policyLevelDefault) Description(context.Context) string {
	return "defaults to hard-mandatory for sentinel, advisory for opa"
}

func (d policyLevelDefault) MarkdownDescription(ctx context.Context) string {
	return d.Description(ctx)
}

func (policyLevelDefault) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	var kind types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("kind"), &kind)...)
	switch level, ok := defaultPolicyLevels[kind.ValueString()]; {
	case kind.IsUnknown() || !ok:
		resp.PlanValue = types.StringUnknown()
	default:
		resp.PlanValue = types.StringValue(level)
	}
}

// lostCreate fails when a policy with the name sent exists: it is never adopted, since nothing
// tells it from one someone else made (ownership.go); none means the create made nothing.
func (p policyClient) lostCreate(ctx context.Context, org string, sent *tfe.PolicyCreateOptions, amb *tfeclient.AmbiguousWriteError) (*policyAPI, bool, error) {
	name := *sent.Name
	pol, err := p.findByName(ctx, org, name)
	if isNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return nil, false, &identityTakenError{&conflictError{fmt.Sprintf("Organization %s already has a policy named %q (%s). %s\n\n%s",
		org, name, pol.ID, lostAnswerFound(amb), importAdvice("tfgov_policy", pol.ID, pol.ID))}}
}

// policyByNameError: the list the token read has no such name, or the list failed
// (organizationPoliciesError).
func (d *providerData) policyByNameError(ctx context.Context, org, name string, err error) string {
	var none noPolicyNamedError
	if !errors.As(err, &none) {
		return d.organizationPoliciesError(ctx, org, err)
	}
	return fmt.Sprintf("Organization %s has no policy named %q: its policies, which the API token may list, do not include it.", org, name)
}

// policyByIDError tells a missing policy from a missing "Manage policies" by org's shared policy list
// (org "" for none).
func (d *providerData) policyByIDError(ctx context.Context, org, id string, err error) string {
	if !isNotFound(err) || org == "" {
		return policyError("Policy "+id, err)
	}
	pols, lerr := d.organizationPolicies(ctx, org)
	switch {
	case lerr != nil:
		return policyError("Policy "+id, err)
	case pols.parentMissing:
		return fmt.Sprintf("Policy %s was not found. ", id) + d.organizationPoliciesError(ctx, org, tfe.ErrResourceNotFound)
	}
	return fmt.Sprintf("Policy %s was not found: organization %s, whose policies the API token may list, has none with that ID, "+
		"and no other organization whose policies the token may manage has it.", id, org)
}

// organizationPoliciesError tells a missing organization from a missing "Manage policies" by one read
// of the organization, which any member may make.
func (d *providerData) organizationPoliciesError(ctx context.Context, org string, err error) string {
	if !isNotFound(err) {
		return fmt.Sprintf("Organization %s: %s", org, err)
	}
	seen, rerr := d.organizationSeen(ctx, org)
	switch {
	case rerr != nil:
		return policyNotFound("Organization "+org) + fmt.Sprintf(" Reading the organization to tell which failed: %s.", rerr)
	case seen.missing:
		return fmt.Sprintf("Organization %s was not found, or the API token belongs to no team of it.", org)
	}
	return fmt.Sprintf("Organization %s exists, but the API token may not manage its policies: it needs %s, or to be an owner, or the organization token.", org, permManagePolicies)
}

// policyCannotSee explains policy what of org, whose organization's policy list answered 404.
func (d *providerData) policyCannotSee(ctx context.Context, check goneCheck, org, what string) string {
	seen, err := d.organizationSeen(ctx, org)
	return cannotSee(check, what, "organization "+org, "policies", permManagePolicies+", or to be an owner, or the organization token", seen, err)
}
