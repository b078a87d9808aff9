package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestPruneVerdictOf(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tok := func(desc string, createdAgo, usedAgo time.Duration) *tfe.AgentToken {
		t := &tfe.AgentToken{ID: "at-x", Description: desc, CreatedAt: now.Add(-createdAgo)}
		if usedAgo >= 0 {
			t.LastUsedAt = now.Add(-usedAgo)
		}
		return t
	}
	const never = -1
	ci := regexp.MustCompile(`^ci-`)
	for name, tc := range map[string]struct {
		token *tfe.AgentToken
		match *regexp.Regexp
		want  pruneVerdict
	}{
		"never used, created long ago":       {tok("a", 3*time.Hour, never), nil, pruneRevoke},
		"never used, created within":         {tok("a", 30*time.Minute, never), nil, pruneKeepUsed},
		"used within, created long ago":      {tok("a", 3*time.Hour, 59*time.Minute), nil, pruneKeepUsed},
		"used long ago":                      {tok("a", 3*time.Hour, 2*time.Hour), nil, pruneRevoke},
		"used exactly unused_for ago: kept":  {tok("a", 3*time.Hour, time.Hour), nil, pruneKeepUsed},
		"used a moment over unused_for ago":  {tok("a", 3*time.Hour, time.Hour+time.Millisecond), nil, pruneRevoke},
		"unused, description does not match": {tok("manual", 3*time.Hour, never), ci, pruneKeepFiltered},
		"unused, description matches":        {tok("ci-7", 3*time.Hour, never), ci, pruneRevoke},
		"used, description matches":          {tok("ci-7", 3*time.Hour, time.Minute), ci, pruneKeepUsed},
	} {
		t.Run(name, func(t *testing.T) {
			if got := pruneVerdictOf(tc.token, now, time.Hour, tc.match); got != tc.want {
				t.Errorf("verdict %d, want %d", got, tc.want)
			}
		})
	}
}

// TestDescribeToken: each token's line gives its own idle time at the
// service's time, since its last use or, never used, since its creation;
// not unused_for.
func TestDescribeToken(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	created := now.Add(-3*time.Hour - 20*time.Minute)
	for name, tc := range map[string]struct {
		token *tfe.AgentToken
		want  string
	}{
		"never used": {&tfe.AgentToken{ID: "at-a", Description: "old agent", CreatedAt: created},
			`at-a "old agent": created 2026-11-25T08:40:00Z, never used, idle 3h20m0s since its creation`},
		"used": {&tfe.AgentToken{ID: "at-b", Description: "ci", CreatedAt: created, LastUsedAt: now.Add(-90 * time.Second)},
			`at-b "ci": created 2026-11-25T08:40:00Z, last used 2026-11-25T11:58:30Z, idle 1m30s since that use`},
		"used in the service's future": {&tfe.AgentToken{ID: "at-c", Description: "", CreatedAt: created, LastUsedAt: now.Add(time.Second)},
			`at-c "": created 2026-11-25T08:40:00Z, last used 2026-11-25T12:00:01Z, idle 0s since that use`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := describeToken(tc.token, now); got != tc.want {
				t.Errorf("describeToken =\n  %s\nwant\n  %s", got, tc.want)
			}
		})
	}
}

// writePruneConfig writes a configuration with one tfgov_agent_token_prune
// action named test.
func writePruneConfig(t *testing.T, poolID string, lines ...string) string {
	t.Helper()
	dir := t.TempDir()
	config := fmt.Sprintf(`%s
action "tfgov_agent_token_prune" "test" {
  config {
    agent_pool_id = %q
    %s
  }
}
`, budgetProviderBlock, poolID, strings.Join(lines, "\n    "))
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

const invokePrune = "-invoke=action.tfgov_agent_token_prune.test"

// agentPoll authenticates an agent's poll with secret on the sandbox: the
// token's last-used-at becomes now.
func agentPoll(t *testing.T, secret string) {
	t.Helper()
	agentPollAt(t, os.Getenv("TFE_ADDRESS"), secret)
}

func agentPollAt(t *testing.T, address, secret string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, address+"/api/agent/jobs", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("agent poll: %d, want 204", resp.StatusCode)
	}
}

// poolTokenIDs lists the IDs of the pool's tokens through go-tfe.
func poolTokenIDs(t *testing.T, poolID string) map[string]bool {
	t.Helper()
	l, err := testAccClient(t).AgentTokens.List(context.Background(), poolID)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, tk := range l.Items {
		ids[tk.ID] = true
	}
	return ids
}

