package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// go-tfe has no deprecation API: these models are what a client sends and
// decodes through client.NewRequest, as the provider does.

type deprecationRequest struct {
	ID          string           `jsonapi:"primary,module-versions"`
	Deprecation *deprecationBody `jsonapi:"attr,deprecation"`
}

type deprecationBody struct {
	Status string `json:"deprecated-status"`
	Reason string `json:"reason,omitempty"`
	Link   string `json:"link,omitempty"`
}

type deprecationResponse struct {
	ID          string       `jsonapi:"primary,module-versions"`
	Deprecation *deprecation `jsonapi:"relation,deprecation,omitempty"`
}

type deprecation struct {
	ID     string `jsonapi:"primary,deprecations"`
	Reason string `jsonapi:"attr,reason"`
	Link   string `jsonapi:"attr,link"`
}

type versionRead struct {
	ID          string       `jsonapi:"primary,registry-module-versions"`
	Version     string       `jsonapi:"attr,version"`
	Deprecation *deprecation `jsonapi:"relation,deprecation,omitempty"`
}

// module creates a private module with the given versions and returns its id.
func (w *world) module(t testing.TB, name, provider string, versions ...string) tfe.RegistryModuleID {
	t.Helper()
	ctx := context.Background()
	if _, err := w.owner.RegistryModules.Create(ctx, w.org, tfe.RegistryModuleCreateOptions{
		Name: tfe.String(name), Provider: tfe.String(provider), RegistryName: tfe.PrivateRegistry,
	}); err != nil {
		t.Fatalf("create module: %v", err)
	}
	id := tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: name, Provider: provider, RegistryName: tfe.PrivateRegistry}
	for _, v := range versions {
		if _, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)}); err != nil {
			t.Fatalf("create version %s: %v", v, err)
		}
	}
	return id
}

func versionPath(id tfe.RegistryModuleID, version string) string {
	return "organizations/" + id.Organization + "/registry-modules/private/" + id.Namespace + "/" + id.Name + "/" + id.Provider + "/" + version
}

