package sandbox_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// abuseWorld is a sandbox with two organizations: acme, whose owner sends
// the abusive requests, and other, which holds one object of every kind
// whose IDs acme's owner tries.
type abuseWorld struct {
	*world
	other      *world
	otherMod   tfe.RegistryModuleID
	acmeMod    tfe.RegistryModuleID
	acmeWS     *tfe.Workspace
	otherIDs   []string // every object of other, by ID
	otherReads []string // paths that read other's objects
}

func newAbuseWorld(t *testing.T) *abuseWorld {
	t.Helper()
	ctx := context.Background()
	w := &abuseWorld{world: newWorld(t)}
	o := &world{inst: w.inst, admin: w.admin, org: "other"}
	o.owner = w.organization(t, "other")
	w.other = o

	w.acmeMod = w.module(t, "net", "aws", "1.0.0")
	w.acmeWS = taWorkspace(t, w.world, "acme-ws")
	w.otherMod = o.module(t, "net", "aws", "1.0.0")
	ws := taWorkspace(t, o, "other-ws")
	tm := o.team(t, "other-team", nil)
	ta := taGrant(t, o, tm, ws, tfe.AccessRead)
	ap := o.agentPool(t)
	at, err := o.owner.AgentTokens.Create(ctx, ap.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("other")})
	if err != nil {
		t.Fatal(err)
	}
	pol, err := o.owner.Policies.Create(ctx, o.org, sentinelPolicy("other-policy", tfe.EnforcementAdvisory))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := o.owner.PolicySets.Create(ctx, o.org, tfe.PolicySetCreateOptions{Name: tfe.String("other-set"), Kind: tfe.Sentinel})
	if err != nil {
		t.Fatal(err)
	}
	v, err := o.owner.TestVariables.Create(ctx, w.otherMod, tfe.VariableCreateOptions{Key: tfe.String("K"), Value: tfe.String("v"), Category: tfe.Category(tfe.CategoryEnv)})
	if err != nil {
		t.Fatal(err)
	}
	cv, err := o.owner.ConfigurationVersions.CreateForRegistryModule(ctx, w.otherMod)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := o.owner.OrganizationMemberships.List(ctx, o.org, nil)
	if err != nil || len(ms.Items) == 0 {
		t.Fatalf("memberships of other: %v", err)
	}
	w.otherIDs = []string{ws.ID, tm.ID, ta.ID, ap.ID, at.ID, pol.ID, ps.ID, v.ID, cv.ID, ms.Items[0].ID, ms.Items[0].User.ID}
	w.otherReads = []string{
		"/api/v2/organizations/other", "/api/v2/workspaces/" + ws.ID, "/api/v2/teams/" + tm.ID, "/api/v2/team-workspaces/" + ta.ID,
		"/api/v2/agent-pools/" + ap.ID, "/api/v2/authentication-tokens/" + at.ID, "/api/v2/policies/" + pol.ID,
		"/api/v2/policy-sets/" + ps.ID, "/api/v2/configuration-versions/" + cv.ID, "/api/v2/organization-memberships/" + ms.Items[0].ID,
		"/api/v2/organizations/other/registry-modules/private/other/net/aws",
		"/api/v2/organizations/other/tests/registry-modules/private/other/net/aws/vars/" + v.ID,
		"/api/v2/organizations/other/policies", "/api/v2/organizations/other/teams",
	}
	return w
}

// snapshot reads every object of other as its owner.
func (w *abuseWorld) snapshot(t *testing.T) map[string]string {
	t.Helper()
	tok := w.otherToken(t)
	out := map[string]string{}
	for _, p := range w.otherReads {
		got := call(t, "GET", w.inst.URL+p, tok, "")
		if got.err != nil || got.status != http.StatusOK {
			t.Fatalf("other's owner reading %s: %d %v %s", p, got.status, got.err, got.body)
		}
		out[p] = string(got.body)
	}
	return out
}