// TestAccAgentTokenPruneAction_doneWhen is the "done when": a pool
// with five tokens, two used within the hour (agents polled with them),
// three not (one used two hours ago, two never used and made two hours
// ago), and unused_for = "1h": a dry run shows the three and revokes
// nothing (one list); with dry_run = false exactly those three are revoked
// (one list, then a read and a delete each). The tokens' ages need the
// sandbox (BackdateToken).
func TestAccAgentTokenPruneAction_doneWhen(t *testing.T) {
	actionTerraform(t)
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("aging agent tokens needs the sandbox (BackdateToken)")
	}
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	var toks []*tfe.AgentToken
	for i := range 5 {
		tk, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("agent-%d", i))})
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tk)
	}
	agentPoll(t, toks[2].Token) // used, and then two hours pass
	for _, tk := range toks {
		if err := sb.BackdateToken(tk.ID, 2*time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	agentPoll(t, toks[0].Token) // used just now
	agentPoll(t, toks[1].Token)
	unused := []*tfe.AgentToken{toks[2], toks[3], toks[4]}

	listPath := "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens"
	counts := func() (lists, reads, deletes int) {
		for _, tk := range toks {
			reads += sb.RequestsTo("GET", "/api/v2/authentication-tokens/"+tk.ID)
			deletes += sb.RequestsTo("DELETE", "/api/v2/authentication-tokens/"+tk.ID)
		}
		return sb.RequestsTo("GET", listPath), reads, deletes
	}

	// Dry run (the default).
	dir := writePruneConfig(t, pool.ID, `unused_for = "1h"`)
	l0, r0, d0 := counts()
	out, err := runTerraform(t, dir, "apply", invokePrune, "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("terraform apply -invoke (dry run): %v\n%s", err, out)
	}
	l1, r1, d1 := counts()
	t.Logf("dry run: %d list, %d reads, %d deletes\n%s", l1-l0, r1-r0, d1-d0, out)
	fout := flat(out)
	for _, tk := range unused {
		if !strings.Contains(fout, tk.ID+` "`+tk.Description+`"`) || !regexp.MustCompile(regexp.QuoteMeta(tk.ID)+`[^\n]*would be revoked \(dry run\)`).MatchString(out) {
			t.Errorf("the dry run does not list %s as to be revoked", tk.ID)
		}
	}
	for _, tk := range toks[:2] {
		if !regexp.MustCompile(regexp.QuoteMeta(tk.ID) + `[^\n]*kept: used within 1h0m0s`).MatchString(out) {
			t.Errorf("the dry run does not report %s as kept", tk.ID)
		}
	}
	if !strings.Contains(fout, "Dry run: 3 of the 5 tokens of agent pool "+pool.ID+" would be revoked") {
		t.Errorf("no dry-run summary")
	}
	if !regexp.MustCompile(regexp.QuoteMeta(toks[3].ID) + `[^\n]*never used, idle (1h59m5\d|2h0m\d)s since its creation`).MatchString(out) {
		t.Errorf("the never-used token is not reported as never used, idle two hours")
	}
	if got := poolTokenIDs(t, pool.ID); len(got) != 5 {
		t.Errorf("after the dry run the pool has %d tokens, want 5", len(got))
	}
	if l1-l0 != 1 || r1-r0 != 0 || d1-d0 != 0 {
		t.Errorf("the dry run made %d lists, %d reads, %d deletes; want 1, 0, 0", l1-l0, r1-r0, d1-d0)
	}

	// For real.
	l1, r1, d1 = counts() // without the check's list above
	dir = writePruneConfig(t, pool.ID, `unused_for = "1h"`, `dry_run = false`)
	out, err = runTerraform(t, dir, "apply", invokePrune, "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s", err, out)
	}
	l2, r2, d2 := counts()
	t.Logf("revoke: %d list, %d reads, %d deletes\n%s", l2-l1, r2-r1, d2-d1, out)
	got := poolTokenIDs(t, pool.ID)
	if len(got) != 2 || !got[toks[0].ID] || !got[toks[1].ID] {
		t.Errorf("after the prune the pool holds %v, want exactly %s and %s", got, toks[0].ID, toks[1].ID)
	}
	if !strings.Contains(flat(out), "Revoked 3 of the 5 tokens of agent pool "+pool.ID) {
		t.Errorf("no summary of the revocation")
	}
	if l2-l1 != 1 || r2-r1 != 3 || d2-d1 != 3 {
		t.Errorf("the prune made %d lists, %d reads, %d deletes; want 1, 3, 3", l2-l1, r2-r1, d2-d1)
	}
}

