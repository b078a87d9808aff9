package sandbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// tvCreate makes an env test variable with go-tfe.
func tvCreate(t *testing.T, c *tfe.Client, mod tfe.RegistryModuleID, key, value string, sensitive bool) *tfe.Variable {
	t.Helper()
	v, err := c.TestVariables.Create(context.Background(), mod, tfe.VariableCreateOptions{
		Key: tfe.String(key), Value: tfe.String(value), Category: tfe.Category(tfe.CategoryEnv), Sensitive: tfe.Bool(sensitive),
	})
	if err != nil {
		t.Fatalf("create %s: %v", key, err)
	}
	return v
}

func tvPath(mod tfe.RegistryModuleID, rest ...string) string {
	p := "/api/v2/organizations/" + mod.Organization + "/tests/registry-modules/private/" + mod.Namespace + "/" + mod.Name + "/" + mod.Provider + "/vars"
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// tvRaw sends what go-tfe cannot (or checks what it cannot see: status
// codes, nulls) with the admin token, and decodes the answer.
func tvRaw(t *testing.T, w *world, method, path, body string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, w.inst.URL+path, strings.NewReader(body))
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
	var doc map[string]any
	if resp.StatusCode != http.StatusNoContent {
		if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.api+json" {
			t.Errorf("%s %s: Content-Type %q", method, path, ct)
		}
		if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
			t.Fatalf("%s %s: decoding: %v", method, path, err)
		}
	}
	return resp.StatusCode, doc
}

// tvError returns the one error object's detail and pointer.
func tvError(doc map[string]any) (detail, pointer string) {
	errs, _ := doc["errors"].([]any)
	if len(errs) != 1 {
		return "", ""
	}
	e, _ := errs[0].(map[string]any)
	detail, _ = e["detail"].(string)
	if src, ok := e["source"].(map[string]any); ok {
		pointer, _ = src["pointer"].(string)
	}
	return detail, pointer
}

func TestModuleTestVariables_lifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")

	created, err := w.owner.TestVariables.Create(ctx, mod, tfe.VariableCreateOptions{
		Key: tfe.String("AWS_REGION"), Value: tfe.String("eu-west-1"), Description: tfe.String("region"), Category: tfe.Category(tfe.CategoryEnv),
	})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if !strings.HasPrefix(created.ID, "var-") || created.Key != "AWS_REGION" || created.Value != "eu-west-1" || created.Description != "region" ||
		created.Category != tfe.CategoryEnv || created.HCL || created.Sensitive || created.VersionID == "" {
		t.Fatalf("create returned %+v", created)
	}
	if created.Workspace != nil {
		t.Errorf("create returned a configurable relationship: %+v", created.Workspace)
	}

	read, err := w.owner.TestVariables.Read(ctx, mod, created.ID)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if *read != *created {
		t.Errorf("read = %+v, want %+v", read, created)
	}

	list, err := w.owner.TestVariables.List(ctx, mod, nil)
	if err != nil {
		t.Fatalf("list: %v", err)
	}
	if len(list.Items) != 1 || *list.Items[0] != *created || list.CurrentPage != 1 || list.TotalCount != 1 {
		t.Errorf("list = %d items (%+v), pagination %+v", len(list.Items), list.Items, list.Pagination)
	}

	// An empty update changes nothing but the version.
	same, err := w.owner.TestVariables.Update(ctx, mod, created.ID, tfe.VariableUpdateOptions{})
	if err != nil {
		t.Fatalf("empty update: %v", err)
	}
	if same.VersionID == created.VersionID {
		t.Errorf("empty update kept version-id %s", same.VersionID)
	}
	same.VersionID = created.VersionID
	if *same != *created {
		t.Errorf("empty update = %+v, want %+v", same, created)
	}

	updated, err := w.owner.TestVariables.Update(ctx, mod, created.ID, tfe.VariableUpdateOptions{
		Key: tfe.String("_REGION2"), Value: tfe.String("us-east-1"), Description: tfe.String(""), HCL: tfe.Bool(true), Category: tfe.Category(tfe.CategoryEnv),
	})
	if err != nil {
		t.Fatalf("update: %v", err)
	}
	if updated.Key != "_REGION2" || updated.Value != "us-east-1" || updated.Description != "" || !updated.HCL ||
		updated.VersionID == created.VersionID || updated.VersionID == same.VersionID {
		t.Errorf("update returned %+v", updated)
	}
	// An empty value is a value.
	emptied, err := w.owner.TestVariables.Update(ctx, mod, created.ID, tfe.VariableUpdateOptions{Value: tfe.String("")})
	if err != nil || emptied.Value != "" || emptied.Key != "_REGION2" || !emptied.HCL {
		t.Errorf("update to an empty value: %+v, %v", emptied, err)
	}
	if read, err := w.owner.TestVariables.Read(ctx, mod, created.ID); err != nil || *read != *emptied {
		t.Errorf("read after update = %+v, %v; want %+v", read, err, emptied)
	}

	if err := w.owner.TestVariables.Delete(ctx, mod, created.ID); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := w.owner.TestVariables.Read(ctx, mod, created.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after delete: %v, want ErrResourceNotFound", err)
	}
	if err := w.owner.TestVariables.Delete(ctx, mod, created.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second delete: %v, want ErrResourceNotFound", err)
	}
	if _, err := w.owner.TestVariables.Update(ctx, mod, created.ID, tfe.VariableUpdateOptions{}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("update after delete: %v, want ErrResourceNotFound", err)
	}
}

