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

// checkToken fails the plan on a token the service refuses (401) before
// any write, with the cheapest read that needs no organization, and returns
// the token's user if named (DESIGN.md "A provider without a token").
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