// TestAccAgentTokenPruneAction_filter: description_matches narrows what
// is revoked; a token made just now is never revoked. Runs against a live
// organization too: there a token's age is real, so only the "kept"
// side is checked without the sandbox.
func TestAccAgentTokenPruneAction_filter(t *testing.T) {
	actionTerraform(t)
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	mk := func(desc string) *tfe.AgentToken {
		tk, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(desc)})
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	ciOld, manualOld, ciNew := mk("ci-old"), mk("manual"), mk("ci-new")
	sb := testAccSandbox()
	if sb != nil {
		for _, tk := range []*tfe.AgentToken{ciOld, manualOld} {
			if err := sb.BackdateToken(tk.ID, 48*time.Hour); err != nil {
				t.Fatal(err)
			}
		}
	}
	dir := writePruneConfig(t, pool.ID, `unused_for = "24h"`, `description_matches = "^ci-"`, `dry_run = false`)
	out, err := runTerraform(t, dir, "apply", invokePrune, "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s", err, out)
	}
	got := poolTokenIDs(t, pool.ID)
	if !got[manualOld.ID] || !got[ciNew.ID] {
		t.Errorf("the prune revoked a token it must keep: the pool holds %v\n%s", got, out)
	}
	if sb != nil && got[ciOld.ID] {
		t.Errorf("the prune kept %s (ci-old, unused for 48h)\n%s", ciOld.ID, out)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(manualOld.ID) + `[^\n]*kept: its description does not match`).MatchString(out) {
		t.Errorf("the prune does not report %s as filtered out:\n%s", manualOld.ID, out)
	}
}

// TestAccAgentTokenPruneAction_invalid: bad input fails at plan, naming
// the attribute.
func TestAccAgentTokenPruneAction_invalid(t *testing.T) {
	cfg := func(lines ...string) string {
		return fmt.Sprintf("action \"tfgov_agent_token_prune\" \"test\" {\n  config {\n    %s\n  }\n}\n", strings.Join(lines, "\n    "))
	}
	for name, tc := range map[string]struct{ config, want string }{
		"no unused_for":    {cfg(`agent_pool_id = "apool-abc"`), `The argument "unused_for" is required`},
		"bad unused_for":   {cfg(`agent_pool_id = "apool-abc"`, `unused_for = "30d"`), `Invalid duration.*unused_for must be a positive duration such as "720h".*write "720h" for "30d"`},
		"zero unused_for":  {cfg(`agent_pool_id = "apool-abc"`, `unused_for = "0s"`), `Invalid duration.*unused_for must be a positive duration`},
		"bad pool":         {cfg(`agent_pool_id = "ws-abc"`, `unused_for = "1h"`), `agent_pool_id.*apool-<id>`},
		"bad regex":        {cfg(`agent_pool_id = "apool-abc"`, `unused_for = "1h"`, `description_matches = "ci-("`), `Invalid regular expression.*description_matches must be a regular expression`},
		"no agent_pool_id": {cfg(`unused_for = "1h"`), `The argument "agent_pool_id" is required`},
	} {
		t.Run(name, func(t *testing.T) {
			accParallelTest(t, resource.TestCase{
				TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
				Steps: []resource.TestStep{{
					Config:      tc.config,
					PlanOnly:    true,
					ExpectError: wrappedRE(tc.want),
				}},
			})
		})
	}
}