func setDeprecation(ctx context.Context, c *tfe.Client, id tfe.RegistryModuleID, version string, body deprecationBody) (*deprecationResponse, error) {
	req, err := c.NewRequest(http.MethodPatch, versionPath(id, version), &deprecationRequest{Deprecation: &body})
	if err != nil {
		return nil, err
	}
	out := &deprecationResponse{}
	if err := req.Do(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

func readVersion(ctx context.Context, c *tfe.Client, id tfe.RegistryModuleID, version string) (*versionRead, error) {
	req, err := c.NewRequestWithAdditionalQueryParams(http.MethodGet,
		"organizations/"+id.Organization+"/registry-modules/private/"+id.Namespace+"/"+id.Name+"/"+id.Provider+"/version",
		nil, map[string][]string{"module_version": {version}, "include": {"deprecation"}})
	if err != nil {
		return nil, err
	}
	out := &versionRead{}
	if err := req.Do(ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

func TestModuleDeprecation_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "network", "aws", "1.0.0", "1.1.0")

	before, err := readVersion(ctx, w.owner, mod, "1.0.0")
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if before.Version != "1.0.0" || before.Deprecation != nil {
		t.Fatalf("fresh version read as %+v", before)
	}

	dep, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Deprecated", Reason: "use 1.1.0", Link: "https://example.com/upgrade"})
	if err != nil {
		t.Fatalf("deprecate: %v", err)
	}
	if dep.ID != before.ID || dep.Deprecation == nil || dep.Deprecation.ID == "" ||
		dep.Deprecation.Reason != "use 1.1.0" || dep.Deprecation.Link != "https://example.com/upgrade" {
		t.Fatalf("deprecate returned %+v / %+v, want version %s", dep, dep.Deprecation, before.ID)
	}

	read, err := readVersion(ctx, w.owner, mod, "1.0.0")
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if read.Deprecation == nil || *read.Deprecation != *dep.Deprecation {
		t.Errorf("read after deprecate: %+v, want %+v", read.Deprecation, dep.Deprecation)
	}
	if other, err := readVersion(ctx, w.owner, mod, "1.1.0"); err != nil || other.Deprecation != nil {
		t.Errorf("the other version: %+v, %v; want not deprecated", other, err)
	}
	// go-tfe's own ReadVersion still decodes the extended document.
	if v, err := w.owner.RegistryModules.ReadVersion(ctx, mod, "1.0.0"); err != nil || v.Version != "1.0.0" {
		t.Errorf("go-tfe ReadVersion: %+v, %v", v, err)
	}

	// A repeated deprecation replaces reason and link and keeps the id.
	again, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Deprecated", Reason: "security fix in 1.1.0"})
	if err != nil {
		t.Fatalf("deprecate again: %v", err)
	}
	if again.Deprecation == nil || again.Deprecation.ID != dep.Deprecation.ID || again.Deprecation.Reason != "security fix in 1.1.0" || again.Deprecation.Link != "" {
		t.Errorf("deprecate again returned %+v", again.Deprecation)
	}
	if read, _ := readVersion(ctx, w.owner, mod, "1.0.0"); read == nil || read.Deprecation == nil || read.Deprecation.Link != "" || read.Deprecation.Reason != "security fix in 1.1.0" {
		t.Errorf("read after update: %+v", read)
	}

	rev, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Undeprecated"})
	if err != nil {
		t.Fatalf("revert: %v", err)
	}
	if rev.ID != before.ID || rev.Deprecation != nil {
		t.Errorf("revert returned %+v", rev)
	}
	if read, err := readVersion(ctx, w.owner, mod, "1.0.0"); err != nil || read.Deprecation != nil {
		t.Errorf("read after revert: %+v, %v", read, err)
	}
	// Reverting again is harmless.
	if _, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Undeprecated"}); err != nil {
		t.Errorf("second revert: %v", err)
	}

	// A new deprecation after a revert is a new record.
	third, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Deprecated"})
	if err != nil {
		t.Fatalf("deprecate after revert: %v", err)
	}
	if third.Deprecation == nil || third.Deprecation.ID == dep.Deprecation.ID || third.Deprecation.Reason != "" || third.Deprecation.Link != "" {
		t.Errorf("deprecate after revert returned %+v", third.Deprecation)
	}

	// Deleting the version deletes its deprecation: the same version
	// published again is not deprecated.
	if err := w.owner.RegistryModules.DeleteVersion(ctx, mod, "1.0.0"); err != nil {
		t.Fatalf("delete version: %v", err)
	}
	if _, err := setDeprecation(ctx, w.owner, mod, "1.0.0", deprecationBody{Status: "Deprecated"}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("deprecate a deleted version: %v, want ErrResourceNotFound", err)
	}
	if _, err := w.owner.RegistryModules.CreateVersion(ctx, mod, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")}); err != nil {
		t.Fatal(err)
	}
	if read, err := readVersion(ctx, w.owner, mod, "1.0.0"); err != nil || read.Deprecation != nil {
		t.Errorf("republished version: %+v, %v; want not deprecated", read, err)
	}
}

// rawDo sends a request with the admin token and decodes the JSON answer.
func rawDo(t *testing.T, w *world, method, path, body string) (int, map[string]any) {
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
	req.Header.Set("Content-Type", "application/vnd.api+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.api+json" {
		t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatalf("%s %s: decoding: %v", method, path, err)
	}
	return resp.StatusCode, doc
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestModuleDeprecation_wireFormat checks the exact documents the reference
// shows, which a jsonapi decoder would not notice if they had extra or
// missing members.
func TestModuleDeprecation_wireFormat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.module(t, "network", "aws", "1.0.0")
	path := "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/1.0.0"
	readPath := "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/version?module_version=1.0.0"

	status, doc := rawDo(t, w, http.MethodPatch, path, `{"data":{"type":"module-versions","attributes":{"deprecation":{"deprecated-status":"Deprecated","reason":"old","link":"https://example.com/why"}}}}`)
	if status != http.StatusOK {
		t.Fatalf("deprecate: %d %v", status, doc)
	}
	data := doc["data"].(map[string]any)
	if data["type"] != "module-versions" || !strings.HasPrefix(data["id"].(string), "modver-") {
		t.Errorf("data = %v", data)
	}
	rel := data["relationships"].(map[string]any)["deprecation"].(map[string]any)["data"].(map[string]any)
	inc := doc["included"].([]any)
	if len(inc) != 1 {
		t.Fatalf("included = %v", inc)
	}
	dep := inc[0].(map[string]any)
	if rel["type"] != "deprecations" || dep["type"] != "deprecations" || dep["id"] != rel["id"] {
		t.Errorf("relationship %v does not name the included %v", rel, dep)
	}
	if attrs := dep["attributes"].(map[string]any); attrs["reason"] != "old" || attrs["link"] != "https://example.com/why" || len(attrs) != 2 {
		t.Errorf("deprecation attributes = %v", attrs)
	}

	// The read: the relationship always, the record only on request.
	_, plain := rawDo(t, w, http.MethodGet, readPath, "")
	prel := plain["data"].(map[string]any)["relationships"].(map[string]any)["deprecation"].(map[string]any)["data"].(map[string]any)
	if prel["id"] != rel["id"] || plain["included"] != nil {
		t.Errorf("read without include: relationship %v, included %v", prel, plain["included"])
	}
	_, withInc := rawDo(t, w, http.MethodGet, readPath+"&include=deprecation", "")
	if inc, _ := withInc["included"].([]any); len(inc) != 1 || inc[0].(map[string]any)["id"] != rel["id"] {
		t.Errorf("read with include: included %v", withInc["included"])
	}

	// Reason and link left out are null.
	_, doc = rawDo(t, w, http.MethodPatch, path, `{"data":{"type":"module-versions","attributes":{"deprecation":{"deprecated-status":"Deprecated"}}}}`)
	attrs := doc["included"].([]any)[0].(map[string]any)["attributes"].(map[string]any)
	if v, ok := attrs["reason"]; !ok || v != nil {
		t.Errorf("reason = %v (present %v), want null", v, ok)
	}
	if v, ok := attrs["link"]; !ok || v != nil {
		t.Errorf("link = %v (present %v), want null", v, ok)
	}

	// The revert answers type and id only.
	status, doc = rawDo(t, w, http.MethodPatch, path, `{"data":{"type":"module-versions","attributes":{"deprecation":{"deprecated-status":"Undeprecated"}}}}`)
	data = doc["data"].(map[string]any)
	if status != http.StatusOK || !slices.Equal(keys(data), []string{"id", "type"}) || data["type"] != "module-versions" || doc["included"] != nil {
		t.Errorf("revert: %d %v", status, doc)
	}
	_, after := rawDo(t, w, http.MethodGet, readPath+"&include=deprecation", "")
	if d := after["data"].(map[string]any)["relationships"].(map[string]any)["deprecation"].(map[string]any); d["data"] != nil || after["included"] != nil {
		t.Errorf("read after revert: relationship %v, included %v", d, after["included"])
	}
}

func TestModuleDeprecation_notFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "network", "aws", "1.0.0")
	body := deprecationBody{Status: "Deprecated", Reason: "x"}

	tests := map[string]struct {
		id      tfe.RegistryModuleID
		version string
	}{
		"missing version":          {mod, "9.9.9"},
		"missing module":           {tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "nope", Provider: "aws"}, "1.0.0"},
		"other provider":           {tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "network", Provider: "gcp"}, "1.0.0"},
		"namespace is not the org": {tfe.RegistryModuleID{Organization: w.org, Namespace: "hashicorp", Name: "network", Provider: "aws"}, "1.0.0"},
		"missing organization":     {tfe.RegistryModuleID{Organization: "ghost", Namespace: "ghost", Name: "network", Provider: "aws"}, "1.0.0"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if _, err := setDeprecation(ctx, w.owner, tc.id, tc.version, body); !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("deprecate: %v, want ErrResourceNotFound", err)
			}
			if _, err := readVersion(ctx, w.owner, tc.id, tc.version); !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("read: %v, want ErrResourceNotFound", err)
			}
		})
	}
	// 404 comes before 422: a malformed body for a missing version is 404.
	if status, _ := rawDo(t, w, http.MethodPatch, "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/9.9.9", `{"data":{"type":"x"}}`); status != http.StatusNotFound {
		t.Errorf("malformed body for a missing version: %d, want 404", status)
	}
	if _, err := setDeprecation(ctx, client(t, w.inst, "not-a-token"), mod, "1.0.0", body); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("bad token: %v, want ErrUnauthorized", err)
	}
}

