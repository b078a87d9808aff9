package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// rawResponse is a decoded JSON:API answer to a raw request, for what
// go-tfe cannot send or cannot show (nulls, links, included, statuses).
type rawResponse struct {
	Status int
	Body   []byte
	Doc    struct {
		Data     json.RawMessage `json:"data"`
		Included []rawResource   `json:"included"`
		Links    map[string]*string
		Meta     struct {
			Pagination map[string]*int `json:"pagination"`
		} `json:"meta"`
		Errors []struct {
			Status, Title, Detail string
			Source                struct{ Pointer string }
		} `json:"errors"`
	}
}

type rawResource struct {
	Type          string                     `json:"type"`
	ID            string                     `json:"id"`
	Attributes    map[string]json.RawMessage `json:"attributes"`
	Relationships map[string]struct {
		Data json.RawMessage `json:"data"`
	} `json:"relationships"`
	Links map[string]string `json:"links"`
}

func (r *rawResponse) one(t *testing.T) rawResource {
	t.Helper()
	var res rawResource
	if err := json.Unmarshal(r.Doc.Data, &res); err != nil {
		t.Fatalf("data is not one resource: %v (%s)", err, r.Body)
	}
	return res
}

func (r *rawResponse) many(t *testing.T) []rawResource {
	t.Helper()
	var res []rawResource
	if err := json.Unmarshal(r.Doc.Data, &res); err != nil {
		t.Fatalf("data is not an array: %v (%s)", err, r.Body)
	}
	return res
}

// rawDo sends a raw request with the admin token. A string body is sent
// as JSON:API.
func policyRaw(t *testing.T, w *world, method, path, body string) *rawResponse {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, w.inst.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+w.inst.Token)
	if body != "" {
		req.Header.Set("Content-Type", "application/vnd.api+json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := &rawResponse{Status: resp.StatusCode}
	if out.Body, err = io.ReadAll(resp.Body); err != nil {
		t.Fatal(err)
	}
	if len(out.Body) > 0 {
		if err := json.Unmarshal(out.Body, &out.Doc); err != nil {
			t.Fatalf("%s %s: body is not JSON: %v (%q)", method, path, err, out.Body)
		}
	}
	return out
}

// want422 checks a 422 whose detail names want.
func want422(t *testing.T, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want a 422 naming %q", err, want)
	}
}

func sentinelPolicy(name string, level tfe.EnforcementLevel) tfe.PolicyCreateOptions {
	return tfe.PolicyCreateOptions{Name: tfe.String(name), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(level)}
}

func opaPolicy(name string, level tfe.EnforcementLevel) tfe.PolicyCreateOptions {
	return tfe.PolicyCreateOptions{Name: tfe.String(name), Kind: tfe.OPA, Query: tfe.String("data.terraform.deny"), EnforcementLevel: tfe.EnforcementMode(level)}
}

// The deprecated `enforce` is part of the contract: go-tfe still sends and
// decodes it. These helpers keep the deprecated fields in one place.

func enforceOf(p *tfe.Policy) []*tfe.Enforcement {
	return p.Enforce //nolint:staticcheck // the deprecated field under test
}

func enforceOptions(path string, mode tfe.EnforcementLevel) []*tfe.EnforcementOptions {
	return []*tfe.EnforcementOptions{{Path: tfe.String(path), Mode: tfe.EnforcementMode(mode)}}
}

func withEnforce(opts tfe.PolicyCreateOptions, path string, mode tfe.EnforcementLevel) tfe.PolicyCreateOptions {
	opts.Enforce = enforceOptions(path, mode) //nolint:staticcheck // the deprecated field under test
	return opts
}

func updateEnforce(path string, mode tfe.EnforcementLevel) tfe.PolicyUpdateOptions {
	return tfe.PolicyUpdateOptions{Enforce: enforceOptions(path, mode)} //nolint:staticcheck // the deprecated field under test
}

func (w *world) policy(t *testing.T, opts tfe.PolicyCreateOptions) *tfe.Policy {
	t.Helper()
	pol, err := w.owner.Policies.Create(context.Background(), w.org, opts)
	if err != nil {
		t.Fatalf("create policy %s: %v", *opts.Name, err)
	}
	return pol
}