// budgetAgentTokenPrune is TestAccRequestBudgets's row of
// action.tfgov_agent_token_prune: a pool with N tokens unused for two
// hours and one used just now, unused_for = "1h". The invocation
// (terraform apply -invoke) costs the start-up of an apply (4: two walks,
// each go-tfe's ping and the token check); a dry run then lists the pool,
// p pages of 100; a prune lists it and, for each of the N tokens, reads it
// again and deletes it. Each case runs on a sandbox of its own.
func budgetAgentTokenPrune(t *testing.T) {
	if ok, v := terraformHasActions(t); !ok {
		t.Skipf("Terraform CLI version %s is below minimum version 1.14.0: skipping test (actions)", v)
	}
	for _, n := range []int{1, 2, 150} {
		t.Run(fmt.Sprintf("agent_token_prune/N=%d", n), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			sb, client := ownSandbox(t, sandbox.Options{}, "budget-"+randomSuffix())
			pool, err := client.AgentPools.Create(ctx, sb.organization, tfe.AgentPoolCreateOptions{Name: tfe.String("budget")})
			if err != nil {
				t.Fatal(err)
			}
			for i := range n + 1 {
				tk, err := client.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(fmt.Sprintf("token %d", i))})
				if err != nil {
					t.Fatal(err)
				}
				if i == n {
					agentPollAt(t, sb.address, tk.Token) // the one in use
					continue
				}
				if err := sb.srv.BackdateToken(tk.ID, 2*time.Hour); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"TF_CLI_CONFIG_FILE=" + testCLIConfig(t), "TFE_ADDRESS=" + sb.address, "TFE_TOKEN=" + sb.token, "TFE_ORGANIZATION=" + sb.organization}
			p := (n + 1 + bulkPageSize - 1) / bulkPageSize
			for _, c := range []struct {
				name   string
				line   string
				budget int
			}{
				{"dry run", "", 4 + p},
				{"prune", "dry_run = false", 4 + p + 2*n},
			} {
				dir := writePruneConfig(t, pool.ID, `unused_for = "1h"`, c.line)
				before := sb.srv.Stats()
				out, code := runTerraformEnv(t, dir, env, "apply", invokePrune, "-auto-approve", "-no-color")
				if code != 0 {
					t.Fatalf("terraform apply -invoke (%s): exit %d\n%s", c.name, code, out)
				}
				got, total := statsSince(sb.srv.Stats(), before)
				t.Logf("%s: %d requests (budget %d) %v", c.name, total, c.budget, got)
				if total > c.budget {
					t.Errorf("%s of a pool of %d tokens made %d requests, over its budget of %d: %v", c.name, n+1, total, c.budget, got)
				}
			}
			if l, err := client.AgentTokens.List(ctx, pool.ID); err != nil || len(l.Items) != 1 {
				t.Errorf("after the prune the pool holds %v (%v), want the one token in use", l, err)
			}
		})
	}
}

// TestAccAgentTokenPruneAction_usedSinceList: a token an agent uses after
// the action listed the pool (here: while the list's answer is on its way,
// through a proxy) is read again before its revocation and kept; the other
// unused token is revoked.
func TestAccAgentTokenPruneAction_usedSinceList(t *testing.T) {
	actionTerraform(t)
	sb := testAccSandbox()
	if sb == nil {
		t.Skip("aging agent tokens needs the sandbox (BackdateToken)")
	}
	ctx := context.Background()
	c := testAccClient(t)
	pool := testAccAgentPool(t)
	var toks []*tfe.AgentToken
	for _, desc := range []string{"revived", "idle"} {
		tk, err := c.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String(desc)})
		if err != nil {
			t.Fatal(err)
		}
		if err := sb.BackdateToken(tk.ID, 2*time.Hour); err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tk)
	}
	target, err := url.Parse(os.Getenv("TFE_ADDRESS"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if r.Request.Method == http.MethodGet && r.Request.URL.Path == "/api/v2/agent-pools/"+pool.ID+"/authentication-tokens" {
			agentPoll(t, toks[0].Token) // after the list was answered
		}
		return nil
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	dir := writePruneConfig(t, pool.ID, `unused_for = "1h"`, `dry_run = false`)
	main := filepath.Join(dir, "main.tf")
	b, err := os.ReadFile(main) // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(main, append(b, []byte(fmt.Sprintf("provider \"tfgov\" {\n  address = %q\n}\n", srv.URL))...), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runTerraform(t, dir, "apply", invokePrune, "-auto-approve", "-no-color")
	if err != nil {
		t.Fatalf("terraform apply -invoke: %v\n%s", err, out)
	}
	got := poolTokenIDs(t, pool.ID)
	if !got[toks[0].ID] || got[toks[1].ID] {
		t.Errorf("the pool holds %v; want %s (used since the list) kept and %s revoked\n%s", got, toks[0].ID, toks[1].ID, out)
	}
	if !regexp.MustCompile(regexp.QuoteMeta(toks[0].ID) + `[^\n]*kept: used since the list`).MatchString(out) {
		t.Errorf("the output does not say %s was kept for its use since the list:\n%s", toks[0].ID, out)
	}
}