func TestModuleDeprecation_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "storage", "gcp", "1.0.0")
	modules := w.team(t, "module-admins", &tfe.OrganizationAccessOptions{ManageModules: tfe.Bool(true)})
	plain := w.team(t, "plain", nil)

	rivalOwner := w.organization(t, "rival")

	tests := map[string]struct {
		client       *tfe.Client
		write, read  bool
		wantNotFound bool
	}{
		"owner":                         {client: w.owner, write: true, read: true},
		"admin token":                   {client: w.admin, write: true, read: true},
		"organization token":            {client: w.orgClient(t), write: true, read: true},
		"member of manage-modules":      {client: w.member(t, "mods@acme.test", modules), write: true, read: true},
		"token of manage-modules":       {client: w.teamClient(t, modules), write: true, read: true},
		"plain member":                  {client: w.member(t, "dev@acme.test", plain), read: true},
		"token of a plain team":         {client: w.teamClient(t, plain), read: true},
		"owner of another organization": {client: rivalOwner},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Not parallel: the cases change the same version.
			_, err := setDeprecation(ctx, tc.client, mod, "1.0.0", deprecationBody{Status: "Deprecated", Reason: name})
			if tc.write && err != nil {
				t.Errorf("deprecate: %v", err)
			}
			if !tc.write && !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("deprecate: %v, want ErrResourceNotFound", err)
			}
			_, err = setDeprecation(ctx, tc.client, mod, "1.0.0", deprecationBody{Status: "Undeprecated"})
			if tc.write != (err == nil) {
				t.Errorf("revert: %v (allowed %v)", err, tc.write)
			}
			if _, err := readVersion(ctx, tc.client, mod, "1.0.0"); tc.read != (err == nil) {
				t.Errorf("read: %v (allowed %v)", err, tc.read)
			}
		})
	}
	// No refused call left a trace.
	if read, err := readVersion(ctx, w.owner, mod, "1.0.0"); err != nil || read.Deprecation != nil {
		t.Errorf("after the refused calls: %+v, %v", read, err)
	}
}