func TestPolicies_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	created, err := w.owner.Policies.Create(ctx, w.org, tfe.PolicyCreateOptions{
		Name:             tfe.String("no-public-buckets"),
		Description:      tfe.String("Buckets are **private**."),
		EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementSoft),
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !strings.HasPrefix(created.ID, "pol-") || created.Name != "no-public-buckets" || created.Kind != tfe.Sentinel ||
		created.Description != "Buckets are **private**." || created.EnforcementLevel != tfe.EnforcementSoft ||
		created.Query != nil || created.PolicySetCount != 0 || !created.UpdatedAt.IsZero() ||
		created.Organization == nil || created.Organization.Name != w.org {
		t.Errorf("create returned %+v", created)
	}
	if len(enforceOf(created)) != 0 {
		t.Errorf("enforce before any upload = %+v, want []", enforceOf(created))
	}

	if _, err := w.owner.Policies.Download(ctx, created.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("download before upload: err = %v, want ErrResourceNotFound", err)
	}

	// Bytes that are not valid UTF-8 survive the round trip exactly.
	code := []byte("main = rule { true }\n\xff\xfe\x00 trailing\r\n")
	if err := w.owner.Policies.Upload(ctx, created.ID, code); err != nil {
		t.Fatalf("upload: %v", err)
	}
	got, err := w.owner.Policies.Download(ctx, created.ID)
	if err != nil || !bytes.Equal(got, code) {
		t.Fatalf("download = %q, %v; want %q", got, err, code)
	}

	read, err := w.owner.Policies.Read(ctx, created.ID)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if len(enforceOf(read)) != 1 || enforceOf(read)[0].Path != "no-public-buckets.sentinel" || enforceOf(read)[0].Mode != tfe.EnforcementSoft {
		t.Errorf("enforce after upload = %+v", enforceOf(read))
	}
	if read.UpdatedAt.IsZero() || time.Since(read.UpdatedAt) > time.Minute {
		t.Errorf("updated-at after upload = %v", read.UpdatedAt)
	}

	updated, err := w.owner.Policies.Update(ctx, created.ID, tfe.PolicyUpdateOptions{
		Description:      tfe.String("changed"),
		EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory),
	})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if updated.Description != "changed" || updated.EnforcementLevel != tfe.EnforcementAdvisory || updated.Name != created.Name ||
		len(enforceOf(updated)) != 1 || enforceOf(updated)[0].Mode != tfe.EnforcementAdvisory || updated.UpdatedAt.Before(read.UpdatedAt) {
		t.Errorf("update returned %+v", updated)
	}
	// An update that sends nothing keeps every value.
	same, err := w.owner.Policies.Update(ctx, created.ID, tfe.PolicyUpdateOptions{})
	if err != nil || same.Description != "changed" || same.EnforcementLevel != tfe.EnforcementAdvisory {
		t.Errorf("empty update: %+v, %v", same, err)
	}
	// The code is untouched by updates.
	if got, err := w.owner.Policies.Download(ctx, created.ID); err != nil || !bytes.Equal(got, code) {
		t.Errorf("download after update = %q, %v", got, err)
	}

	if err := w.owner.Policies.Delete(ctx, created.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	for op, err := range map[string]error{
		"read":     func() error { _, err := w.owner.Policies.Read(ctx, created.ID); return err }(),
		"download": func() error { _, err := w.owner.Policies.Download(ctx, created.ID); return err }(),
		"upload":   w.owner.Policies.Upload(ctx, created.ID, code),
		"update": func() error {
			_, err := w.owner.Policies.Update(ctx, created.ID, tfe.PolicyUpdateOptions{})
			return err
		}(),
		"delete": w.owner.Policies.Delete(ctx, created.ID),
	} {
		if !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s after delete: err = %v, want ErrResourceNotFound", op, err)
		}
	}
	// The name is free again.
	if _, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("no-public-buckets", tfe.EnforcementHard)); err != nil {
		t.Errorf("re-create with the name of a deleted policy: %v", err)
	}
}

