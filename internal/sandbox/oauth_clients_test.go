package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// oauthClient creates a GitHub OAuth client with a token in w's
// organization, as hashicorp/tfe's tfe_oauth_client does.
func (w *world) oauthClient(t testing.TB) *tfe.OAuthClient {
	t.Helper()
	oc, err := w.owner.OAuthClients.Create(context.Background(), w.org, tfe.OAuthClientCreateOptions{
		Name:            tfe.String("github"),
		APIURL:          tfe.String("https://api.github.com"),
		HTTPURL:         tfe.String("https://github.com"),
		OAuthToken:      tfe.String("ghp_not-a-real-token"),
		ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub),
	})
	if err != nil {
		t.Fatalf("create OAuth client: %v", err)
	}
	if len(oc.OAuthTokens) != 1 {
		t.Fatalf("OAuth client %s has %d tokens, want 1", oc.ID, len(oc.OAuthTokens))
	}
	return oc
}

func TestOAuthClients_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	oc := w.oauthClient(t)
	if !strings.HasPrefix(oc.ID, "oc-") || oc.Name == nil || *oc.Name != "github" || oc.ServiceProvider != tfe.ServiceProviderGithub ||
		oc.ServiceProviderName != "GitHub" || oc.APIURL != "https://api.github.com" || oc.HTTPURL != "https://github.com" ||
		oc.OrganizationScoped == nil || !*oc.OrganizationScoped || oc.Organization == nil || oc.Organization.Name != w.org ||
		oc.CreatedAt.IsZero() || oc.CallbackURL == "" || oc.ConnectPath == "" {
		t.Errorf("created %+v", oc)
	}
	if oc.Secret != "" {
		t.Errorf("the answer carries a secret: %q", oc.Secret)
	}
	tokenID := oc.OAuthTokens[0].ID
	if !strings.HasPrefix(tokenID, "ot-") {
		t.Errorf("token id %q", tokenID)
	}

	read, err := w.owner.OAuthClients.ReadWithOptions(ctx, oc.ID, &tfe.OAuthClientReadOptions{Include: []tfe.OAuthClientIncludeOpt{tfe.OauthClientOauthTokens}})
	if err != nil || read.ID != oc.ID || len(read.OAuthTokens) != 1 || read.OAuthTokens[0].ID != tokenID {
		t.Fatalf("read: %+v, %v", read, err)
	}
	if read.OAuthTokens[0].CreatedAt.IsZero() {
		t.Errorf("include=oauth_tokens did not include the token: %+v", read.OAuthTokens[0])
	}
	ot, err := w.owner.OAuthTokens.Read(ctx, tokenID)
	if err != nil || ot.ID != tokenID || ot.OAuthClient == nil || ot.OAuthClient.ID != oc.ID || ot.UID == "" || ot.HasSSHKey {
		t.Fatalf("read token: %+v, %v", ot, err)
	}
	l, err := w.owner.OAuthClients.List(ctx, w.org, nil)
	if err != nil || len(l.Items) != 1 || l.Items[0].ID != oc.ID || l.TotalCount != 1 {
		t.Errorf("list: %+v, %v", l, err)
	}
	tl, err := w.owner.OAuthTokens.List(ctx, w.org, nil)
	if err != nil || len(tl.Items) != 1 || tl.Items[0].ID != tokenID {
		t.Errorf("list tokens: %+v, %v", tl, err)
	}

	// Bitbucket Server clients may come without a token: none is made.
	bb, err := w.owner.OAuthClients.Create(ctx, w.org, tfe.OAuthClientCreateOptions{
		APIURL: tfe.String("https://bitbucket.example"), HTTPURL: tfe.String("https://bitbucket.example"),
		ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderBitbucketServer), OrganizationScoped: tfe.Bool(false),
	})
	if err != nil || len(bb.OAuthTokens) != 0 || bb.Name != nil || bb.OrganizationScoped == nil || *bb.OrganizationScoped {
		t.Errorf("bitbucket server client: %+v, %v", bb, err)
	}

	if err := w.owner.OAuthClients.Delete(ctx, oc.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.OAuthClients.Read(ctx, oc.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read deleted client: %v", err)
	}
	if _, err := w.owner.OAuthTokens.Read(ctx, tokenID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a deleted client's token survived: %v", err)
	}
	if err := w.owner.OAuthClients.Delete(ctx, oc.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second delete: %v", err)
	}
}