func TestModuleDeprecation_malformed(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.module(t, "network", "aws", "1.0.0")
	path := "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/1.0.0"
	wrap := func(dep string) string {
		return `{"data":{"type":"module-versions","attributes":{"deprecation":` + dep + `}}}`
	}
	tests := map[string]struct {
		body        string
		wantDetail  string
		wantPointer string
	}{
		"no deprecation":           {`{"data":{"type":"module-versions","attributes":{}}}`, "deprecation is required", "/data/attributes/deprecation"},
		"null deprecation":         {wrap(`null`), "deprecation is required", "/data/attributes/deprecation"},
		"deprecation not object":   {wrap(`"Deprecated"`), "deprecation must be an object", "/data/attributes/deprecation"},
		"missing status":           {wrap(`{"reason":"x"}`), "deprecated-status is required", "/data/attributes/deprecation/deprecated-status"},
		"unknown status":           {wrap(`{"deprecated-status":"Revoked"}`), "must be one of Deprecated, Undeprecated", "/data/attributes/deprecation/deprecated-status"},
		"lower-case status":        {wrap(`{"deprecated-status":"deprecated"}`), "must be one of Deprecated, Undeprecated", "/data/attributes/deprecation/deprecated-status"},
		"status not a string":      {wrap(`{"deprecated-status":true}`), "deprecated-status must be a string", "/data/attributes/deprecation/deprecated-status"},
		"reason not a string":      {wrap(`{"deprecated-status":"Deprecated","reason":7}`), "deprecation.reason must be a string", "/data/attributes/deprecation/reason"},
		"link not a string":        {wrap(`{"deprecated-status":"Deprecated","link":["https://x.test"]}`), "deprecation.link must be a string", "/data/attributes/deprecation/link"},
		"link not a URL":           {wrap(`{"deprecated-status":"Deprecated","link":"see the wiki"}`), "deprecation.link must be an absolute http or https URL", "/data/attributes/deprecation/link"},
		"relative link":            {wrap(`{"deprecated-status":"Deprecated","link":"/docs/upgrade"}`), "absolute http or https URL", "/data/attributes/deprecation/link"},
		"link of another scheme":   {wrap(`{"deprecated-status":"Deprecated","link":"ftp://example.com/x"}`), "absolute http or https URL", "/data/attributes/deprecation/link"},
		"link checked on a revert": {wrap(`{"deprecated-status":"Undeprecated","link":42}`), "deprecation.link must be a string", "/data/attributes/deprecation/link"},
		"wrong data.type":          {`{"data":{"type":"registry-module-versions","attributes":{"deprecation":{"deprecated-status":"Deprecated"}}}}`, "data.type", "/data/type"},
		"no data":                  {`{}`, "data is required", "/data"},
		"not json":                 {`{`, "JSON:API", "/data"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			status, doc := rawDo(t, w, http.MethodPatch, path, tc.body)
			errs, _ := doc["errors"].([]any)
			if status != http.StatusUnprocessableEntity || len(errs) != 1 {
				t.Fatalf("status %d, doc %v; want one 422", status, doc)
			}
			e := errs[0].(map[string]any)
			detail, _ := e["detail"].(string)
			src, _ := e["source"].(map[string]any)
			if e["status"] != "422" || !strings.Contains(detail, tc.wantDetail) || src["pointer"] != tc.wantPointer {
				t.Errorf("error %v; want detail containing %q at %s", e, tc.wantDetail, tc.wantPointer)
			}
		})
	}
	// None of them changed the version.
	_, doc := rawDo(t, w, http.MethodGet, "/api/v2/organizations/acme/registry-modules/private/acme/network/aws/version?module_version=1.0.0", "")
	if d := doc["data"].(map[string]any)["relationships"].(map[string]any)["deprecation"].(map[string]any); d["data"] != nil {
		t.Errorf("a rejected request deprecated the version: %v", d)
	}
}