// TestModuleTestVariables_wireFormat checks the statuses and members that
// go-tfe does not show.
func TestModuleTestVariables_wireFormat(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")
	before := time.Now().UTC().Add(-time.Second)

	status, doc := tvRaw(t, w, "POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":"TOKEN","value":"s3cret","category":"env","sensitive":true}}}`)
	if status != http.StatusCreated {
		t.Fatalf("create: %d %v", status, doc)
	}
	data := doc["data"].(map[string]any)
	id := data["id"].(string)
	attrs := data["attributes"].(map[string]any)
	want := []string{"category", "created-at", "description", "hcl", "key", "sensitive", "value", "version-id"}
	if got := keys(attrs); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("attributes %v, want %v", got, want)
	}
	if v, ok := attrs["value"]; !ok || v != nil {
		t.Errorf("value of a sensitive variable = %#v, want null", v)
	}
	if attrs["description"] != "" || attrs["hcl"] != false || attrs["sensitive"] != true || attrs["category"] != "env" {
		t.Errorf("defaults: %v", attrs)
	}
	created, err := time.Parse("2006-01-02T15:04:05.000Z", attrs["created-at"].(string))
	if err != nil || created.Before(before) {
		t.Errorf("created-at %v (%v)", attrs["created-at"], err)
	}
	if links := data["links"].(map[string]any); links["self"] != "/api/v2/vars/"+id {
		t.Errorf("links = %v", links)
	}
	if _, ok := data["relationships"]; ok {
		t.Errorf("relationships = %v, want none", data["relationships"])
	}

	for _, path := range []string{tvPath(mod, id), tvPath(mod)} {
		status, doc := tvRaw(t, w, "GET", path, "")
		if status != http.StatusOK {
			t.Fatalf("GET %s: %d", path, status)
		}
		d := doc["data"]
		if l, ok := d.([]any); ok {
			d = l[0]
			pag := doc["meta"].(map[string]any)["pagination"].(map[string]any)
			if pag["current-page"] != float64(1) || pag["total-count"] != float64(1) || pag["total-pages"] != float64(1) || pag["next-page"] != nil {
				t.Errorf("pagination %v", pag)
			}
		}
		if v, ok := d.(map[string]any)["attributes"].(map[string]any)["value"]; !ok || v != nil {
			t.Errorf("GET %s: value = %#v, want null", path, v)
		}
	}

	status, doc = tvRaw(t, w, "PATCH", tvPath(mod, id), `{"data":{"type":"vars","attributes":{"value":"rotated"}}}`)
	if status != http.StatusOK || doc["data"].(map[string]any)["attributes"].(map[string]any)["value"] != nil {
		t.Errorf("update of a sensitive value: %d %v", status, doc)
	}
	if status, _ := tvRaw(t, w, "DELETE", tvPath(mod, id), ""); status != http.StatusNoContent {
		t.Errorf("delete: %d", status)
	}
}

func TestModuleTestVariables_sensitive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")

	secret := tvCreate(t, w.owner, mod, "SECRET", "hunter2", true)
	if secret.Value != "" || !secret.Sensitive {
		t.Errorf("create returned %+v", secret)
	}
	if r, err := w.owner.TestVariables.Read(ctx, mod, secret.ID); err != nil || r.Value != "" {
		t.Errorf("read: %+v, %v", r, err)
	}
	if l, err := w.owner.TestVariables.List(ctx, mod, nil); err != nil || l.Items[0].Value != "" {
		t.Errorf("list: %+v, %v", l, err)
	}

	// Made sensitive by an update: hidden from then on.
	plain := tvCreate(t, w.owner, mod, "PLAIN", "visible", false)
	if plain.Value != "visible" {
		t.Fatalf("plain create returned %+v", plain)
	}
	hidden, err := w.owner.TestVariables.Update(ctx, mod, plain.ID, tfe.VariableUpdateOptions{Sensitive: tfe.Bool(true)})
	if err != nil || hidden.Value != "" || !hidden.Sensitive || hidden.VersionID == plain.VersionID {
		t.Errorf("making it sensitive: %+v, %v", hidden, err)
	}

	tests := map[string]struct {
		opts     tfe.VariableUpdateOptions
		wantErr  string // "" for success
		wantAttr string
	}{
		"new value":               {opts: tfe.VariableUpdateOptions{Value: tfe.String("rotated")}},
		"new description":         {opts: tfe.VariableUpdateOptions{Description: tfe.String("rotated monthly")}},
		"same key, still true":    {opts: tfe.VariableUpdateOptions{Key: tfe.String("SECRET"), Sensitive: tfe.Bool(true), HCL: tfe.Bool(false)}},
		"back to non-sensitive":   {opts: tfe.VariableUpdateOptions{Sensitive: tfe.Bool(false)}, wantErr: "sensitive cannot be changed from true to false", wantAttr: "sensitive"},
		"renamed":                 {opts: tfe.VariableUpdateOptions{Key: tfe.String("OTHER")}, wantErr: "key cannot be updated for a sensitive variable", wantAttr: "key"},
		"hcl flipped":             {opts: tfe.VariableUpdateOptions{HCL: tfe.Bool(true)}, wantErr: "hcl cannot be updated for a sensitive variable", wantAttr: "hcl"},
		"renamed with a value":    {opts: tfe.VariableUpdateOptions{Key: tfe.String("OTHER"), Value: tfe.String("x")}, wantErr: "key cannot be updated", wantAttr: "key"},
		"unsensitive and renamed": {opts: tfe.VariableUpdateOptions{Key: tfe.String("OTHER"), Sensitive: tfe.Bool(false)}, wantErr: "sensitive cannot be changed", wantAttr: "sensitive"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			// Each case on its own variable: a failed update must change nothing.
			v := tvCreate(t, w.owner, mod, strings.ToUpper(strings.NewReplacer(" ", "_", ",", "", "-", "_").Replace(name)), "hunter2", true)
			opts := tc.opts
			if opts.Key != nil && *opts.Key == "SECRET" {
				opts.Key = tfe.String(v.Key)
			}
			got, err := w.owner.TestVariables.Update(ctx, mod, v.ID, opts)
			if tc.wantErr == "" {
				if err != nil || got.Value != "" || !got.Sensitive {
					t.Errorf("update: %+v, %v", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
			after, err := w.owner.TestVariables.Read(ctx, mod, v.ID)
			if err != nil || after.Key != v.Key || !after.Sensitive || after.HCL || after.VersionID != v.VersionID {
				t.Errorf("after a refused update: %+v, %v; want unchanged %+v", after, err, v)
			}
		})
	}
	// One raw request: the status and the pointer naming the attribute.
	status, doc := tvRaw(t, w, "PATCH", tvPath(mod, secret.ID), `{"data":{"type":"vars","attributes":{"sensitive":false}}}`)
	if detail, pointer := tvError(doc); status != http.StatusUnprocessableEntity || pointer != "/data/attributes/sensitive" || !strings.Contains(detail, "sensitive") {
		t.Errorf("sensitive to false: %d %v", status, doc)
	}
}

func TestModuleTestVariables_invalid(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")
	existing := tvCreate(t, w.owner, mod, "TAKEN", "x", false)
	other := tvCreate(t, w.owner, mod, "OTHER", "x", false)
	long := strings.Repeat("d", 513)

	creates := map[string]struct {
		opts     tfe.VariableCreateOptions
		wantAttr string
		wantErr  string
	}{
		"key starts with a digit": {tfe.VariableCreateOptions{Key: tfe.String("1ABC")}, "key", `key must begin with a letter or an underscore and contain only letters, numbers and underscores, got "1ABC"`},
		"key with a dash":         {tfe.VariableCreateOptions{Key: tfe.String("MY-KEY")}, "key", `got "MY-KEY"`},
		"key with a space":        {tfe.VariableCreateOptions{Key: tfe.String("MY KEY")}, "key", `got "MY KEY"`},
		"key with a dot":          {tfe.VariableCreateOptions{Key: tfe.String("a.b")}, "key", `got "a.b"`},
		"key not ASCII":           {tfe.VariableCreateOptions{Key: tfe.String("ÄPFEL")}, "key", `got "ÄPFEL"`},
		"key taken":               {tfe.VariableCreateOptions{Key: tfe.String("TAKEN")}, "key", `key "TAKEN" has already been taken`},
		"terraform category":      {tfe.VariableCreateOptions{Key: tfe.String("A"), Category: tfe.Category(tfe.CategoryTerraform)}, "category", `category must be "env" (test variables are environment variables), got "terraform"`},
		"policy-set category":     {tfe.VariableCreateOptions{Key: tfe.String("A"), Category: tfe.Category(tfe.CategoryPolicySet)}, "category", `got "policy-set"`},
		"description too long":    {tfe.VariableCreateOptions{Key: tfe.String("A"), Description: tfe.String(long)}, "description", "description is too long (maximum is 512 characters, got 513)"},
	}
	for name, tc := range creates {
		t.Run("create/"+name, func(t *testing.T) {
			t.Parallel()
			opts := tc.opts
			if opts.Category == nil {
				opts.Category = tfe.Category(tfe.CategoryEnv)
			}
			_, err := w.owner.TestVariables.Create(ctx, mod, opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}

	updates := map[string]struct {
		opts    tfe.VariableUpdateOptions
		wantErr string
	}{
		"key taken":            {tfe.VariableUpdateOptions{Key: tfe.String("TAKEN")}, `key "TAKEN" has already been taken`},
		"key invalid":          {tfe.VariableUpdateOptions{Key: tfe.String("9LIVES"), Value: tfe.String("changed")}, `got "9LIVES"`},
		"terraform category":   {tfe.VariableUpdateOptions{Category: tfe.Category(tfe.CategoryTerraform)}, `category must be "env"`},
		"description too long": {tfe.VariableUpdateOptions{Description: tfe.String(long), Value: tfe.String("changed")}, "description is too long"},
	}
	for name, tc := range updates {
		t.Run("update/"+name, func(t *testing.T) {
			t.Parallel()
			_, err := w.owner.TestVariables.Update(ctx, mod, other.ID, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err = %v, want %q", err, tc.wantErr)
			}
		})
	}

	valid := map[string]tfe.VariableCreateOptions{
		"underscore first":              {Key: tfe.String("_private")},
		"lower case with digits":        {Key: tfe.String("tf_var_x1")},
		"same key in another case":      {Key: tfe.String("taken")},
		"512-character description":     {Key: tfe.String("D512"), Description: tfe.String(strings.Repeat("d", 512))},
		"512 multi-byte characters":     {Key: tfe.String("D512_UTF8"), Description: tfe.String(strings.Repeat("é", 512))},
		"no value: an empty string":     {Key: tfe.String("NO_VALUE")},
		"hcl round-trips on create":     {Key: tfe.String("HCL"), Value: tfe.String(`{ a = 1 }`), HCL: tfe.Bool(true)},
		"empty description and value":   {Key: tfe.String("EMPTY"), Value: tfe.String(""), Description: tfe.String("")},
		"single letter":                 {Key: tfe.String("X")},
		"sensitive with an empty value": {Key: tfe.String("EMPTY_SECRET"), Value: tfe.String(""), Sensitive: tfe.Bool(true)},
	}
	for name, opts := range valid {
		t.Run("valid/"+name, func(t *testing.T) {
			t.Parallel()
			opts.Category = tfe.Category(tfe.CategoryEnv)
			v, err := w.owner.TestVariables.Create(ctx, mod, opts)
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			wantValue := ""
			if opts.Value != nil && (opts.Sensitive == nil || !*opts.Sensitive) {
				wantValue = *opts.Value
			}
			if v.Key != *opts.Key || v.Value != wantValue || v.HCL != (opts.HCL != nil && *opts.HCL) ||
				(opts.Description != nil && v.Description != *opts.Description) {
				t.Errorf("create returned %+v", v)
			}
		})
	}

	// Raw requests: what go-tfe refuses to send, with the status and the
	// pointer that names the attribute.
	raws := map[string]struct {
		method, path, body string
		status             int
		pointer, detail    string
	}{
		"no key":          {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"category":"env"}}}`, 422, "/data/attributes/key", "key is required"},
		"blank key":       {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":" ","category":"env"}}}`, 422, "/data/attributes/key", "key is required"},
		"no category":     {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":"A"}}}`, 422, "/data/attributes/category", `category is required and must be "env"`},
		"value not text":  {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":"A","category":"env","value":1}}}`, 422, "/data/attributes/value", "value must be a string"},
		"sensitive text":  {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":"A","category":"env","sensitive":"yes"}}}`, 422, "/data/attributes/sensitive", "sensitive must be a boolean"},
		"wrong type":      {"POST", tvPath(mod), `{"data":{"type":"variables","attributes":{"key":"A","category":"env"}}}`, 422, "/data/type", `data.type must be "vars"`},
		"no data":         {"POST", tvPath(mod), `{}`, 422, "/data", "data is required"},
		"null key update": {"PATCH", tvPath(mod, other.ID), `{"data":{"type":"vars","attributes":{"key":""}}}`, 422, "/data/attributes/key", "key is required"},
		"id mismatch":     {"PATCH", tvPath(mod, other.ID), `{"data":{"type":"vars","id":"` + existing.ID + `","attributes":{"value":"y"}}}`, 409, "/data/id", "does not match"},
		"taken, raw":      {"POST", tvPath(mod), `{"data":{"type":"vars","attributes":{"key":"TAKEN","category":"env"}}}`, 422, "/data/attributes/key", "already been taken"},
	}
	for name, tc := range raws {
		t.Run("raw/"+name, func(t *testing.T) {
			t.Parallel()
			status, doc := tvRaw(t, w, tc.method, tc.path, tc.body)
			detail, pointer := tvError(doc)
			if status != tc.status || pointer != tc.pointer || !strings.Contains(detail, tc.detail) {
				t.Errorf("got %d %q %q, want %d %q %q", status, pointer, detail, tc.status, tc.pointer, tc.detail)
			}
		})
	}

	t.Cleanup(func() {
		// The refused updates changed nothing.
		got, err := w.owner.TestVariables.Read(ctx, mod, other.ID)
		if err != nil || got.Key != "OTHER" || got.Value != "x" || got.VersionID != other.VersionID {
			t.Errorf("after refused updates: %+v, %v; want unchanged %+v", got, err, other)
		}
	})
}

func TestModuleTestVariables_pagination(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")
	for i := range 45 {
		tvCreate(t, w.owner, mod, fmt.Sprintf("V%02d", i), "x", false)
	}
	tests := map[string]struct {
		opts                    *tfe.VariableListOptions
		items, page, next, prev int
		pages                   int
		first                   string
	}{
		"default page of 20": {opts: nil, items: 20, page: 1, next: 2, pages: 3, first: "V00"},
		"second page":        {opts: &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageNumber: 2}}, items: 20, page: 2, next: 3, prev: 1, pages: 3, first: "V20"},
		"last partial page":  {opts: &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageNumber: 3}}, items: 5, page: 3, prev: 2, pages: 3, first: "V40"},
		"page size 100":      {opts: &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageSize: 100}}, items: 45, page: 1, pages: 1, first: "V00"},
		"past the end":       {opts: &tfe.VariableListOptions{ListOptions: tfe.ListOptions{PageNumber: 999, PageSize: 100}}, items: 0, page: 999, pages: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			l, err := w.owner.TestVariables.List(ctx, mod, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Items) != tc.items || l.CurrentPage != tc.page || l.NextPage != tc.next || l.PreviousPage != tc.prev || l.TotalCount != 45 || l.TotalPages != tc.pages {
				t.Errorf("got %d items, pagination %+v", len(l.Items), *l.Pagination)
			}
			if tc.first != "" && l.Items[0].Key != tc.first {
				t.Errorf("first item %q, want %q", l.Items[0].Key, tc.first)
			}
		})
	}
}

