package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestOrganizationUpdate: a new organization reports the real service's
// defaults, with null session settings; Update keeps what it sends (read
// back), leaves the rest, and only owners may.
func TestOrganizationUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	org, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil {
		t.Fatal(err)
	}
	// go-tfe decodes a null int as 0: a 20160 here is what made
	// hashicorp/tfe's tfe_organization plan 20160 -> null after every apply.
	if org.SessionTimeout != 0 || org.SessionRemember != 0 || org.CollaboratorAuthPolicy != tfe.AuthPolicyPassword ||
		!org.SpeculativePlanManagementEnabled || org.UserTokensEnabled == nil || !*org.UserTokensEnabled ||
		org.AllowForceDeleteWorkspaces || org.DefaultExecutionMode != "remote" {
		t.Errorf("new organization: %+v", org)
	}

	upd, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{
		Name:                       tfe.String(w.org),
		Email:                      tfe.String("platform@acme.test"),
		SessionTimeout:             tfe.Int(60),
		SessionRemember:            tfe.Int(1440),
		CollaboratorAuthPolicy:     tfe.AuthPolicy(tfe.AuthPolicyTwoFactor),
		CostEstimationEnabled:      tfe.Bool(true),
		AllowForceDeleteWorkspaces: tfe.Bool(true),
		UserTokensEnabled:          tfe.Bool(false),
		StacksEnabled:              tfe.Bool(true),
	})
	if err != nil {
		t.Fatal(err)
	}
	read, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []*tfe.Organization{upd, read} {
		if o.Email != "platform@acme.test" || o.SessionTimeout != 60 || o.SessionRemember != 1440 ||
			o.CollaboratorAuthPolicy != tfe.AuthPolicyTwoFactor || !o.CostEstimationEnabled || !o.AllowForceDeleteWorkspaces ||
			*o.UserTokensEnabled || !o.StacksEnabled || !o.SpeculativePlanManagementEnabled {
			t.Errorf("after update: %+v", o)
		}
	}
	// An update sends only what changes; the rest stays.
	if _, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{AssessmentsEnforced: tfe.Bool(true)}); err != nil {
		t.Fatal(err)
	}
	if o, _ := w.owner.Organizations.Read(ctx, w.org); o.SessionTimeout != 60 || !o.AssessmentsEnforced || o.Email != "platform@acme.test" {
		t.Errorf("a second update changed other settings: %+v", o)
	}

	for name, tc := range map[string]struct {
		opts tfe.OrganizationUpdateOptions
		want string
	}{
		"session too long":    {tfe.OrganizationUpdateOptions{SessionTimeout: tfe.Int(20161)}, "session-timeout must be between 1 and 20160"},
		"session zero":        {tfe.OrganizationUpdateOptions{SessionRemember: tfe.Int(0)}, "session-remember must be between 1 and 20160"},
		"auth policy":         {tfe.OrganizationUpdateOptions{CollaboratorAuthPolicy: tfe.AuthPolicy("sso")}, "collaborator-auth-policy must be one of password, two_factor_mandatory"},
		"rename":              {tfe.OrganizationUpdateOptions{Name: tfe.String("other")}, "does not rename organizations"},
		"email":               {tfe.OrganizationUpdateOptions{Email: tfe.String("nobody")}, "not an email address"},
		"agent without pool":  {tfe.OrganizationUpdateOptions{DefaultExecutionMode: tfe.String("agent")}, "needs a default-agent-pool"},
		"both commit options": {tfe.OrganizationUpdateOptions{AggregatedCommitStatusEnabled: tfe.Bool(true), SendPassingStatusesForUntriggeredSpeculativePlans: tfe.Bool(true)}, "cannot both be true"},
	} {
		if _, err := w.owner.Organizations.Update(ctx, w.org, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
	if o, _ := w.owner.Organizations.Read(ctx, w.org); o.SessionTimeout != 60 || o.AggregatedCommitStatusEnabled {
		t.Errorf("a refused update changed something: %+v", o)
	}

	// Agent execution by default, with a pool of the organization; the
	// pool is named while it exists.
	pool := w.agentPool(t)
	o, err := w.owner.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{DefaultExecutionMode: tfe.String("agent"), DefaultAgentPool: pool})
	if err != nil || o.DefaultExecutionMode != "agent" || o.DefaultAgentPool == nil || o.DefaultAgentPool.ID != pool.ID {
		t.Fatalf("agent default: %+v, %v", o, err)
	}

	// Members who are not owners, and other organizations' owners, get 404.
	dev := w.member(t, "dev@acme.test", w.team(t, "admins", &tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true)}))
	if _, err := dev.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{CostEstimationEnabled: tfe.Bool(false)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("non-owner update: %v", err)
	}
	other := w.organization(t, "other")
	if _, err := other.Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{CostEstimationEnabled: tfe.Bool(false)}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("another organization's owner: %v", err)
	}
	// The organization token acts as an owner.
	if _, err := w.orgClient(t).Organizations.Update(ctx, w.org, tfe.OrganizationUpdateOptions{CostEstimationEnabled: tfe.Bool(false)}); err != nil {
		t.Errorf("organization token: %v", err)
	}
	if _, err := w.owner.Organizations.Update(ctx, "missing", tfe.OrganizationUpdateOptions{}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("missing organization: %v", err)
	}
}

// TestOrganizationDelete: only owners delete; afterwards it is gone and its
// name is free again.
func TestOrganizationDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	dev := w.member(t, "dev@acme.test")
	if err := dev.Organizations.Delete(ctx, w.org); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("member deleted the organization: %v", err)
	}
	if err := w.owner.Organizations.Delete(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	if _, err := w.admin.Organizations.Read(ctx, w.org); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after delete: %v", err)
	}
	if err := w.owner.Organizations.Delete(ctx, w.org); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second delete: %v", err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(w.org), Email: tfe.String("new@acme.test")}); err != nil {
		t.Errorf("the name is not free again: %v", err)
	}
}