func TestPolicies_opa(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pol := w.policy(t, opaPolicy("tags", tfe.EnforcementMandatory))
	if pol.Kind != tfe.OPA || pol.Query == nil || *pol.Query != "data.terraform.deny" || pol.EnforcementLevel != tfe.EnforcementMandatory {
		t.Fatalf("create returned %+v", pol)
	}
	up, err := w.owner.Policies.Update(ctx, pol.ID, tfe.PolicyUpdateOptions{Query: tfe.String("data.terraform.tags.deny"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil || up.Query == nil || *up.Query != "data.terraform.tags.deny" || up.EnforcementLevel != tfe.EnforcementAdvisory {
		t.Fatalf("update: %+v, %v", up, err)
	}
	rego := []byte("package terraform.tags\n\nimport rego.v1\n\ndeny contains msg if { false; msg := \"x\" }\n")
	if err := w.owner.Policies.Upload(ctx, pol.ID, rego); err != nil {
		t.Fatal(err)
	}
	read, err := w.owner.Policies.Read(ctx, pol.ID)
	if err != nil || len(enforceOf(read)) != 1 || enforceOf(read)[0].Path != "tags.rego" || enforceOf(read)[0].Mode != tfe.EnforcementAdvisory {
		t.Errorf("read after upload: %+v, %v", read, err)
	}
	// An empty upload is valid and replaces the code.
	if err := w.owner.Policies.Upload(ctx, pol.ID, nil); err != nil {
		t.Fatalf("empty upload: %v", err)
	}
	if got, err := w.owner.Policies.Download(ctx, pol.ID); err != nil || len(got) != 0 {
		t.Errorf("download after empty upload = %q, %v", got, err)
	}
}

// TestPolicies_wireFormat checks what go-tfe hides: the statuses, nulls,
// links present or absent per response, and relationships.
func TestPolicies_wireFormat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	create := policyRaw(t, w, http.MethodPost, "/api/v2/organizations/acme/policies",
		`{"data":{"type":"policies","attributes":{"name":"p1","enforcement-level":"advisory"}}}`)
	if create.Status != http.StatusOK {
		t.Fatalf("create status %d (%s), want 200", create.Status, create.Body)
	}
	res := create.one(t)
	id := res.ID
	for attr, want := range map[string]string{
		"name": `"p1"`, "kind": `"sentinel"`, "description": "null", "query": "null",
		"enforcement-level": `"advisory"`, "enforce": "[]", "policy-set-count": "0", "updated-at": "null",
	} {
		if got, ok := res.Attributes[attr]; !ok || string(got) != want {
			t.Errorf("create: %s = %s (present %v), want %s", attr, got, ok, want)
		}
	}
	if res.Type != "policies" || res.Links["self"] != "/api/v2/policies/"+id || res.Links["upload"] != "/api/v2/policies/"+id+"/upload" {
		t.Errorf("create: type %q, links %v", res.Type, res.Links)
	}
	if _, ok := res.Links["download"]; ok {
		t.Errorf("create response has links.download: %v", res.Links)
	}
	if got := string(res.Relationships["policy-sets"].Data); got != "[]" {
		t.Errorf("create: relationships.policy-sets.data = %s, want []", got)
	}
	if got := string(res.Relationships["organization"].Data); got != `{"id":"acme","type":"organizations"}` && got != `{"type":"organizations","id":"acme"}` {
		t.Errorf("create: relationships.organization.data = %s", got)
	}

	show := policyRaw(t, w, http.MethodGet, "/api/v2/policies/"+id, "")
	update := policyRaw(t, w, http.MethodPatch, "/api/v2/policies/"+id, `{"data":{"type":"policies","attributes":{"description":"d"}}}`)
	list := policyRaw(t, w, http.MethodGet, "/api/v2/organizations/acme/policies", "")
	for name, r := range map[string]*rawResponse{"show": show, "update": update} {
		if r.Status != http.StatusOK || r.one(t).Links["download"] != "/api/v2/policies/"+id+"/download" {
			t.Errorf("%s: status %d, links %v", name, r.Status, r.one(t).Links)
		}
	}
	if ts := string(update.one(t).Attributes["updated-at"]); len(ts) != len(`"2006-01-02T15:04:05.000Z"`) || !strings.HasSuffix(ts, `Z"`) {
		t.Errorf("update: updated-at = %s, want millisecond precision ending in Z", ts)
	}
	if items := list.many(t); list.Status != http.StatusOK || len(items) != 1 || items[0].Links["download"] == "" || items[0].Links["upload"] == "" {
		t.Errorf("list: status %d, %s", list.Status, list.Body)
	}

	// Upload and download statuses and content types.
	if status := rawPolicyUpload(t, w, id, strings.NewReader("main = rule { true }")); status != http.StatusOK {
		t.Errorf("upload status %d, want 200", status)
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, w.inst.URL+"/api/v2/policies/"+id+"/download", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+w.inst.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/octet-stream" || string(body) != "main = rule { true }" {
		t.Errorf("download: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if got := string(policyRaw(t, w, http.MethodGet, "/api/v2/policies/"+id, "").one(t).Attributes["enforce"]); got != `[{"mode":"advisory","path":"p1.sentinel"}]` {
		t.Errorf("enforce after upload = %s", got)
	}

	if del := policyRaw(t, w, http.MethodDelete, "/api/v2/policies/"+id, ""); del.Status != http.StatusNoContent || len(del.Body) != 0 {
		t.Errorf("delete: %d %q, want 204 and no body", del.Status, del.Body)
	}
}

// TestPolicies_enforceDefaults covers the deprecated `enforce` array in
// requests and the default levels.
func TestPolicies_enforceDefaults(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tests := map[string]struct {
		opts tfe.PolicyCreateOptions
		want tfe.EnforcementLevel
	}{
		"sentinel, matching path":     {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("s1")}, "s1.sentinel", tfe.EnforcementAdvisory), tfe.EnforcementAdvisory},
		"sentinel, soft":              {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("s2")}, "s2.sentinel", tfe.EnforcementSoft), tfe.EnforcementSoft},
		"sentinel, other path":        {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("s3")}, "other.sentinel", tfe.EnforcementAdvisory), tfe.EnforcementHard},
		"sentinel, rego path":         {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("s4")}, "s4.rego", tfe.EnforcementSoft), tfe.EnforcementHard},
		"opa, matching path":          {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("o1"), Kind: tfe.OPA, Query: tfe.String("data.x")}, "o1.rego", tfe.EnforcementMandatory), tfe.EnforcementMandatory},
		"opa, other path":             {withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("o2"), Kind: tfe.OPA, Query: tfe.String("data.x")}, "x.rego", tfe.EnforcementMandatory), tfe.EnforcementAdvisory},
		"opa, enforcement-level wins": {opaPolicy("o3", tfe.EnforcementMandatory), tfe.EnforcementMandatory},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pol, err := w.owner.Policies.Create(ctx, w.org, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if pol.EnforcementLevel != tc.want {
				t.Errorf("enforcement-level = %q, want %q", pol.EnforcementLevel, tc.want)
			}
			if len(enforceOf(pol)) != 0 {
				t.Errorf("enforce before upload = %+v", enforceOf(pol))
			}
		})
	}

	// No level at all (go-tfe refuses to send this; a raw client may).
	for kind, want := range map[string]string{"sentinel": `"hard-mandatory"`, "opa": `"advisory"`} {
		attrs := fmt.Sprintf(`{"name":"bare-%s","kind":%q}`, kind, kind)
		if kind == "opa" {
			attrs = fmt.Sprintf(`{"name":"bare-%s","kind":%q,"query":"data.x"}`, kind, kind)
		}
		r := policyRaw(t, w, http.MethodPost, "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":`+attrs+`}}`)
		if got := string(r.one(t).Attributes["enforcement-level"]); r.Status != http.StatusOK || got != want {
			t.Errorf("%s without a level: %d, enforcement-level %s, want %s", kind, r.Status, got, want)
		}
	}

	// Updates accept `enforce` too.
	pol := w.policy(t, sentinelPolicy("upd", tfe.EnforcementHard))
	up, err := w.owner.Policies.Update(ctx, pol.ID, updateEnforce("upd.sentinel", tfe.EnforcementSoft))
	if err != nil || up.EnforcementLevel != tfe.EnforcementSoft {
		t.Errorf("update through enforce: %+v, %v", up, err)
	}
	up, err = w.owner.Policies.Update(ctx, pol.ID, updateEnforce("elsewhere.sentinel", tfe.EnforcementAdvisory))
	if err != nil || up.EnforcementLevel != tfe.EnforcementHard {
		t.Errorf("update through enforce with another path: %+v, %v; want hard-mandatory", up, err)
	}
}

func TestPolicies_validation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	sentinel := w.policy(t, sentinelPolicy("taken", tfe.EnforcementHard))
	opa := w.policy(t, opaPolicy("rego", tfe.EnforcementAdvisory))

	// Through go-tfe, which sends these.
	goTFE := map[string]struct {
		call func() error
		want string
	}{
		"name characters": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("bad.name", tfe.EnforcementHard))
			return err
		}, "name"},
		"name unique in the organization": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("taken", tfe.EnforcementAdvisory))
			return err
		}, "name"},
		"kind": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, tfe.PolicyCreateOptions{Name: tfe.String("k"), Kind: "python", EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
			return err
		}, "kind"},
		"sentinel level on opa": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, opaPolicy("o", tfe.EnforcementHard))
			return err
		}, "enforcement-level"},
		"opa level on sentinel": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("s", tfe.EnforcementMandatory))
			return err
		}, "enforcement-level"},
		"unknown level": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("s", "strict"))
			return err
		}, "enforcement-level"},
		"query on sentinel": {func() error {
			opts := sentinelPolicy("q", tfe.EnforcementHard)
			opts.Query = tfe.String("data.x")
			_, err := w.owner.Policies.Create(ctx, w.org, opts)
			return err
		}, "query"},
		"enforce mode for the wrong kind": {func() error {
			_, err := w.owner.Policies.Create(ctx, w.org, withEnforce(tfe.PolicyCreateOptions{Name: tfe.String("e")}, "e.sentinel", tfe.EnforcementMandatory))
			return err
		}, "enforce"},
		"update: opa level on sentinel": {func() error {
			_, err := w.owner.Policies.Update(ctx, sentinel.ID, tfe.PolicyUpdateOptions{EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementMandatory)})
			return err
		}, "enforcement-level"},
		"update: sentinel level on opa": {func() error {
			_, err := w.owner.Policies.Update(ctx, opa.ID, tfe.PolicyUpdateOptions{EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementSoft)})
			return err
		}, "enforcement-level"},
		"update: blank query": {func() error {
			_, err := w.owner.Policies.Update(ctx, opa.ID, tfe.PolicyUpdateOptions{Query: tfe.String(" ")})
			return err
		}, "query"},
	}
	for name, tc := range goTFE {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.call()
			want422(t, err, tc.want)
		})
	}

	// Raw, for what go-tfe refuses to send.
	raw := map[string]struct {
		method, path, body string
		want               string
	}{
		"missing name":          {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"enforcement-level":"advisory"}}}`, "name"},
		"name with a slash":     {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"a/b"}}}`, "name"},
		"name with a space":     {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"a b"}}}`, "name"},
		"name not a string":     {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":7}}}`, "name"},
		"opa without query":     {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"o","kind":"opa","enforcement-level":"advisory"}}}`, "query"},
		"level and enforce":     {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"b","enforcement-level":"advisory","enforce":[{"path":"b.sentinel","mode":"advisory"}]}}}`, "enforcement-level"},
		"enforce without mode":  {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"b","enforce":[{"path":"b.sentinel"}]}}}`, "enforce"},
		"two enforce elements":  {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"b","enforce":[{"path":"b.sentinel","mode":"advisory"},{"path":"c.sentinel","mode":"advisory"}]}}}`, "enforce"},
		"enforce not an array":  {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"b","enforce":"advisory"}}}`, "enforce"},
		"wrong data.type":       {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policy","attributes":{"name":"b"}}}`, "data.type"},
		"unknown policy set":    {"POST", "/api/v2/organizations/acme/policies", `{"data":{"type":"policies","attributes":{"name":"b"},"relationships":{"policy-sets":{"data":[{"type":"policy-sets","id":"polset-nope"}]}}}}`, "policy-sets"},
		"update: name":          {"PATCH", "/api/v2/policies/" + sentinel.ID, `{"data":{"type":"policies","attributes":{"name":"renamed"}}}`, "name"},
		"update: kind":          {"PATCH", "/api/v2/policies/" + sentinel.ID, `{"data":{"type":"policies","attributes":{"kind":"opa"}}}`, "kind"},
		"update: level type":    {"PATCH", "/api/v2/policies/" + sentinel.ID, `{"data":{"type":"policies","attributes":{"enforcement-level":1}}}`, "enforcement-level"},
		"update: another id":    {"PATCH", "/api/v2/policies/" + sentinel.ID, `{"data":{"type":"policies","id":"` + opa.ID + `","attributes":{}}}`, "data.id"},
		"update: no data":       {"PATCH", "/api/v2/policies/" + sentinel.ID, `{}`, "data"},
		"update: bad enforcing": {"PATCH", "/api/v2/policies/" + opa.ID, `{"data":{"type":"policies","attributes":{"enforce":[{"path":"rego.rego","mode":"hard-mandatory"}]}}}`, "enforce"},
	}
	for name, tc := range raw {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := policyRaw(t, w, tc.method, tc.path, tc.body)
			if r.Status != http.StatusUnprocessableEntity || len(r.Doc.Errors) != 1 || r.Doc.Errors[0].Status != "422" || !strings.Contains(r.Doc.Errors[0].Detail, tc.want) {
				t.Errorf("status %d, errors %+v; want 422 naming %q", r.Status, r.Doc.Errors, tc.want)
			}
		})
	}

	// Nothing was half-made, and the refused updates changed nothing.
	t.Cleanup(func() {
		l, err := w.owner.Policies.List(ctx, w.org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range l.Items {
			names = append(names, p.Name)
		}
		if !slices.Equal(names, []string{"taken", "rego"}) {
			t.Errorf("policies after refused requests: %v", names)
		}
		s, err := w.owner.Policies.Read(ctx, sentinel.ID)
		if err != nil || s.Name != "taken" || s.Kind != tfe.Sentinel || s.EnforcementLevel != tfe.EnforcementHard || s.Query != nil {
			t.Errorf("sentinel policy after refused updates: %+v, %v", s, err)
		}
		o, err := w.owner.Policies.Read(ctx, opa.ID)
		if err != nil || *o.Query != "data.terraform.deny" || o.EnforcementLevel != tfe.EnforcementAdvisory {
			t.Errorf("opa policy after refused updates: %+v, %v", o, err)
		}
	})
}