// TestModuleDeprecation_persisted checks that a deprecation survives a
// restart on the same --data snapshot.
func TestModuleDeprecation_persisted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "state.json")
	opts := sandbox.Options{Token: "admin-token", DataFile: file}
	w := newWorldWith(t, opts)
	admin := w.admin
	mod := w.module(t, "network", "aws", "1.0.0")
	if _, err := setDeprecation(ctx, admin, mod, "1.0.0", deprecationBody{Status: "Deprecated", Reason: "old", Link: "https://example.com"}); err != nil {
		t.Fatal(err)
	}

	second := sandbox.StartWithOptions(t, opts)
	read, err := readVersion(ctx, client(t, second, second.Token), mod, "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if read.Deprecation == nil || read.Deprecation.Reason != "old" || read.Deprecation.Link != "https://example.com" {
		t.Errorf("after restart: %+v", read.Deprecation)
	}
}

// TestModuleDeprecation_seed deprecates the version the quickstart names
// with the seed's own variables and token.
func TestModuleDeprecation_seed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	inst := sandbox.Start(t)
	vars, err := inst.Server.Seed("demo")
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, v := range vars {
		env[v.Env] = v.Value
	}
	org := env["TFE_ORGANIZATION"]
	mod := tfe.RegistryModuleID{Organization: org, Namespace: org, Name: env["TF_VAR_deprecation_module_name"], Provider: env["TF_VAR_deprecation_module_provider"]}
	version := env["TF_VAR_deprecation_module_version"]
	if mod.Name != "network" || mod.Provider != "aws" || version != "1.0.0" {
		t.Fatalf("seed variables: %v", env)
	}
	c := client(t, inst, env["TFE_TOKEN"])
	if _, err := setDeprecation(ctx, c, mod, version, deprecationBody{Status: "Deprecated", Reason: "demo"}); err != nil {
		t.Fatalf("deprecating the seeded version: %v", err)
	}
	if read, err := readVersion(ctx, c, mod, version); err != nil || read.Deprecation == nil || read.Deprecation.Reason != "demo" {
		t.Errorf("read: %+v, %v", read, err)
	}
}
