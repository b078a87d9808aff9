package provider

import (
	"context"
	"errors"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Checking the API token once when the provider is configured, so that a
// wrong token fails the plan before anything is written, naming where the
// token came from (found by tfeclient.FindToken).

// checkToken makes one authenticated request to learn whether the service
// accepts the token: GET /api/v2/account/details (go-tfe's
// Users.ReadCurrent), the cheapest read that needs no organization.
//
// Only a 401 fails: it is the service's answer to a token it does not
// know, whatever the token's kind. The real service answers the request for
// user and team tokens; an organization token (and, on the sandbox, a team
// token) gets 404, which still proves the token authenticated, as does
// any answer but 401. Other failures (the service unreachable, 5xx after
// the retries) are left to the first real request, which reports them in
// context. So every plan costs go-tfe's ping and this one request before
// the resources' own. It returns the user the token acts as, when the
// service named one (nil for organization tokens, and team tokens on the
// sandbox): tfgov_workspace_team_access_exclusive's lock-out guard uses it.
func checkToken(ctx context.Context, client *tfe.Client, src tfeclient.TokenSource, address string, diags *diag.Diagnostics) *tfe.User {
	u, err := client.Users.ReadCurrent(ctx)
	if !errors.Is(err, tfe.ErrUnauthorized) {
		if err != nil {
			tflog.Debug(ctx, "Token check inconclusive; carrying on", map[string]any{"error": err.Error()})
			return nil
		}
		return u
	}
	summary := "Invalid API token"
	detail := fmt.Sprintf("%s refused the API token from %s (401 Unauthorized): the token is wrong, expired or revoked, or belongs to another host. %s",
		address, src.Name, src.Fix)
	if src.Attribute {
		diags.AddAttributeError(path.Root("token"), summary, detail)
		return nil
	}
	diags.AddError(summary, detail)
	return nil
}