// TestPolicies_sentinelQueryUpdate: a PATCH that sends `query` for a
// Sentinel policy succeeds and the query stays null, as on the real
// service; the rest of the PATCH applies. A query that is not a string is
// still a 422.
func TestPolicies_sentinelQueryUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pol := w.policy(t, sentinelPolicy("s", tfe.EnforcementHard))
	up, err := w.owner.Policies.Update(ctx, pol.ID, tfe.PolicyUpdateOptions{
		Query: tfe.String("data.x"), EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory),
	})
	if err != nil {
		t.Fatalf("update with a query: %v", err)
	}
	if up.Query != nil || up.EnforcementLevel != tfe.EnforcementAdvisory {
		t.Errorf("answer: query %v, level %s; want null and advisory", up.Query, up.EnforcementLevel)
	}
	read, err := w.owner.Policies.Read(ctx, pol.ID)
	if err != nil || read.Query != nil || read.EnforcementLevel != tfe.EnforcementAdvisory {
		t.Errorf("read back: %+v, %v", read, err)
	}
	for _, query := range []string{`" "`, `""`} {
		r := policyRaw(t, w, http.MethodPatch, "/api/v2/policies/"+pol.ID, `{"data":{"type":"policies","attributes":{"query":`+query+`}}}`)
		if r.Status != http.StatusOK || string(r.one(t).Attributes["query"]) != "null" {
			t.Errorf("query %s: %d, query %s; want 200 and null", query, r.Status, r.one(t).Attributes["query"])
		}
	}
	r := policyRaw(t, w, http.MethodPatch, "/api/v2/policies/"+pol.ID, `{"data":{"type":"policies","attributes":{"query":7}}}`)
	if r.Status != http.StatusUnprocessableEntity || len(r.Doc.Errors) != 1 || !strings.Contains(r.Doc.Errors[0].Detail, "query") {
		t.Errorf("query 7: %d %+v, want 422 naming query", r.Status, r.Doc.Errors)
	}
}