func TestModuleTestVariables_authorization(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")
	v := tvCreate(t, w.owner, mod, "KEY", "x", false)

	ownersTeam, err := w.owner.Teams.List(ctx, w.org, &tfe.TeamListOptions{Names: []string{"owners"}})
	if err != nil || len(ownersTeam.Items) != 1 {
		t.Fatalf("owners team: %+v, %v", ownersTeam, err)
	}
	allAccess := w.team(t, "managers", &tfe.OrganizationAccessOptions{ManageModules: tfe.Bool(true), ManagePolicies: tfe.Bool(true), ManageWorkspaces: tfe.Bool(true)})

	clients := map[string]struct {
		c       *tfe.Client
		allowed bool
	}{
		"admin":                 {w.admin, true},
		"owner":                 {w.owner, true},
		"owners team token":     {w.teamClient(t, ownersTeam.Items[0]), true},
		"member of the owners":  {w.member(t, "second-owner@acme.test", ownersTeam.Items[0]), true},
		"organization token":    {w.orgClient(t), false},
		"manage-modules member": {w.member(t, "dev@acme.test", allAccess), false},
		"manage-modules token":  {w.teamClient(t, allAccess), false},
	}
	for name, tc := range clients {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			check := func(op string, err error) {
				t.Helper()
				if tc.allowed && err != nil {
					t.Errorf("%s: %v", op, err)
				}
				if !tc.allowed && !errors.Is(err, tfe.ErrResourceNotFound) {
					t.Errorf("%s: err = %v, want ErrResourceNotFound", op, err)
				}
			}
			_, err := tc.c.TestVariables.List(ctx, mod, nil)
			check("list", err)
			_, err = tc.c.TestVariables.Read(ctx, mod, v.ID)
			check("read", err)
			_, err = tc.c.TestVariables.Update(ctx, mod, v.ID, tfe.VariableUpdateOptions{})
			check("update", err)
			created, err := tc.c.TestVariables.Create(ctx, mod, tfe.VariableCreateOptions{
				Key: tfe.String(strings.NewReplacer(" ", "_", "-", "_").Replace(name)), Category: tfe.Category(tfe.CategoryEnv),
			})
			check("create", err)
			if err == nil {
				check("delete", tc.c.TestVariables.Delete(ctx, mod, created.ID))
			} else {
				check("delete", tc.c.TestVariables.Delete(ctx, mod, v.ID))
			}
		})
	}

	t.Run("paths", func(t *testing.T) {
		t.Parallel()
		other := w.module(t, "dns", "aws")
		otherVar := tvCreate(t, w.owner, other, "KEY", "y", false) // the same key in another module
		wrong := map[string]struct {
			mod tfe.RegistryModuleID
			id  string
		}{
			"variable of another module":  {mod, otherVar.ID},
			"missing module":              {tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "nope", Provider: "aws", RegistryName: tfe.PrivateRegistry}, v.ID},
			"namespace is not the org":    {tfe.RegistryModuleID{Organization: w.org, Namespace: "hashicorp", Name: "vpc", Provider: "aws", RegistryName: tfe.PrivateRegistry}, v.ID},
			"another provider":            {tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "vpc", Provider: "gcp", RegistryName: tfe.PrivateRegistry}, v.ID},
			"missing variable":            {mod, "var-doesnotexist12"},
			"missing organization":        {tfe.RegistryModuleID{Organization: "nope", Namespace: "nope", Name: "vpc", Provider: "aws", RegistryName: tfe.PrivateRegistry}, v.ID},
			"variable of this module, ok": {mod, v.ID},
		}
		for name, tc := range wrong {
			_, err := w.owner.TestVariables.Read(ctx, tc.mod, tc.id)
			if name == "variable of this module, ok" {
				if err != nil {
					t.Errorf("%s: %v", name, err)
				}
				continue
			}
			if !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("%s: read err = %v, want ErrResourceNotFound", name, err)
			}
			if err := w.owner.TestVariables.Delete(ctx, tc.mod, tc.id); !errors.Is(err, tfe.ErrResourceNotFound) {
				t.Errorf("%s: delete err = %v, want ErrResourceNotFound", name, err)
			}
		}
		if _, err := w.owner.TestVariables.List(ctx, tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: "nope", Provider: "aws", RegistryName: tfe.PrivateRegistry}, nil); !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("list of a missing module: %v", err)
		}
	})
}

