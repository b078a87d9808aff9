package provider

import (
	"context"
	"errors"
	"fmt"
	"sync"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// checkToken fails the plan on a token the service refuses (401) before
// any write, with the cheapest read that needs no organization, and returns
// the token's user if named (DESIGN.md "A provider without a token").
func checkToken(ctx context.Context, client *tfe.Client, src tfeclient.TokenSource, address string, diags *diag.Diagnostics) (*tfe.User, error) {
	u, err := client.Users.ReadCurrent(ctx)
	if !errors.Is(err, tfe.ErrUnauthorized) {
		if err != nil {
			tflog.Debug(ctx, "Token check inconclusive; carrying on", map[string]any{"error": err.Error()})
			if isNotFound(err) {
				return nil, nil // a team or organization token: no user
			}
			return nil, err // unknown: read again where a user matters (tokenUser.get)
		}
		return u, nil
	}
	summary := "Invalid API token"
	detail := fmt.Sprintf("%s refused the API token from %s (401 Unauthorized): the token is wrong, expired or revoked, or belongs to another host. %s",
		address, src.Name, src.Fix)
	if src.Attribute {
		diags.AddAttributeError(path.Root("token"), summary, detail)
		return nil, nil
	}
	diags.AddError(summary, detail)
	return nil, nil
}

// tokenUser is the API token's user as the token check found it. When that check failed (a 429
// after the retries, a 5xx), whether the token names a user is unknown, never "no user": get reads
// it again, so that a proof or a guard that needs the user neither passes nor fails on a guess.
type tokenUser struct {
	mu   sync.Mutex
	user *tfe.User
	err  error // the check's error while the user is unknown
}

// get returns the token's user, nil for a token that names none (a team or organization token),
// or why it is not known.
func (t *tokenUser) get(ctx context.Context, c *tfe.Client) (*tfe.User, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.err != nil {
		u, err := c.Users.ReadCurrent(ctx)
		switch {
		case err == nil:
			t.user, t.err = u, nil
		case isNotFound(err):
			t.err = nil
		default:
			t.err = err
			return nil, fmt.Errorf("reading the API token's user (GET /api/v2/account/details), which tells what the token may see, failed: %w", err)
		}
	}
	if t.user == nil || t.user.ID == "" || t.user.IsServiceAccount {
		return nil, nil
	}
	return t.user, nil
}