func TestPolicies_list(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	for i := range 23 {
		w.policy(t, sentinelPolicy(fmt.Sprintf("sentinel-%02d", i), tfe.EnforcementAdvisory))
	}
	for i := range 4 {
		w.policy(t, opaPolicy(fmt.Sprintf("Rego-%02d", i), tfe.EnforcementMandatory))
	}
	tests := map[string]struct {
		opts      *tfe.PolicyListOptions
		wantItems int
		wantTotal int
		wantPage  int
		wantNext  int
		wantPrev  int
		wantFirst string
	}{
		"default page of 20":  {nil, 20, 27, 1, 2, 0, "sentinel-00"},
		"second page":         {&tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: 2}}, 7, 27, 2, 0, 1, "sentinel-20"},
		"page size 5":         {&tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: 3, PageSize: 5}}, 5, 27, 3, 4, 2, "sentinel-10"},
		"page size 100":       {&tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 100}}, 27, 27, 1, 0, 0, "sentinel-00"},
		"past the end":        {&tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageNumber: 9}}, 0, 27, 9, 0, 0, ""},
		"filter opa":          {&tfe.PolicyListOptions{Kind: tfe.OPA}, 4, 4, 1, 0, 0, "Rego-00"},
		"filter sentinel":     {&tfe.PolicyListOptions{Kind: tfe.Sentinel}, 20, 23, 1, 2, 0, "sentinel-00"},
		"search":              {&tfe.PolicyListOptions{Search: "nel-1"}, 10, 10, 1, 0, 0, "sentinel-10"},
		"search ignores case": {&tfe.PolicyListOptions{Search: "rEgO"}, 4, 4, 1, 0, 0, "Rego-00"},
		"search and filter":   {&tfe.PolicyListOptions{Search: "0", Kind: tfe.OPA}, 4, 4, 1, 0, 0, "Rego-00"},
		"search no match":     {&tfe.PolicyListOptions{Search: "nothing"}, 0, 0, 1, 0, 0, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.owner.Policies.List(ctx, w.org, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Items) != tc.wantItems || l.TotalCount != tc.wantTotal || l.CurrentPage != tc.wantPage || l.NextPage != tc.wantNext || l.PreviousPage != tc.wantPrev {
				t.Errorf("got %d items, pagination %+v", len(l.Items), *l.Pagination)
			}
			if tc.wantFirst != "" && (len(l.Items) == 0 || l.Items[0].Name != tc.wantFirst) {
				t.Errorf("first item is not %q", tc.wantFirst)
			}
		})
	}

	bad := map[string]string{
		"filter[kind]=python": "filter[kind]",
		"page[size]=0":        "page[size]",
		"page[number]=x":      "page[number]",
		"include=workspaces":  "include",
	}
	for query, want := range bad {
		r := policyRaw(t, w, http.MethodGet, "/api/v2/organizations/acme/policies?"+query, "")
		if r.Status != http.StatusBadRequest || len(r.Doc.Errors) != 1 || !strings.Contains(r.Doc.Errors[0].Detail, want) {
			t.Errorf("%s: %d %+v, want 400 naming %s", query, r.Status, r.Doc.Errors, want)
		}
	}

	// links and meta.pagination exactly, with bracketed names escaped.
	r := policyRaw(t, w, http.MethodGet, "/api/v2/organizations/acme/policies?page%5Bsize%5D=10&page%5Bnumber%5D=2&search%5Bname%5D=sentinel", "")
	pg := r.Doc.Meta.Pagination
	if r.Status != http.StatusOK || *pg["current-page"] != 2 || *pg["prev-page"] != 1 || *pg["next-page"] != 3 || *pg["total-pages"] != 3 || *pg["total-count"] != 23 {
		t.Errorf("meta.pagination = %v", pg)
	}
	for _, k := range []string{"self", "first", "prev", "next", "last"} {
		if r.Doc.Links[k] == nil || !strings.Contains(*r.Doc.Links[k], "search%5Bname%5D=sentinel") {
			t.Errorf("links.%s = %v", k, r.Doc.Links[k])
		}
	}
	if !strings.Contains(*r.Doc.Links["last"], "page%5Bnumber%5D=3") {
		t.Errorf("links.last = %s", *r.Doc.Links["last"])
	}
}

