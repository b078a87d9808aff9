package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

func TestPolicySets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("baseline"), Kind: tfe.OPA})
	if err != nil {
		t.Fatal(err)
	}
	// OPA sets run in an agent: agent-enabled, overridable false, the latest tool.
	if !strings.HasPrefix(ps.ID, "polset-") || ps.Kind != tfe.OPA || !ps.AgentEnabled || ps.Overridable == nil || *ps.Overridable ||
		ps.PolicyToolVersion != "latest" || ps.TagSelectorMatchingLogic != nil {
		t.Errorf("created %+v", ps)
	}
	if _, err := w.owner.PolicySets.Read(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.PolicySets.Read(ctx, ps.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("member without manage-policies read a policy set: %v", err)
	}

	// A Sentinel set shows overridable and its tool version only while it runs in an agent.
	sen, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("agent"), AgentEnabled: tfe.Bool(true),
		PolicyToolVersion: tfe.String("0.23.0"), Overridable: tfe.Bool(true), PolicyUpdatePatterns: []string{"*.sentinel"}})
	if err != nil || sen.Kind != tfe.Sentinel || !sen.AgentEnabled || sen.PolicyToolVersion != "0.23.0" || sen.Overridable == nil || !*sen.Overridable ||
		!slices.Equal(sen.PolicyUpdatePatterns, []string{"*.sentinel"}) {
		t.Fatalf("sentinel agent set %+v, %v", sen, err)
	}
	sen, err = w.owner.PolicySets.Update(ctx, sen.ID, tfe.PolicySetUpdateOptions{AgentEnabled: tfe.Bool(false), Name: tfe.String("renamed"),
		Description: tfe.String("all"), Global: tfe.Bool(true)})
	if err != nil || sen.AgentEnabled || sen.PolicyToolVersion != "" || sen.Overridable != nil || sen.Name != "renamed" || sen.Description != "all" || !sen.Global {
		t.Errorf("update %+v, %v", sen, err)
	}

	// The rules, each a 422 naming the attribute, changing nothing.
	_, err = w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("baseline")})
	want422(t, err, "already been taken")
	// A pin on a set that does not run in an agent is kept, and shown once it does.
	pinned, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("pinned"), PolicyToolVersion: tfe.String("0.23.0")})
	if err != nil || pinned.PolicyToolVersion != "" || pinned.AgentEnabled {
		t.Errorf("pinned without an agent: %+v, %v", pinned, err)
	}
	if pinned, err = w.owner.PolicySets.Update(ctx, pinned.ID, tfe.PolicySetUpdateOptions{AgentEnabled: tfe.Bool(true)}); err != nil || pinned.PolicyToolVersion != "0.23.0" {
		t.Errorf("pinned with an agent: %+v, %v", pinned, err)
	}
	_, err = w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("badpin"), PolicyToolVersion: tfe.String("newest")})
	want422(t, err, "policy-tool-version")
	if err := w.owner.PolicySets.Delete(ctx, pinned.ID); err != nil {
		t.Fatal(err)
	}
	_, err = w.owner.PolicySets.Update(ctx, ps.ID, tfe.PolicySetUpdateOptions{Name: tfe.String("renamed")})
	want422(t, err, "already been taken")
	r := policyRaw(t, w, http.MethodPatch, "/api/v2/policy-sets/"+ps.ID, `{"data":{"type":"policy-sets","attributes":{"kind":"sentinel"}}}`)
	if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "kind cannot be changed") {
		t.Errorf("kind change: %d %s", r.Status, r.Body)
	}
	_, err = w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("vcs"), VCSRepo: &tfe.VCSRepoOptions{Identifier: tfe.String("a/b")}})
	want422(t, err, "vcs-repo")

	// List: search, kind, versioned, paging.
	for _, c := range []struct {
		opts *tfe.PolicySetListOptions
		want []string
	}{
		{nil, []string{"baseline", "renamed"}},
		{&tfe.PolicySetListOptions{Search: "BASE"}, []string{"baseline"}},
		{&tfe.PolicySetListOptions{Kind: tfe.Sentinel}, []string{"renamed"}},
		{&tfe.PolicySetListOptions{ListOptions: tfe.ListOptions{PageNumber: 2, PageSize: 1}}, []string{"renamed"}},
	} {
		l, err := w.owner.PolicySets.List(ctx, w.org, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, it := range l.Items {
			got = append(got, it.Name)
		}
		if !slices.Equal(got, c.want) || l.TotalCount != 2 && c.opts != nil && c.opts.PageSize == 1 {
			t.Errorf("list %+v: %v (total %d), want %v", c.opts, got, l.TotalCount, c.want)
		}
	}
	if _, err := w.owner.PolicySetVersions.Create(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]string{"true": "baseline", "false": "renamed"} {
		res := policyRaw(t, w, http.MethodGet, "/api/v2/organizations/acme/policy-sets?filter%5Bversioned%5D="+v, "")
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"name":"`+want+`"`) || strings.Count(string(res.Body), `"type":"policy-sets"`) != 1 {
			t.Errorf("filter[versioned]=%s: %d %s", v, res.Status, res.Body)
		}
	}
	if res := policyRaw(t, w, http.MethodGet, "/api/v2/policy-sets/"+ps.ID+"?include=runs", ""); res.Status != http.StatusBadRequest {
		t.Errorf("unknown include: %d", res.Status)
	}

	if err := w.owner.PolicySets.Delete(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.PolicySets.Read(ctx, ps.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read after delete: %v", err)
	}
}

// TestPolicySets_scope attaches, excludes and selects workspaces through
// every scope endpoint, and checks the sets' relationships, the includes and
// the scope function after each step.
func TestPolicySets_scope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws := map[string]*tfe.Workspace{}
	for _, n := range []string{"app", "db", "web", "ops"} {
		opts := tfe.WorkspaceCreateOptions{Name: tfe.String(n)}
		if n == "web" || n == "db" {
			opts.Tags = []*tfe.Tag{{Name: "prod"}}
		}
		if n == "db" {
			opts.Tags = append(opts.Tags, &tfe.Tag{Name: "tier:data"})
		}
		created, err := w.owner.Workspaces.Create(ctx, w.org, opts)
		if err != nil {
			t.Fatal(err)
		}
		ws[n] = created
	}
	names := func(ids []string) []string {
		var out []string
		for _, id := range ids {
			for n, x := range ws {
				if x.ID == id {
					out = append(out, n)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	governs := func(t *testing.T, step, id string, want ...string) {
		t.Helper()
		got, ok := w.inst.Server.GovernedWorkspaces(id)
		if !ok || !slices.Equal(names(got), want) {
			t.Errorf("%s: governs %v, want %v", step, names(got), want)
		}
	}
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}

	set, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("explicit"),
		Workspaces: []*tfe.Workspace{ws["app"]}, WorkspaceExclusions: []*tfe.Workspace{ws["ops"]}})
	must("create", err)
	if set.WorkspaceCount != 1 || len(set.Workspaces) != 1 || len(set.WorkspaceExclusions) != 1 {
		t.Errorf("created %+v", set)
	}
	governs(t, "create", set.ID, "app")
	must("add workspaces", w.owner.PolicySets.AddWorkspaces(ctx, set.ID, tfe.PolicySetAddWorkspacesOptions{Workspaces: []*tfe.Workspace{ws["db"], ws["ops"]}}))
	governs(t, "attach db and ops (ops excluded)", set.ID, "app", "db")
	must("remove exclusion", w.owner.PolicySets.RemoveWorkspaceExclusions(ctx, set.ID, tfe.PolicySetRemoveWorkspaceExclusionsOptions{WorkspaceExclusions: []*tfe.Workspace{ws["ops"]}}))
	governs(t, "re-include ops", set.ID, "app", "db", "ops")
	must("remove workspaces", w.owner.PolicySets.RemoveWorkspaces(ctx, set.ID, tfe.PolicySetRemoveWorkspacesOptions{Workspaces: []*tfe.Workspace{ws["app"]}}))
	governs(t, "detach app", set.ID, "db", "ops")

	// Tag selectors: inclusion by any or all, exclusion on a global set.
	must("add selectors", w.owner.PolicySets.AddTagSelectors(ctx, set.ID, tfe.PolicySetAddTagSelectorsOptions{TagSelectors: []*tfe.PolicySetTagSelector{
		{Key: "prod"}, {Key: "tier", Value: tfe.String("data")}}}))
	governs(t, "tags prod or tier:data", set.ID, "db", "ops", "web")
	_, err = w.owner.PolicySets.Update(ctx, set.ID, tfe.PolicySetUpdateOptions{TagSelectorMatchingLogic: tfe.NullableString("all")})
	must("match all", err)
	governs(t, "tags prod and tier:data", set.ID, "db", "ops")
	read, err := w.owner.PolicySets.ReadWithOptions(ctx, set.ID, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetWorkspaces, tfe.PolicySetWorkspaceExclusions}})
	must("read", err)
	if len(read.TagSelectors) != 2 || read.TagSelectorMatchingLogic == nil || *read.TagSelectorMatchingLogic != "all" ||
		len(read.Workspaces) != 2 || read.Workspaces[0].Name == "" || len(read.WorkspaceExclusions) != 0 {
		t.Errorf("read %+v", read)
	}

	global, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("global"), Global: tfe.Bool(true)})
	must("global", err)
	governs(t, "global", global.ID, "app", "db", "ops", "web")
	must("exclude by tag", w.owner.PolicySets.AddTagSelectors(ctx, global.ID, tfe.PolicySetAddTagSelectorsOptions{TagSelectors: []*tfe.PolicySetTagSelector{{Key: "prod", IsExclude: true}}}))
	must("exclude app", w.owner.PolicySets.AddWorkspaceExclusions(ctx, global.ID, tfe.PolicySetAddWorkspaceExclusionsOptions{WorkspaceExclusions: []*tfe.Workspace{ws["app"]}}))
	governs(t, "global minus prod minus app", global.ID, "ops")

	// The rules of a global set.
	want422(t, w.owner.PolicySets.AddWorkspaces(ctx, global.ID, tfe.PolicySetAddWorkspacesOptions{Workspaces: []*tfe.Workspace{ws["app"]}}), "global")
	want422(t, w.owner.PolicySets.AddTagSelectors(ctx, global.ID, tfe.PolicySetAddTagSelectorsOptions{TagSelectors: []*tfe.PolicySetTagSelector{{Key: "x"}}}), "only exclude")
	_, err = w.owner.PolicySets.Update(ctx, set.ID, tfe.PolicySetUpdateOptions{Global: tfe.Bool(true)})
	want422(t, err, "only exclude")
	_, err = w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("both"), Global: tfe.Bool(true), Workspaces: []*tfe.Workspace{ws["app"]}})
	want422(t, err, "global")
	want422(t, w.owner.PolicySets.AddWorkspaces(ctx, set.ID, tfe.PolicySetAddWorkspacesOptions{Workspaces: []*tfe.Workspace{{ID: "ws-doesnotexist"}}}), "not found")
	want422(t, w.owner.PolicySets.AddProjects(ctx, set.ID, tfe.PolicySetAddProjectsOptions{Projects: []*tfe.Project{{ID: "prj-doesnotexist"}}}), "project")
	want422(t, w.owner.PolicySets.AddProjectExclusions(ctx, global.ID, tfe.PolicySetAddProjectExclusionsOptions{ProjectExclusions: []*tfe.Project{{ID: "prj-doesnotexist"}}}), "project")
	want422(t, w.owner.PolicySets.RemoveProjects(ctx, set.ID, tfe.PolicySetRemoveProjectsOptions{Projects: []*tfe.Project{{ID: "prj-doesnotexist"}}}), "project")
	want422(t, w.owner.PolicySets.RemoveProjectExclusions(ctx, global.ID, tfe.PolicySetRemoveProjectExclusionsOptions{ProjectExclusions: []*tfe.Project{{ID: "prj-doesnotexist"}}}), "project")

	// Making a set global detaches its workspaces; PATCH relationships replace the lists.
	plain, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("plain"), Workspaces: []*tfe.Workspace{ws["app"]}})
	must("plain", err)
	if res := policyRaw(t, w, http.MethodPatch, "/api/v2/policy-sets/"+plain.ID,
		`{"data":{"type":"policy-sets","relationships":{"workspaces":{"data":[{"type":"workspaces","id":"`+ws["web"].ID+`"}]},"workspace-exclusions":{"data":[{"type":"workspaces","id":"`+ws["web"].ID+`"}]}}}}`); res.Status != http.StatusOK {
		t.Fatalf("patch relationships: %d %s", res.Status, res.Body)
	}
	governs(t, "patched to web, web excluded", plain.ID)
	plain, err = w.owner.PolicySets.Update(ctx, plain.ID, tfe.PolicySetUpdateOptions{Global: tfe.Bool(true)})
	must("to global", err)
	if plain.WorkspaceCount != 0 || len(plain.WorkspaceExclusions) != 1 {
		t.Errorf("made global %+v", plain)
	}
	governs(t, "global minus web", plain.ID, "app", "db", "ops")

	// Key/value tags of a workspace: a key selector matches any value, a key and value selector that value.
	tbs, err := w.owner.Workspaces.AddTagBindings(ctx, ws["app"].ID, tfe.WorkspaceAddTagBindingsOptions{TagBindings: []*tfe.TagBinding{{Key: "cost", Value: "shared"}}})
	must("tag bindings", err)
	if listed, err := w.owner.Workspaces.ListTagBindings(ctx, ws["app"].ID); err != nil || len(tbs) != 1 || len(listed) != 1 || listed[0].Key != "cost" || listed[0].Value != "shared" {
		t.Errorf("tag bindings %+v, %+v, %v", tbs, listed, err)
	}
	byKey, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("by-key"), TagSelectors: []*tfe.PolicySetTagSelector{{Key: "cost"}}})
	must("by key", err)
	governs(t, "key cost", byKey.ID, "app")
	byValue, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("by-value"), TagSelectors: []*tfe.PolicySetTagSelector{{Key: "cost", Value: tfe.String("other")}}})
	must("by value", err)
	governs(t, "cost=other", byValue.ID)
	// Made with key/value tags, inheriting its project's; the effective ones are both.
	prj, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "tagged", TagBindings: []*tfe.TagBinding{{Key: "cost", Value: "other"}, {Key: "env", Value: "prod"}}})
	must("project", err)
	tagged, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("tagged"), Project: prj, TagBindings: []*tfe.TagBinding{{Key: "cost", Value: "own"}}})
	must("tagged workspace", err)
	eff, err := w.owner.Workspaces.ListEffectiveTagBindings(ctx, tagged.ID)
	must("effective", err)
	read2, err := w.owner.Workspaces.ReadByIDWithOptions(ctx, tagged.ID, &tfe.WorkspaceReadOptions{Include: []tfe.WSIncludeOpt{tfe.WSEffectiveTagBindings}})
	must("read with effective", err)
	if len(eff) != 2 || len(read2.EffectiveTagBindings) != 2 || eff[0].Key != "env" || eff[1].Key != "cost" || eff[1].Value != "own" {
		t.Errorf("effective bindings %+v, %+v", eff, read2.EffectiveTagBindings)
	}
	ws["tagged"] = tagged
	governs(t, "cost=other, the project's value overridden", byValue.ID)
	governs(t, "key cost", byKey.ID, "app", "tagged")
	must("delete all bindings", w.owner.Workspaces.DeleteAllTagBindings(ctx, tagged.ID))
	governs(t, "cost=other, inherited again", byValue.ID, "tagged")
	delete(ws, "tagged")
	must("delete tagged", w.owner.Workspaces.DeleteByID(ctx, tagged.ID))

	// A deleted workspace leaves every set's lists.
	must("delete ops", w.owner.Workspaces.DeleteByID(ctx, ws["ops"].ID))
	read, err = w.owner.PolicySets.Read(ctx, set.ID)
	must("read", err)
	if read.WorkspaceCount != 1 || read.Workspaces[0].ID != ws["db"].ID {
		t.Errorf("after deleting ops: %+v", read.Workspaces)
	}
	must("remove selectors", w.owner.PolicySets.RemoveTagSelectors(ctx, set.ID, tfe.PolicySetRemoveTagSelectorsOptions{TagSelectors: []*tfe.PolicySetTagSelector{
		{Key: "prod"}, {Key: "tier", Value: tfe.String("data")}}}))
	if read, err = w.owner.PolicySets.Read(ctx, set.ID); err != nil || len(read.TagSelectors) != 0 || read.TagSelectorMatchingLogic != nil {
		t.Errorf("selectors removed: %+v, %v", read, err)
	}
}

// slugOf packs files into a tar.gz, as go-slug would.
func slugOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPolicySetVersions uploads good and bad content and follows each
// version from pending through ingressing to ready or errored, with the
// set's newest and current versions.
func TestPolicySetVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	opa, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("opa"), Kind: tfe.OPA})
	if err != nil {
		t.Fatal(err)
	}
	good := map[string]string{
		"policies.hcl": "policy \"deny\" {\n  query = \"data.terraform.deny\"\n  enforcement_level = \"mandatory\"\n}\n",
		"deny.rego":    "package terraform\n\ndeny contains msg if { false; msg := \"x\" }\n",
	}
	upload := func(t *testing.T, ps *tfe.PolicySet, files map[string]string) *tfe.PolicySetVersion {
		t.Helper()
		v, err := w.owner.PolicySetVersions.Create(ctx, ps.ID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Status != tfe.PolicySetVersionPending || v.Source != tfe.PolicySetVersionSourceAPI || v.PolicySet.ID != ps.ID || v.IngressAttributes != nil {
			t.Errorf("created %+v", v)
		}
		read, err := w.owner.PolicySetVersions.Read(ctx, v.ID)
		if err != nil || read.Links["upload"] != v.Links["upload"] {
			t.Fatalf("read pending %+v, %v: the upload link is shown until used", read, err)
		}
		u, _ := v.Links["upload"].(string)
		if got := putStatus(t, u, slugOf(t, files)); got != http.StatusOK {
			t.Fatalf("upload: %d", got)
		}
		return v
	}
	// waitFor polls the version until it leaves ingressing.
	waitFor := func(t *testing.T, id string) *tfe.PolicySetVersion {
		t.Helper()
		for range 100 {
			v, err := w.owner.PolicySetVersions.Read(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if v.Status != tfe.PolicySetVersionIngressing {
				return v
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Fatalf("version %s still ingressing", id)
		return nil
	}
	v1 := upload(t, opa, good)
	// The service's clock held back, the version is still ingressing however late this read comes.
	w.inst.Server.SetClockOffset(-time.Minute)
	if v, _ := w.owner.PolicySetVersions.Read(ctx, v1.ID); v.Status != tfe.PolicySetVersionIngressing || v.Links["upload"] != nil || v.StatusTimestamps.IngressingAt.IsZero() {
		t.Errorf("just uploaded: %+v", v)
	}
	w.inst.Server.SetClockOffset(0)
	if v := waitFor(t, v1.ID); v.Status != tfe.PolicySetVersionReady || v.StatusTimestamps.ReadyAt.IsZero() || v.ErrorMessage != "" {
		t.Errorf("good version: %+v", v)
	}
	v2, err := w.owner.PolicySetVersions.Create(ctx, opa.ID)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := w.owner.PolicySets.ReadWithOptions(ctx, opa.ID, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetCurrentVersion, tfe.PolicySetNewestVersion}})
	if err != nil || ps.NewestVersion == nil || ps.NewestVersion.ID != v2.ID || ps.NewestVersion.Status != tfe.PolicySetVersionPending ||
		ps.CurrentVersion == nil || ps.CurrentVersion.ID != v1.ID || ps.CurrentVersion.Status != tfe.PolicySetVersionReady {
		t.Errorf("newest and current: %+v, %v", ps, err)
	}

	// Each bad upload errors the version with its message; the current one stays.
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"no policies.hcl":  {map[string]string{"deny.rego": good["deny.rego"]}, "policies.hcl not found"},
		"bad hcl":          {map[string]string{"policies.hcl": "policy {"}, "policies.hcl"},
		"no query":         {map[string]string{"policies.hcl": `policy "a" {}`}, "query is required"},
		"bad level":        {map[string]string{"policies.hcl": "policy \"a\" {\n  query = \"data.a\"\n  enforcement_level = \"hard-mandatory\"\n}\n"}, "enforcement_level"},
		"bad rego":         {map[string]string{"policies.hcl": good["policies.hcl"], "deny.rego": "package"}, "deny.rego"},
		"duplicate policy": {map[string]string{"policies.hcl": good["policies.hcl"] + good["policies.hcl"]}, "declared twice"},
	} {
		v := upload(t, opa, c.files)
		if got := waitFor(t, v.ID); got.Status != tfe.PolicySetVersionErrored || !strings.Contains(got.ErrorMessage, c.want) || got.StatusTimestamps.ErroredAt.IsZero() {
			t.Errorf("%s: %+v, want errored naming %q", name, got, c.want)
		}
	}
	if ps, err := w.owner.PolicySets.Read(ctx, opa.ID); err != nil || ps.CurrentVersion == nil || ps.CurrentVersion.ID != v1.ID {
		t.Errorf("current after errors: %+v, %v", ps, err)
	}

	// Sentinel: sentinel.hcl, each source a file of the set.
	sen, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("sentinel")})
	if err != nil {
		t.Fatal(err)
	}
	hcl := "policy \"tags\" {\n  source = \"./tags.sentinel\"\n  enforcement_level = \"soft-mandatory\"\n}\n"
	if v := waitFor(t, upload(t, sen, map[string]string{"sentinel.hcl": hcl, "tags.sentinel": "main = rule { true }"}).ID); v.Status != tfe.PolicySetVersionReady {
		t.Errorf("sentinel version: %+v", v)
	}
	if v := waitFor(t, upload(t, sen, map[string]string{"sentinel.hcl": hcl}).ID); v.Status != tfe.PolicySetVersionErrored || !strings.Contains(v.ErrorMessage, "tags.sentinel") {
		t.Errorf("missing source: %+v", v)
	}

	// A versioned set takes no individual policies, and a set with policies no versions.
	pol, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("p", tfe.EnforcementHard))
	if err != nil {
		t.Fatal(err)
	}
	want422(t, w.owner.PolicySets.AddPolicies(ctx, sen.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{pol}}), "versioned")
	withPolicies, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("individual"), Policies: []*tfe.Policy{pol}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.owner.PolicySetVersions.Create(ctx, withPolicies.ID)
	want422(t, err, "does not support uploading versions")

	// The upload link is used once and works for an hour.
	used := upload(t, sen, map[string]string{"sentinel.hcl": hcl, "tags.sentinel": "main = rule { true }"})
	if got := putStatus(t, used.Links["upload"].(string), nil); got != http.StatusNotFound {
		t.Errorf("second upload: %d", got)
	}
	late, err := w.owner.PolicySetVersions.Create(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	w.inst.Server.SetClockOffset(61 * time.Minute)
	defer w.inst.Server.SetClockOffset(0)
	if v, err := w.owner.PolicySetVersions.Read(ctx, late.ID); err != nil || v.Links["upload"] != nil {
		t.Errorf("an expired version shows its upload link: %+v, %v", v, err)
	}
	if got := putStatus(t, late.Links["upload"].(string), slugOf(t, map[string]string{"sentinel.hcl": ""})); got != http.StatusNotFound {
		t.Errorf("expired upload: %d", got)
	}
	if v, err := w.owner.PolicySetVersions.Read(ctx, late.ID); err != nil || v.Status != tfe.PolicySetVersionPending {
		t.Errorf("after an expired upload: %+v, %v", v, err)
	}
}

func TestPolicySetParameters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("params")})
	if err != nil {
		t.Fatal(err)
	}
	p, err := w.owner.PolicySetParameters.Create(ctx, ps.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("region"), Value: tfe.String("eu"), Category: tfe.Category(tfe.CategoryPolicySet)})
	if err != nil || p.Key != "region" || p.Value != "eu" || p.Category != tfe.CategoryPolicySet || p.Sensitive || p.PolicySet.ID != ps.ID {
		t.Fatalf("created %+v, %v", p, err)
	}
	secret, err := w.owner.PolicySetParameters.Create(ctx, ps.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("token"), Value: tfe.String("s3cret"),
		Category: tfe.Category(tfe.CategoryPolicySet), Sensitive: tfe.Bool(true)})
	if err != nil || secret.Value != "" || !secret.Sensitive {
		t.Fatalf("sensitive %+v, %v", secret, err)
	}
	if res := policyRaw(t, w, http.MethodGet, "/api/v2/policy-sets/"+ps.ID+"/parameters", ""); strings.Contains(string(res.Body), "s3cret") {
		t.Errorf("the list shows a sensitive value: %s", res.Body)
	}
	l, err := w.owner.PolicySetParameters.List(ctx, ps.ID, nil)
	if err != nil || len(l.Items) != 2 || l.TotalCount != 2 {
		t.Errorf("list %+v, %v", l, err)
	}
	if got, err := w.owner.PolicySetParameters.Read(ctx, ps.ID, p.ID); err != nil || got.Value != "eu" {
		t.Errorf("read %+v, %v", got, err)
	}
	if got, err := w.owner.PolicySetParameters.Update(ctx, ps.ID, p.ID, tfe.PolicySetParameterUpdateOptions{Value: tfe.String("us"), Sensitive: tfe.Bool(true)}); err != nil || got.Value != "" || !got.Sensitive {
		t.Errorf("update %+v, %v", got, err)
	}
	_, err = w.owner.PolicySetParameters.Update(ctx, ps.ID, p.ID, tfe.PolicySetParameterUpdateOptions{Sensitive: tfe.Bool(false)})
	want422(t, err, "non-sensitive")
	_, err = w.owner.PolicySetParameters.Update(ctx, ps.ID, p.ID, tfe.PolicySetParameterUpdateOptions{Key: tfe.String("token")})
	want422(t, err, "already been taken")
	_, err = w.owner.PolicySetParameters.Create(ctx, ps.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("a-b"), Category: tfe.Category(tfe.CategoryPolicySet)})
	want422(t, err, "key")
	if res := policyRaw(t, w, http.MethodPost, "/api/v2/policy-sets/"+ps.ID+"/parameters", `{"data":{"type":"vars","attributes":{"key":"k","category":"env"}}}`); res.Status != http.StatusUnprocessableEntity {
		t.Errorf("category env: %d", res.Status)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.PolicySetParameters.Read(ctx, ps.ID, p.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a member without manage-policies: %v", err)
	}
	if err := w.owner.PolicySetParameters.Delete(ctx, ps.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.PolicySetParameters.Delete(ctx, ps.ID, p.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second delete: %v", err)
	}
	pol, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("individual", tfe.EnforcementHard))
	if err != nil {
		t.Fatal(err)
	}
	individual, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("individual"), Policies: []*tfe.Policy{pol}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.owner.PolicySetParameters.Create(ctx, individual.ID, tfe.PolicySetParameterCreateOptions{Key: tfe.String("region"), Category: tfe.Category(tfe.CategoryPolicySet)})
	if !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a parameter of a set of individual policies: %v, want 404", err)
	}
}

// TestPolicySets_projects attaches and excludes projects, and selects by
// the key/value tags a project gives its workspaces.
func TestPolicySets_projects(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	team, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "team", TagBindings: []*tfe.TagBinding{{Key: "env", Value: "prod"}}})
	must("project", err)
	other, err := w.owner.Projects.Create(ctx, w.org, tfe.ProjectCreateOptions{Name: "other"})
	must("project", err)
	ids := map[string]string{}
	for name, prj := range map[string]*tfe.Project{"a": team, "b": team, "c": other, "d": nil} {
		ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String(name), Project: prj})
		must("workspace", err)
		ids[ws.ID] = name
	}
	governs := func(t *testing.T, step, id string, want ...string) {
		t.Helper()
		got, _ := w.inst.Server.GovernedWorkspaces(id)
		var names []string
		for _, id := range got {
			names = append(names, ids[id])
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Errorf("%s: governs %v, want %v", step, names, want)
		}
	}
	set, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("by-project"), Projects: []*tfe.Project{team}})
	must("create", err)
	if set.ProjectCount != 1 || len(set.Projects) != 1 || set.Projects[0].ID != team.ID {
		t.Errorf("created %+v", set)
	}
	governs(t, "project team", set.ID, "a", "b")
	must("add project", w.owner.PolicySets.AddProjects(ctx, set.ID, tfe.PolicySetAddProjectsOptions{Projects: []*tfe.Project{other}}))
	governs(t, "projects team and other", set.ID, "a", "b", "c")
	must("remove project", w.owner.PolicySets.RemoveProjects(ctx, set.ID, tfe.PolicySetRemoveProjectsOptions{Projects: []*tfe.Project{team}}))
	governs(t, "project other", set.ID, "c")
	read, err := w.owner.PolicySets.ReadWithOptions(ctx, set.ID, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetProjects}})
	if err != nil || len(read.Projects) != 1 || read.Projects[0].Name != "other" {
		t.Errorf("include projects: %+v, %v", read, err)
	}

	global, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("global"), Global: tfe.Bool(true), ProjectExclusions: []*tfe.Project{other}})
	must("global", err)
	governs(t, "global minus other", global.ID, "a", "b", "d")
	must("exclude team", w.owner.PolicySets.AddProjectExclusions(ctx, global.ID, tfe.PolicySetAddProjectExclusionsOptions{ProjectExclusions: []*tfe.Project{team}}))
	must("re-include other", w.owner.PolicySets.RemoveProjectExclusions(ctx, global.ID, tfe.PolicySetRemoveProjectExclusionsOptions{ProjectExclusions: []*tfe.Project{other}}))
	governs(t, "global minus team", global.ID, "c", "d")
	read, err = w.owner.PolicySets.ReadWithOptions(ctx, global.ID, &tfe.PolicySetReadOptions{Include: []tfe.PolicySetIncludeOpt{tfe.PolicySetProjectExclusions}})
	if err != nil || len(read.ProjectExclusions) != 1 || read.ProjectExclusions[0].Name != "team" {
		t.Errorf("include project exclusions: %+v, %v", read, err)
	}

	// A project's key/value tags select its workspaces.
	tagged, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("tagged"),
		TagSelectors: []*tfe.PolicySetTagSelector{{Key: "env", Value: tfe.String("prod")}}})
	must("tagged", err)
	governs(t, "env=prod", tagged.ID, "a", "b")

	want422(t, w.owner.PolicySets.AddProjects(ctx, global.ID, tfe.PolicySetAddProjectsOptions{Projects: []*tfe.Project{team}}), "global")
	want422(t, w.owner.PolicySets.AddProjects(ctx, set.ID, tfe.PolicySetAddProjectsOptions{Projects: []*tfe.Project{{ID: "prj-doesnotexist"}}}), "not found")
	_, err = w.admin.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("p2"), Projects: []*tfe.Project{{ID: "prj-doesnotexist"}}})
	want422(t, err, "not found")

	// A deleted project leaves the sets.
	must("move c", func() error {
		_, err := w.owner.Workspaces.UpdateByID(ctx, findID(ids, "c"), tfe.WorkspaceUpdateOptions{Project: team})
		return err
	}())
	must("delete other", w.owner.Projects.Delete(ctx, other.ID))
	if read, err := w.owner.PolicySets.Read(ctx, set.ID); err != nil || read.ProjectCount != 0 {
		t.Errorf("after deleting the project: %+v, %v", read, err)
	}
}

func findID(ids map[string]string, name string) string {
	for id, n := range ids {
		if n == name {
			return id
		}
	}
	return ""
}

// TestAdminSentinelVersions: the admin catalog go-tfe's policy set tests
// pin a version from; the admin token only.
func TestAdminSentinelVersions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	v, err := w.admin.Admin.SentinelVersions.Create(ctx, tfe.AdminSentinelVersionCreateOptions{Version: "0.0.42", URL: "https://example.com", SHA: "abc", Enabled: tfe.Bool(true)})
	if err != nil || v.Version != "0.0.42" || !v.Enabled || v.URL != "https://example.com" {
		t.Fatalf("create %+v, %v", v, err)
	}
	_, err = w.admin.Admin.SentinelVersions.Create(ctx, tfe.AdminSentinelVersionCreateOptions{Version: "0.0.42", URL: "https://example.com", SHA: "abc"})
	want422(t, err, "already been taken")
	if got, err := w.admin.Admin.SentinelVersions.Read(ctx, v.ID); err != nil || got.Version != v.Version {
		t.Errorf("read %+v, %v", got, err)
	}
	if l, err := w.admin.Admin.SentinelVersions.List(ctx, nil); err != nil || len(l.Items) != 1 {
		t.Errorf("list %+v, %v", l, err)
	}
	if _, err := w.owner.Admin.SentinelVersions.Read(ctx, v.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("an owner read the admin catalog: %v", err)
	}
	if got, err := w.admin.Admin.SentinelVersions.Update(ctx, v.ID, tfe.AdminSentinelVersionUpdateOptions{Deprecated: tfe.Bool(true)}); err != nil || !got.Deprecated {
		t.Errorf("update %+v, %v", got, err)
	}
	if err := w.admin.Admin.SentinelVersions.Delete(ctx, v.ID); err != nil {
		t.Fatal(err)
	}

	// OPA versions are the same catalog, apart: the same version number is free there.
	o, err := w.admin.Admin.OPAVersions.Create(ctx, tfe.AdminOPAVersionCreateOptions{Version: "0.0.42", URL: "https://example.com", SHA: "abc"})
	if err != nil || o.Version != "0.0.42" {
		t.Fatalf("opa create %+v, %v", o, err)
	}
	if got, err := w.admin.Admin.OPAVersions.Read(ctx, o.ID); err != nil || got.ID != o.ID {
		t.Errorf("opa read %+v, %v", got, err)
	}
	if l, err := w.admin.Admin.OPAVersions.List(ctx, nil); err != nil || len(l.Items) != 1 {
		t.Errorf("opa list %+v, %v", l, err)
	}
	if got, err := w.admin.Admin.OPAVersions.Update(ctx, o.ID, tfe.AdminOPAVersionUpdateOptions{Beta: tfe.Bool(true)}); err != nil || !got.Beta {
		t.Errorf("opa update %+v, %v", got, err)
	}
	if _, err := w.admin.Admin.SentinelVersions.Read(ctx, o.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("an OPA version read as a Sentinel one: %v", err)
	}
	if err := w.admin.Admin.OPAVersions.Delete(ctx, o.ID); err != nil {
		t.Fatal(err)
	}
}

// putStatus PUTs body to an upload address and returns the status.
func putStatus(t *testing.T, u string, body []byte) int {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPut, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("PUT %s: %v", u, err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

// TestPolicySets_vcsRepo: a set from a VCS repository (no VCS contacted) records vcs-repo with the
// organization's OAuth token, is versioned, and refuses policies and uploads; an unknown token and a
// policies-path without a repository are 422s naming the attribute; an update changes the branch and
// the path; go-tfe decodes vcs-repo and policies-path.
func TestPolicySets_vcsRepo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	oc := w.oauthClient(t)
	tok := oc.OAuthTokens[0].ID
	opts := func(name, token string) tfe.PolicySetCreateOptions {
		return tfe.PolicySetCreateOptions{Name: tfe.String(name), Kind: tfe.Sentinel, PoliciesPath: tfe.String("policies/prod"),
			VCSRepo: &tfe.VCSRepoOptions{Identifier: tfe.String("acme/policies"), Branch: tfe.String("main"), IngressSubmodules: tfe.Bool(true), OAuthTokenID: tfe.String(token)}}
	}
	ps, err := w.owner.PolicySets.Create(ctx, w.org, opts("from-vcs", tok))
	if err != nil {
		t.Fatal(err)
	}
	check := func(ps *tfe.PolicySet, branch, path string) {
		t.Helper()
		v := ps.VCSRepo
		if v == nil || v.Identifier != "acme/policies" || v.Branch != branch || !v.IngressSubmodules || v.OAuthTokenID != tok ||
			v.ServiceProvider != string(tfe.ServiceProviderGithub) || v.RepositoryHTTPURL != "https://github.com/acme/policies" ||
			ps.PoliciesPath != path {
			t.Errorf("set %+v, vcs-repo %+v", ps, v)
		}
	}
	check(ps, "main", "policies/prod")
	read, err := w.owner.PolicySets.Read(ctx, ps.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(read, "main", "policies/prod")
	upd, err := w.owner.PolicySets.Update(ctx, ps.ID, tfe.PolicySetUpdateOptions{PoliciesPath: tfe.String("policies/stage"),
		VCSRepo: &tfe.VCSRepoOptions{Identifier: tfe.String("acme/policies"), Branch: tfe.String("stage"), IngressSubmodules: tfe.Bool(true), OAuthTokenID: tfe.String(tok)}})
	if err != nil {
		t.Fatal(err)
	}
	check(upd, "stage", "policies/stage")

	pol, err := w.owner.Policies.Create(ctx, w.org, tfe.PolicyCreateOptions{Name: tfe.String("p"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)})
	if err != nil {
		t.Fatal(err)
	}
	want422(t, w.owner.PolicySets.AddPolicies(ctx, ps.ID, tfe.PolicySetAddPoliciesOptions{Policies: []*tfe.Policy{pol}}), "versioned")
	_, err = w.owner.PolicySetVersions.Create(ctx, ps.ID)
	want422(t, err, "VCS repository")
	_, err = w.owner.PolicySets.Create(ctx, w.org, opts("bad-token", "ot-unknown"))
	want422(t, err, "oauth-token-id")
	_, err = w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("path-only"), PoliciesPath: tfe.String("x")})
	want422(t, err, "policies-path")
	if _, err := w.owner.PolicySets.Read(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
}
