package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	svchost "github.com/hashicorp/terraform-svchost"
)

// Finding the API token, and checking it once when the provider is
// configured, so that a wrong token fails the plan before anything is
// written, naming where the token came from.

// tokenSource says where the provider found its token, and how to fix a
// wrong one there.
type tokenSource struct {
	// name is the source, as the error names it.
	name string
	// fix says how to put a valid token there.
	fix string
	// attribute is set when the token is the provider's `token`.
	attribute bool
}

// findToken looks for the token in the order the provider documents: the
// `token` attribute, TFE_TOKEN, TF_TOKEN_<host>, a credentials block of the
// Terraform CLI configuration, the credentials file of `terraform login`
// (credentials.go). token is "" when there is none; looked then lists each
// place and what it held, for the error.
func findToken(attr, hostname string) (token string, src tokenSource, looked []string, err error) {
	login := fmt.Sprintf("run `terraform login %s`", hostname)
	if attr != "" {
		return attr, tokenSource{
			name:      "the provider's token attribute",
			fix:       fmt.Sprintf("Set the token attribute to a valid API token, or better remove it and use TFE_TOKEN or `terraform login %s`.", hostname),
			attribute: true,
		}, nil, nil
	}
	looked = append(looked, "the provider's token attribute: not set")
	if tok := os.Getenv("TFE_TOKEN"); tok != "" {
		return tok, tokenSource{
			name: "the TFE_TOKEN environment variable",
			fix:  "Export TFE_TOKEN with a valid API token, or unset it to use the credentials of `terraform login`.",
		}, nil, nil
	}
	looked = append(looked, "the TFE_TOKEN environment variable: not set")
	host, err := svchost.ForComparison(hostname)
	if err != nil {
		// No valid hostname, so no Terraform credentials can name it.
		return "", tokenSource{}, append(looked, fmt.Sprintf("Terraform CLI credentials: none can name %q (%s)", hostname, err)), nil
	}
	if tok, name := tokenFromEnvVars(os.Environ(), host); tok != "" {
		return tok, tokenSource{
			name: "the " + name + " environment variable",
			fix:  "Export " + name + " with a valid API token, or unset it and " + login + ".",
		}, nil, nil
	}
	if name, ok := exportableTokenEnvName(hostname); ok {
		looked = append(looked, "the "+name+" environment variable: not set")
	} else {
		looked = append(looked, "a TF_TOKEN_ environment variable for "+hostname+": none (a shell cannot export one for a host with a port)")
	}
	places, err := locateCLIConfig()
	if err != nil {
		// No home directory: no CLI configuration to read.
		return "", tokenSource{}, append(looked, "the Terraform CLI configuration: no home directory ("+err.Error()+")"), nil //nolint:nilerr // a missing token, not a failure
	}
	creds, err := credentialsFromCLIConfig(places, host)
	if err != nil {
		return "", tokenSource{}, nil, err
	}
	looked = append(looked, creds.looked...)
	switch {
	case creds.token == "":
		return "", tokenSource{}, looked, nil
	case creds.fromLogin:
		return creds.token, tokenSource{
			name: "the credentials file " + creds.file + " (written by `terraform login`)",
			fix:  "Replace the token: " + login + ", or set TFE_TOKEN, which takes precedence.",
		}, nil, nil
	default:
		return creds.token, tokenSource{
			name: fmt.Sprintf("the credentials %q block of the Terraform CLI configuration file %s", hostname, creds.file),
			fix:  "Put a valid API token in that block, or set TFE_TOKEN, which takes precedence.",
		}, nil, nil
	}
}

// missingTokenDetail is the error of a provider that found no token: every
// place it looked, in order, and what it found there.
func missingTokenDetail(hostname string, looked []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "No API token for %s was found. The provider looked, in this order, at:\n", hostname)
	for _, l := range looked {
		b.WriteString("  - " + l + "\n")
	}
	envName, ok := exportableTokenEnvName(hostname)
	if !ok {
		// No TF_TOKEN_ suggestion: its name would hold the port's colon.
		fmt.Fprintf(&b, "\nSet the TFE_TOKEN environment variable (or the provider's token attribute), or add a credentials %q { token = \"...\" } block to the Terraform CLI configuration. "+
			"A TF_TOKEN_ variable cannot name %s: a shell variable's name cannot hold the port.", hostname, hostname)
		return b.String()
	}
	fmt.Fprintf(&b, "\nSet the provider's token attribute or the TFE_TOKEN environment variable, export %s, add a credentials %q { token = \"...\" } block to the Terraform CLI configuration, or run `terraform login %s`.",
		envName, hostname, hostname)
	return b.String()
}

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
func checkToken(ctx context.Context, client *tfe.Client, src tokenSource, address string, diags *diag.Diagnostics) *tfe.User {
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
		address, src.name, src.fix)
	if src.attribute {
		diags.AddAttributeError(path.Root("token"), summary, detail)
		return nil
	}
	diags.AddError(summary, detail)
	return nil
}