func TestPolicies_policySets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	s1 := w.policy(t, sentinelPolicy("s1", tfe.EnforcementHard))
	s2 := w.policy(t, sentinelPolicy("s2", tfe.EnforcementHard))
	o1 := w.policy(t, opaPolicy("o1", tfe.EnforcementAdvisory))
	setA, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("a"), Policies: []*tfe.Policy{s1}})
	if err != nil {
		t.Fatal(err)
	}
	setB, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("b")})
	if err != nil {
		t.Fatal(err)
	}
	opaSet, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("c"), Kind: tfe.OPA})
	if err != nil {
		t.Fatal(err)
	}

	// policySetsOf reads the policy's relationship and count on the wire.
	policySetsOf := func(t *testing.T, id string) (int, []string) {
		t.Helper()
		res := policyRaw(t, w, http.MethodGet, "/api/v2/policies/"+id, "").one(t)
		var count int
		if err := json.Unmarshal(res.Attributes["policy-set-count"], &count); err != nil {
			t.Fatal(err)
		}
		var rel []struct{ Type, ID string }
		if err := json.Unmarshal(res.Relationships["policy-sets"].Data, &rel); err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, r := range rel {
			if r.Type != "policy-sets" {
				t.Errorf("relationship type %q", r.Type)
			}
			ids = append(ids, r.ID)
		}
		return count, ids
	}
	setPolicies := func(t *testing.T, id string) []string {
		t.Helper()
		ps, err := w.owner.PolicySets.Read(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		ids := []string{}
		for _, p := range ps.Policies {
			ids = append(ids, p.ID)
		}
		if ps.PolicyCount != len(ids) {
			t.Errorf("set %s: policy-count %d, policies %v", id, ps.PolicyCount, ids)
		}
		return ids
	}
	check := func(t *testing.T, step string, policyID string, wantSets []string) {
		t.Helper()
		count, ids := policySetsOf(t, policyID)
		if count != len(wantSets) || !slices.Equal(ids, wantSets) {
			t.Errorf("%s: policy %s has count %d, sets %v; want %v", step, policyID, count, ids, wantSets)
		}
		pol, err := w.owner.Policies.Read(ctx, policyID)
		if err != nil || pol.PolicySetCount != len(wantSets) {
			t.Errorf("%s: go-tfe policy-set-count %v, %v", step, pol, err)
		}
	}

	check(t, "created with set a", s1.ID, []string{setA.ID})
	if got := setPolicies(t, setA.ID); !slices.Equal(got, []string{s1.ID}) {
		t.Errorf("set a policies = %v", got)
	}

	if err := w.owner.PolicySets.AddPolicies(ctx, setB.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{s1, s2}}); err != nil {
		t.Fatalf("add policies: %v", err)
	}
	// Adding again is not an error and does not duplicate.
	if err := w.owner.PolicySets.AddPolicies(ctx, setB.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{s2}}); err != nil {
		t.Fatalf("add again: %v", err)
	}
	check(t, "added to b", s1.ID, []string{setA.ID, setB.ID})
	check(t, "added to b", s2.ID, []string{setB.ID})
	if got := setPolicies(t, setB.ID); !slices.Equal(got, []string{s1.ID, s2.ID}) {
		t.Errorf("set b policies = %v", got)
	}

	// include=policy_sets on show and list.
	show := policyRaw(t, w, http.MethodGet, "/api/v2/policies/"+s1.ID+"?include=policy_sets", "")
	if len(show.Doc.Included) != 2 || show.Doc.Included[0].Type != "policy-sets" || show.Doc.Included[0].ID != setA.ID || show.Doc.Included[1].ID != setB.ID {
		t.Errorf("show included = %+v", show.Doc.Included)
	}
	list := policyRaw(t, w, http.MethodGet, "/api/v2/organizations/acme/policies?include=policy_sets&filter%5Bkind%5D=sentinel", "")
	if len(list.Doc.Included) != 2 {
		t.Errorf("list included %d sets, want 2 (each once): %s", len(list.Doc.Included), list.Body)
	}
	if noInc := policyRaw(t, w, http.MethodGet, "/api/v2/policies/"+s1.ID, ""); noInc.Doc.Included != nil {
		t.Errorf("show without include has included: %s", noInc.Body)
	}

	// Refusals change nothing.
	want422(t, w.owner.PolicySets.AddPolicies(ctx, opaSet.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{o1, s2}}), "sentinel policy")
	want422(t, w.owner.PolicySets.AddPolicies(ctx, setB.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{{ID: "pol-doesnotexist"}}}), "not found")
	if err := w.owner.PolicySets.AddPolicies(ctx, "polset-doesnotexist", tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{s1}}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("add to a missing set: %v", err)
	}
	check(t, "refused add", o1.ID, []string{})
	if r := policyRaw(t, w, http.MethodPost, "/api/v2/policy-sets/"+setB.ID+"/relationships/policies", `{"data":[{"type":"workspaces","id":"`+s1.ID+`"}]}`); r.Status != http.StatusUnprocessableEntity {
		t.Errorf("wrong linkage type: %d", r.Status)
	}
	if r := policyRaw(t, w, http.MethodPost, "/api/v2/policy-sets/"+opaSet.ID+"/relationships/policies", `{"data":[{"type":"policies","id":"`+o1.ID+`"}]}`); r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Errorf("add: %d %q, want 204", r.Status, r.Body)
	}
	check(t, "added to the opa set", o1.ID, []string{opaSet.ID})

	// A policy of another organization cannot join.
	w.organization(t, "rival")
	foreign, err := w.admin.Policies.Create(ctx, "rival", sentinelPolicy("s1", tfe.EnforcementHard))
	if err != nil {
		t.Fatal(err)
	}
	want422(t, w.admin.PolicySets.AddPolicies(ctx, setB.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{foreign}}), "not found")
	if _, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("d"), Policies: []*tfe.Policy{foreign}}); err == nil {
		t.Error("created a policy set with another organization's policy")
	}

	// Remove.
	if err := w.owner.PolicySets.RemovePolicies(ctx, setB.ID, tfe.PolicySetRemovePoliciesOptions{Policies: []*tfe.Policy{s1}}); err != nil {
		t.Fatalf("remove policies: %v", err)
	}
	if err := w.owner.PolicySets.RemovePolicies(ctx, setB.ID, tfe.PolicySetRemovePoliciesOptions{Policies: []*tfe.Policy{s1}}); err != nil {
		t.Fatalf("remove a policy the set does not have: %v", err)
	}
	check(t, "removed from b", s1.ID, []string{setA.ID})
	if got := setPolicies(t, setB.ID); !slices.Equal(got, []string{s2.ID}) {
		t.Errorf("set b policies after remove = %v", got)
	}

	// Deleting a set detaches its policies.
	if err := w.owner.PolicySets.Delete(ctx, setA.ID); err != nil {
		t.Fatal(err)
	}
	check(t, "set a deleted", s1.ID, []string{})

	// Deleting a policy takes it out of its sets.
	if err := w.owner.Policies.Delete(ctx, s2.ID); err != nil {
		t.Fatal(err)
	}
	if got := setPolicies(t, setB.ID); len(got) != 0 {
		t.Errorf("set b policies after its policy was deleted = %v", got)
	}

	// A policy created with a policy-sets relationship (go-tfe sends none).
	r := policyRaw(t, w, http.MethodPost, "/api/v2/organizations/acme/policies",
		`{"data":{"type":"policies","attributes":{"name":"joined"},"relationships":{"policy-sets":{"data":[{"type":"policy-sets","id":"`+setB.ID+`"}]}}}}`)
	if r.Status != http.StatusOK {
		t.Fatalf("create with policy-sets: %d %s", r.Status, r.Body)
	}
	check(t, "created with set b", r.one(t).ID, []string{setB.ID})
	r = policyRaw(t, w, http.MethodPost, "/api/v2/organizations/acme/policies",
		`{"data":{"type":"policies","attributes":{"name":"wrongkind","kind":"opa","query":"data.x"},"relationships":{"policy-sets":{"data":[{"type":"policy-sets","id":"`+setB.ID+`"}]}}}}`)
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "policy-sets") {
		t.Errorf("opa policy into a sentinel set: %d %s", r.Status, r.Body)
	}
}