// TestModuleTestVariables_moduleDeleted: deleting a module deletes its
// variables; a new module of the same name starts with none.
func TestModuleTestVariables_moduleDeleted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	mod := w.module(t, "vpc", "aws")
	keep := w.module(t, "dns", "aws")
	tvCreate(t, w.owner, mod, "A", "x", false)
	kept := tvCreate(t, w.owner, keep, "A", "x", false)
	if err := w.owner.RegistryModules.DeleteProvider(ctx, mod); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.TestVariables.List(ctx, mod, nil); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("list of the deleted module: %v", err)
	}
	mod = w.module(t, "vpc", "aws")
	if l, err := w.owner.TestVariables.List(ctx, mod, nil); err != nil || len(l.Items) != 0 || l.TotalCount != 0 {
		t.Errorf("list of the new module: %+v, %v", l, err)
	}
	if l, err := w.owner.TestVariables.List(ctx, keep, nil); err != nil || len(l.Items) != 1 || l.Items[0].ID != kept.ID {
		t.Errorf("variables of the other module: %+v, %v", l, err)
	}
}

// TestModuleTestVariables_persisted: variables survive a restart on the
// same --data snapshot.
func TestModuleTestVariables_persisted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "state.json")
	opts := sandbox.Options{Token: "admin-token", DataFile: file}
	w := newWorldWith(t, opts)
	admin := w.admin
	mod := w.module(t, "vpc", "aws")
	plain := tvCreate(t, admin, mod, "PLAIN", "visible", false)
	secret := tvCreate(t, admin, mod, "SECRET", "hidden", true)

	second := sandbox.StartWithOptions(t, opts)
	l, err := client(t, second, second.Token).TestVariables.List(ctx, mod, nil)
	if err != nil || len(l.Items) != 2 || *l.Items[0] != *plain || *l.Items[1] != *secret {
		t.Errorf("after restart: %+v, %v", l, err)
	}
}