// otherToken is a new token of other's owner (the world keeps clients,
// not secrets).
func (w *abuseWorld) otherToken(t *testing.T) string {
	t.Helper()
	ms, err := w.admin.OrganizationMemberships.List(context.Background(), "other", nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := w.admin.UserTokens.Create(context.Background(), ms.Items[0].User.ID, tfe.UserTokenCreateOptions{Description: "abuse check"})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Token
}

// acmeToken is a token of acme's owner.
func (w *abuseWorld) acmeToken(t *testing.T) string {
	t.Helper()
	ms, err := w.admin.OrganizationMemberships.List(context.Background(), "acme", nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := w.admin.UserTokens.Create(context.Background(), ms.Items[0].User.ID, tfe.UserTokenCreateOptions{Description: "abuse"})
	if err != nil {
		t.Fatal(err)
	}
	return tok.Token
}

// fill replaces the pattern's {wildcards}: vars gives a value for each name
// and id for {id}.
func fill(pattern string, vars map[string]string, id string) (method, path string) {
	method, path, _ = strings.Cut(pattern, " ")
	path = strings.TrimSuffix(path, "{$}")
	for k, v := range vars {
		path = strings.ReplaceAll(path, "{"+k+"}", v)
	}
	return method, strings.ReplaceAll(path, "{id}", id)
}

// checkError asserts a 4xx JSON:API error document with a matching status
// and no data.
func checkError(t *testing.T, what string, got rawCall) {
	t.Helper()
	if got.err != nil {
		t.Errorf("%s: no answer: %v", what, got.err)
		return
	}
	if got.status < 400 || got.status >= 500 {
		t.Errorf("%s: status %d, want a 4xx (%s)", what, got.status, got.body)
		return
	}
	var doc struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Status string `json:"status"`
			Title  string `json:"title"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(got.body, &doc); err != nil || len(doc.Errors) == 0 || doc.Errors[0].Status != fmt.Sprint(got.status) || doc.Data != nil {
		t.Errorf("%s: %d with %q, want a JSON:API error document", what, got.status, got.body)
	}
	if ct := got.header.Get("Content-Type"); ct != "application/vnd.api+json" {
		t.Errorf("%s: Content-Type %q", what, ct)
	}
}

// TestAbuse_everyRoute sends every route of the API bad input: other
// organizations' IDs and names, IDs with path characters, malformed or
// mistyped bodies, bodies over the limit, wrong content types, no token and
// a wrong one. Every answer is a 4xx JSON:API error, and other's objects
// are unchanged.
func TestAbuse_everyRoute(t *testing.T) {
	t.Parallel()
	w := newAbuseWorld(t)
	acme := w.acmeToken(t)
	before := w.snapshot(t)
	patterns := w.inst.Server.RoutePatterns()
	if len(patterns) < 50 {
		t.Fatalf("only %d routes", len(patterns))
	}

	foreign := map[string]string{"org": "other", "ns": "other", "name": "net", "provider": "aws", "version": "1.0.0"}
	own := map[string]string{"org": "acme", "ns": "acme", "name": "net", "provider": "aws", "version": "1.0.0"}
	pathChars := []string{"..", "%2E%2E", "a%2Fb", "a%2F..%2F..%2Fb", ".", "%00", "x%252F", "%ZZ"}
	bodies := []struct{ name, ct, body string }{
		{"no body", "", ""},
		{"malformed JSON", "application/vnd.api+json", `{"data":`},
		{"unknown type", "application/vnd.api+json", `{"data":{"type":"nope","attributes":{"name":"x"}}}`},
		{"data array", "application/vnd.api+json", `{"data":[{"type":"nope","id":"x"}]}`},
		{"null data", "application/vnd.api+json", `{"data":null}`},
		{"wrong attribute types", "application/vnd.api+json", `{"data":{"type":"policies","attributes":{"name":7,"kind":[],"description":{}}}}`},
		{"text/plain", "text/plain", `hello`},
		{"form", "application/x-www-form-urlencoded", `data=1`},
	}
	huge := `{"data":{"type":"policies","attributes":{"name":"` + strings.Repeat("x", 1<<20) + `"}}}`

	send := func(method, path, token, ct, body string) rawCall {
		req, err := http.NewRequestWithContext(context.Background(), method, w.inst.URL+path, strings.NewReader(body))
		if err != nil {
			// A path that net/url refuses (%ZZ) cannot be sent at all.
			return rawCall{status: -1}
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		resp, err := noRedirects(http.DefaultTransport).Do(req)
		if err != nil {
			return rawCall{err: err}
		}
		defer resp.Body.Close()
		var sb strings.Builder
		_, err = bufio.NewReader(resp.Body).WriteTo(&sb)
		return rawCall{status: resp.StatusCode, header: resp.Header, body: []byte(sb.String()), err: err}
	}
	// Routes that read no body ignore a well-formed one, as the real
	// service does; a malformed JSON body or one over the limit is refused
	// everywhere.
	ignoresBody := map[string]bool{
		"POST /api/v2/organizations/{org}/authentication-token":                                                                   true,
		"POST /api/v2/teams/{id}/authentication-token":                                                                            true,
		"POST /api/v2/teams/{id}/authentication-tokens":                                                                           true,
		"POST /api/v2/organizations/{org}/tests/registry-modules/private/{ns}/{name}/{provider}/test-runs/configuration-versions": true,
		// The registry module delete actions are deletes sent as POST.
		"POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}":           true,
		"POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}/{version}": true,
	}
	n := 0
	for _, pattern := range patterns {
		hasID := strings.Contains(pattern, "{id}")
		hasVars := strings.Contains(strings.ReplaceAll(pattern, "{$}", ""), "{")
		var paths []string
		if hasVars {
			for _, id := range w.otherIDs {
				_, p := fill(pattern, foreign, id)
				paths = append(paths, p)
				if hasID {
					_, p = fill(pattern, own, id)
					paths = append(paths, p)
				}
			}
			for _, c := range pathChars {
				vars := map[string]string{}
				for k := range own {
					vars[k] = c
				}
				_, p := fill(pattern, vars, c)
				paths = append(paths, p)
				if hasID {
					_, p = fill(pattern, own, c)
					paths = append(paths, p)
				}
			}
		}
		method, ownPath := fill(pattern, own, "nope")
		// Requests without a token or with a wrong one are 401, whatever
		// the path and body.
		for _, tok := range []string{"", "wrong", "Bearer"} {
			got := send(method, ownPath, tok, "application/vnd.api+json", `{"data":`)
			checkError(t, fmt.Sprintf("%s with token %q", pattern, tok), got)
			if got.status != http.StatusUnauthorized {
				t.Errorf("%s with token %q: %d, want 401", pattern, tok, got.status)
			}
			n++
		}
		// Bad bodies on acme's own path, and a body over the limit. A
		// DELETE reads no body (but the relationship ones): on acme's own
		// objects it would succeed, whatever the body.
		if method != http.MethodGet && (method != http.MethodDelete || strings.Contains(pattern, "/relationships/")) {
			for _, b := range bodies[1:] {
				if ignoresBody[pattern] && b.name != "malformed JSON" {
					continue
				}
				checkError(t, fmt.Sprintf("%s %s (%s)", method, ownPath, b.name), send(method, ownPath, acme, b.ct, b.body))
				n++
			}
			got := send(method, ownPath, acme, "application/vnd.api+json", huge)
			checkError(t, fmt.Sprintf("%s %s (body over 1 MB)", method, ownPath), got)
			n++
		}
		// Other's objects and path characters, with every body.
		for _, p := range paths {
			for _, b := range bodies {
				if method == http.MethodGet && b.body != "" {
					continue
				}
				got := send(method, p, acme, b.ct, b.body)
				if got.status == -1 {
					continue
				}
				checkError(t, fmt.Sprintf("%s %s (%s)", method, p, b.name), got)
				n++
			}
		}
	}
	// Lists filtered by another organization's workspace.
	for _, q := range []string{"filter[workspace][id]=" + w.otherIDs[0], "filter[workspace][id]=..", "filter[workspace][id]=%2F"} {
		checkError(t, "team-workspaces?"+q, send("GET", "/api/v2/team-workspaces?"+q, acme, "", ""))
	}
	t.Logf("%d abusive requests over %d routes", n, len(patterns))
	if after := w.snapshot(t); !mapsEqual(before, after) {
		for k := range before {
			if before[k] != after[k] {
				t.Errorf("other's %s changed:\n%s\n%s", k, before[k], after[k])
			}
		}
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestAbuse_pageOverflow asks every paged list for pages whose offset
// overflows an int, and for bad page numbers and sizes.
func TestAbuse_pageOverflow(t *testing.T) {
	t.Parallel()
	w := newAbuseWorld(t)
	lists := []string{
		"/api/v2/organizations/acme/policies",
		"/api/v2/organizations/acme/policy-sets",
		"/api/v2/organizations/acme/workspaces",
		"/api/v2/organizations/acme/teams",
		"/api/v2/organizations/acme/agent-pools",
		"/api/v2/organizations/acme/organization-memberships",
		"/api/v2/agent-pools/" + w.agentPool(t).ID + "/authentication-tokens",
		"/api/v2/team-workspaces?filter[workspace][id]=" + w.acmeWS.ID,
		"/api/v2/organizations/acme/tests/registry-modules/private/acme/net/aws/vars",
		"/api/v2/organizations/acme/tests/registry-modules/private/acme/net/aws/test-runs",
	}
	with := func(list, query string) string {
		if strings.Contains(list, "?") {
			return list + "&" + query
		}
		return list + "?" + query
	}
	for _, list := range lists {
		for _, q := range []string{
			"page[number]=4611686018427387905&page[size]=2",
			"page[number]=9223372036854775807&page[size]=100",
			"page[number]=9223372036854775807&page[size]=9223372036854775807",
			"page[number]=2&page[size]=9223372036854775807",
		} {
			got := call(t, "GET", w.inst.URL+with(list, q), w.inst.Token, "")
			if got.err != nil || got.status != http.StatusOK {
				t.Errorf("%s %s: %d %v %s", list, q, got.status, got.err, got.body)
				continue
			}
			var doc struct {
				Data  []json.RawMessage `json:"data"`
				Links map[string]*string
			}
			if err := json.Unmarshal(got.body, &doc); err != nil || doc.Data == nil || len(doc.Data) != 0 {
				t.Errorf("%s %s: want an empty page, got %s", list, q, got.body)
			}
			if next := doc.Links["next"]; next != nil {
				t.Errorf("%s %s: next link %s past the last page", list, q, *next)
			}
		}
		for _, tc := range []struct{ q, param string }{
			{"page[number]=99999999999999999999", "page[number]"},
			{"page[number]=0", "page[number]"},
			{"page[number]=-1", "page[number]"},
			{"page[size]=0", "page[size]"},
			{"page[size]=1e3", "page[size]"},
			{"page[size]=", "page[size]"},
		} {
			got := call(t, "GET", w.inst.URL+with(list, tc.q), w.inst.Token, "")
			checkError(t, list+" "+tc.q, got)
			if got.status == http.StatusBadRequest && !strings.Contains(string(got.body), `"parameter":"`+tc.param+`"`) {
				t.Errorf("%s %s: %s does not name %s", list, tc.q, got.body, tc.param)
			}
		}
		// A page size over 100 is served as 100.
		got := call(t, "GET", w.inst.URL+with(list, "page[size]=1000"), w.inst.Token, "")
		if got.status != http.StatusOK || (strings.Contains(string(got.body), "page%5Bsize%5D") && !strings.Contains(string(got.body), "page%5Bsize%5D=100")) {
			t.Errorf("%s page[size]=1000: %d %s", list, got.status, got.body)
		}
	}
}

// TestAbuse_slowBody shows a client that sends its body slowly holding up
// nobody: a GET of another organization completes while the POST is still
// waiting for its body, which then completes.
func TestAbuse_slowBody(t *testing.T) {
	t.Parallel()
	w := newAbuseWorld(t)
	acme := w.acmeToken(t)
	otherTok := w.otherToken(t)
	u, err := url.Parse(w.inst.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := (&net.Dialer{}).DialContext(context.Background(), "tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := policyBody("slow-body")
	path := "/api/v2/organizations/acme/policies"
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/vnd.api+json\r\nContent-Length: %d\r\n\r\n", path, u.Host, acme, len(body))
	if _, err := conn.Write([]byte(head + body[:10])); err != nil {
		t.Fatal(err)
	}
	// Wait until the server is serving the POST.
	for w.inst.Server.RequestsTo("POST", path) == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)

	// Reads and writes of another organization go through meanwhile. The
	// timeout only turns a hang into a failure.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	oc := client(t, w.inst, otherTok)
	if _, err := oc.Organizations.Read(ctx, "other"); err != nil {
		t.Fatalf("GET of another organization behind a slow POST: %v", err)
	}
	if _, err := oc.Policies.Create(ctx, "other", sentinelPolicy("meanwhile", tfe.EnforcementAdvisory)); err != nil {
		t.Fatalf("POST of another organization behind a slow POST: %v", err)
	}

	// The slow POST then completes.
	if _, err := conn.Write([]byte(body[10:])); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("reading the slow POST's answer: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		t.Errorf("slow POST: %d", resp.StatusCode)
	}
	if names := policyNames(t, w.world); names["slow-body"] != 1 {
		t.Errorf("policies %v", names)
	}
}

// TestAbuse_uploadListener sends the upload listener addresses that are
// not one-time upload addresses, with path characters, and a second PUT to
// a used one: a 404 JSON:API error each time, never a redirect.
func TestAbuse_uploadListener(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	_, id := w.testModule(t, "up")
	cv, err := w.owner.ConfigurationVersions.CreateForRegistryModule(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(cv.UploadURL)
	if err != nil {
		t.Fatal(err)
	}
	base := u.Scheme + "://" + u.Host
	if err := w.owner.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, strings.NewReader("not a tarball")); err != nil {
		t.Fatalf("first upload: %v", err)
	}
	for _, p := range []string{u.Path, "/uploads/nope", "/uploads/..", "/uploads/%2E%2E", "/uploads/a%2Fb", "/uploads/../uploads/x", "//uploads/x", "/elsewhere", "/test-run-logs/..", "/test-run-logs/nope"} {
		for _, method := range []string{"PUT", "GET"} {
			checkError(t, method+" "+p, call(t, method, base+p, "", `{"data":`))
		}
	}
}