func TestPolicies_uploadLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pol := w.policy(t, sentinelPolicy("big", tfe.EnforcementHard))
	first := []byte("main = rule { true }")
	if err := w.owner.Policies.Upload(ctx, pol.ID, first); err != nil {
		t.Fatal(err)
	}
	before, err := w.owner.Policies.Read(ctx, pol.ID)
	if err != nil {
		t.Fatal(err)
	}

	tooBig := bytes.Repeat([]byte("#"), sandbox.MaxPolicyCodeSize+1)
	err = w.owner.Policies.Upload(ctx, pol.ID, tooBig)
	if err == nil || !strings.Contains(err.Error(), "10 MB") {
		t.Fatalf("upload of 10 MB + 1 byte: err = %v, want a 413", err)
	}
	after, err := w.owner.Policies.Read(ctx, pol.ID)
	if err != nil || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("a refused upload changed the policy: %+v, %v", after, err)
	}
	if got, err := w.owner.Policies.Download(ctx, pol.ID); err != nil || !bytes.Equal(got, first) {
		t.Errorf("download after a refused upload = %d bytes, %v; want the earlier code", len(got), err)
	}

	// Raw, to see the status itself.
	if status := rawPolicyUpload(t, w, pol.ID, bytes.NewReader(tooBig)); status != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", status)
	}

	// Exactly 10 MB is accepted and returned whole.
	limit := bytes.Repeat([]byte("a"), sandbox.MaxPolicyCodeSize)
	if err := w.owner.Policies.Upload(ctx, pol.ID, limit); err != nil {
		t.Fatalf("upload of exactly 10 MB: %v", err)
	}
	if got, err := w.owner.Policies.Download(ctx, pol.ID); err != nil || !bytes.Equal(got, limit) {
		t.Errorf("download of 10 MB: %d bytes, %v", len(got), err)
	}
}