func TestOAuthClients_validation(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	good := func() map[string]any {
		return map[string]any{"api-url": "https://api.github.com", "http-url": "https://github.com", "service-provider": "github", "oauth-token-string": "x"}
	}
	for name, tc := range map[string]struct {
		change func(map[string]any)
		rels   string
		want   string
	}{
		"missing api-url":         {func(a map[string]any) { delete(a, "api-url") }, "", "api-url"},
		"missing http-url":        {func(a map[string]any) { delete(a, "http-url") }, "", "http-url"},
		"unknown provider":        {func(a map[string]any) { a["service-provider"] = "svn" }, "", "service-provider"},
		"missing token":           {func(a map[string]any) { delete(a, "oauth-token-string") }, "", "oauth-token-string"},
		"private key for github":  {func(a map[string]any) { a["private-key"] = "k" }, "", "private-key"},
		"name not a string":       {func(a map[string]any) { a["name"] = 7 }, "", "name"},
		"another org's pool":      {func(map[string]any) {}, `"agent-pool":{"data":{"type":"agent-pools","id":"apool-nope"}}`, "agent-pool"},
		"scoped not a boolean":    {func(a map[string]any) { a["organization-scoped"] = "yes" }, "", "organization-scoped"},
		"wrong relationship type": {func(map[string]any) {}, `"agent-pool":{"data":{"type":"teams","id":"x"}}`, "agent-pool"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := good()
			tc.change(a)
			r := rawJSONAPI(t, w, "POST", "/api/v2/organizations/acme/oauth-clients", "oauth-clients", a, tc.rels)
			if r.Status != 422 || len(r.Doc.Errors) != 1 || !strings.Contains(r.Doc.Errors[0].Detail, tc.want) {
				t.Errorf("status %d, errors %+v; want 422 naming %s", r.Status, r.Doc.Errors, tc.want)
			}
		})
	}
	t.Cleanup(func() {
		l, err := w.owner.OAuthClients.List(context.Background(), w.org, nil)
		if err != nil || len(l.Items) != 0 {
			t.Errorf("refused creates left clients: %+v, %v", l, err)
		}
	})
}

// TestOAuthClients_authorization: owners and manage-vcs-settings; a plain
// member and another organization's owner get 404.
func TestOAuthClients_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	oc := w.oauthClient(t)
	vcs := w.team(t, "vcs", &tfe.OrganizationAccessOptions{ManageVCSSettings: tfe.Bool(true)})
	vcsMember := w.member(t, "vcs@acme.test", vcs)
	plain := w.member(t, "plain@acme.test")
	other := w.organization(t, "other")

	if _, err := vcsMember.OAuthClients.Read(ctx, oc.ID); err != nil {
		t.Errorf("manage-vcs-settings member: %v", err)
	}
	if _, err := vcsMember.OAuthTokens.Read(ctx, oc.OAuthTokens[0].ID); err != nil {
		t.Errorf("manage-vcs-settings member reading the token: %v", err)
	}
	for name, c := range map[string]*tfe.Client{"plain member": plain, "other organization": other} {
		if _, err := c.OAuthClients.Read(ctx, oc.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s read the client: %v", name, err)
		}
		if _, err := c.OAuthTokens.Read(ctx, oc.OAuthTokens[0].ID); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s read the token: %v", name, err)
		}
		if err := c.OAuthClients.Delete(ctx, oc.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s deleted the client: %v", name, err)
		}
	}
	if _, err := plain.OAuthClients.Create(ctx, w.org, tfe.OAuthClientCreateOptions{
		APIURL: tfe.String("https://api.github.com"), HTTPURL: tfe.String("https://github.com"),
		OAuthToken: tfe.String("x"), ServiceProvider: tfe.ServiceProvider(tfe.ServiceProviderGithub),
	}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member created a client: %v", err)
	}
	// Deleting the organization deletes its clients and tokens.
	if err := w.owner.Organizations.Delete(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	if _, err := w.admin.OAuthTokens.Read(ctx, oc.OAuthTokens[0].ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("token after organization delete: %v", err)
	}
}

// rawJSONAPI sends a JSON:API document of type typ with attributes and,
// when rels is not empty, the relationships object's members given as raw
// JSON, using the admin token.
func rawJSONAPI(t *testing.T, w *world, method, path, typ string, attributes map[string]any, rels string) *rawResponse {
	t.Helper()
	a, err := json.Marshal(attributes)
	if err != nil {
		t.Fatal(err)
	}
	return policyRaw(t, w, method, path, `{"data":{"type":"`+typ+`","attributes":`+string(a)+`,"relationships":{`+rels+`}}}`)
}