func TestPolicies_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pol := w.policy(t, sentinelPolicy("guarded", tfe.EnforcementHard))
	if err := w.owner.Policies.Upload(ctx, pol.ID, []byte("main = true")); err != nil {
		t.Fatal(err)
	}
	set, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("set")})
	if err != nil {
		t.Fatal(err)
	}
	managers := w.team(t, "policy-managers", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true)})
	others := w.team(t, "workspace-managers", &tfe.OrganizationAccessOptions{ManageWorkspaces: tfe.Bool(true), ManagePolicyOverrides: tfe.Bool(true)})

	rivalOwner := w.organization(t, "rival")

	tests := map[string]struct {
		client  *tfe.Client
		allowed bool
	}{
		"owner":                         {w.owner, true},
		"admin token":                   {w.admin, true},
		"organization token":            {w.orgClient(t), true},
		"member of manage-policies":     {w.member(t, "pm@acme.test", managers), true},
		"token of manage-policies":      {w.teamClient(t, managers), true},
		"member without it":             {w.member(t, "dev@acme.test", others), false},
		"token of a team without it":    {w.teamClient(t, others), false},
		"owner of another organization": {rivalOwner, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := tc.client
			created, createErr := c.Policies.Create(ctx, w.org, sentinelPolicy(strings.ReplaceAll(name, " ", "_"), tfe.EnforcementAdvisory))
			ops := map[string]error{"create": createErr}
			_, ops["list"] = c.Policies.List(ctx, w.org, nil)
			_, ops["read"] = c.Policies.Read(ctx, pol.ID)
			_, ops["update"] = c.Policies.Update(ctx, pol.ID, tfe.PolicyUpdateOptions{Description: tfe.String(name)})
			ops["upload"] = c.Policies.Upload(ctx, pol.ID, []byte("main = true"))
			_, ops["download"] = c.Policies.Download(ctx, pol.ID)
			ops["add to set"] = c.PolicySets.AddPolicies(ctx, set.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{pol}})
			ops["remove from set"] = c.PolicySets.RemovePolicies(ctx, set.ID, tfe.PolicySetRemovePoliciesOptions{Policies: []*tfe.Policy{pol}})
			if created != nil {
				ops["delete"] = c.Policies.Delete(ctx, created.ID)
			}
			for op, err := range ops {
				if tc.allowed && err != nil {
					t.Errorf("%s: %v", op, err)
				}
				if !tc.allowed && !errors.Is(err, tfe.ErrResourceNotFound) {
					t.Errorf("%s: err = %v, want ErrResourceNotFound", op, err)
				}
			}
		})
	}
	t.Run("delete", func(t *testing.T) {
		// Serially after the parallel subtests above: the forbidden may not
		// delete, the allowed may.
		if err := rivalOwner.Policies.Delete(ctx, pol.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("delete by another organization's owner: %v", err)
		}
		if _, err := w.owner.Policies.Read(ctx, pol.ID); err != nil {
			t.Errorf("policy gone after a forbidden delete: %v", err)
		}
	})

	if _, err := w.owner.Policies.List(ctx, "no-such-org", nil); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("list in a missing organization: %v", err)
	}
	if _, err := w.owner.Policies.Create(ctx, "no-such-org", sentinelPolicy("x", tfe.EnforcementHard)); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("create in a missing organization: %v", err)
	}
	if _, err := client(t, w.inst, "not-a-token").Policies.Read(ctx, pol.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("bad token: %v", err)
	}
}

func TestPolicies_deletedWithOrganization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("gone"), Email: tfe.String("x@gone.test")}); err != nil {
		t.Fatal(err)
	}
	pol, err := w.admin.Policies.Create(ctx, "gone", sentinelPolicy("p", tfe.EnforcementHard))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.admin.Organizations.Delete(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("gone"), Email: tfe.String("x@gone.test")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.admin.Policies.Read(ctx, pol.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("policy of a deleted organization: %v", err)
	}
	if l, err := w.admin.Policies.List(ctx, "gone", nil); err != nil || len(l.Items) != 0 {
		t.Errorf("re-created organization lists %v, %v", l, err)
	}
}

// rawPolicyUpload PUTs body as the code of policy id with the admin token,
// outside go-tfe (which hides the status), and returns the status.
func rawPolicyUpload(t *testing.T, w *world, id string, body io.Reader) int {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPut, w.inst.URL+"/api/v2/policies/"+id+"/upload", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+w.inst.Token)
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
