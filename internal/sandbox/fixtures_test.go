package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

func TestPing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, w.inst.URL+"/api/v2/ping", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("TFP-API-Version") == "" || resp.Header.Get("TFP-AppName") == "" {
		t.Errorf("ping headers = %v", resp.Header)
	}
	if w.owner.RemoteAPIVersion() == "" {
		t.Error("go-tfe did not read the API version")
	}
}

// TestUnknownRoutes answers 404 (never 405 or 5xx, which go-tfe retries).
func TestUnknownRoutes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/v2/nothing-here"},
		{http.MethodPut, "/api/v2/authentication-tokens/at-x"},
		{http.MethodGet, "/"},
	} {
		req, err := http.NewRequestWithContext(context.Background(), c.method, w.inst.URL+c.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+w.inst.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s %s = %d, want 404", c.method, c.path, resp.StatusCode)
		}
	}
}

func TestOrganizations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	org, err := w.owner.Organizations.Read(ctx, w.org)
	if err != nil || org.Name != w.org || org.Email != "owner@acme.test" {
		t.Fatalf("read: %+v, %v", org, err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String(w.org), Email: tfe.String("x@y.z")}); err == nil || !strings.Contains(err.Error(), "already been taken") {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := w.admin.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("bad name"), Email: tfe.String("x@y.z")}); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("bad name: %v", err)
	}
	// A user creating an organization becomes its owner.
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("devs-own"), Email: tfe.String("dev@acme.test")}); err != nil {
		t.Fatal(err)
	}
	if _, err := dev.AgentPools.Create(ctx, "devs-own", tfe.AgentPoolCreateOptions{Name: tfe.String("p")}); err != nil {
		t.Errorf("the creator should own the organization: %v", err)
	}
	// ... and nobody else sees it.
	if _, err := w.owner.Organizations.Read(ctx, "devs-own"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("another organization's owner read it: %v", err)
	}
	// Team and organization tokens cannot create organizations.
	if _, err := w.orgClient(t).Organizations.Create(ctx, tfe.OrganizationCreateOptions{Name: tfe.String("nope"), Email: tfe.String("a@b.c")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("organization token created an organization: %v", err)
	}
}

// TestOrganizationDelete_cascades deletes everything inside.
func TestOrganizationDelete_cascades(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")})
	if err != nil {
		t.Fatal(err)
	}
	tm := w.team(t, "devs", nil)
	teamClient := w.teamClient(t, tm)
	if err := w.owner.Organizations.Delete(ctx, w.org); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"org":   func() error { _, err := w.admin.Organizations.Read(ctx, w.org); return err }(),
		"pool":  func() error { _, err := w.admin.AgentPools.Read(ctx, pool.ID); return err }(),
		"token": func() error { _, err := w.admin.AgentTokens.Read(ctx, tok.ID); return err }(),
		"ws":    func() error { _, err := w.admin.Workspaces.ReadByID(ctx, ws.ID); return err }(),
		"team":  func() error { _, err := w.admin.Teams.Read(ctx, tm.ID); return err }(),
	} {
		if !errors.Is(err, tfe.ErrResourceNotFound) {
			t.Errorf("%s after organization delete: %v", name, err)
		}
	}
	if _, err := teamClient.Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("deleted team's token still works: %v", err)
	}
}

func TestTeamsAndMembers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	secret := w.team(t, "secret-ops", &tfe.OrganizationAccessOptions{ManagePolicies: tfe.Bool(true)})
	if secret.Visibility != "secret" || !secret.OrganizationAccess.ManagePolicies || secret.OrganizationAccess.ManageWorkspaces {
		t.Errorf("created team %+v access %+v", secret, secret.OrganizationAccess)
	}
	visible, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("visible"), Visibility: tfe.String("organization")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("visible")}); err == nil || !strings.Contains(err.Error(), "name") {
		t.Errorf("duplicate team name: %v", err)
	}

	dev := w.member(t, "dev@acme.test")
	list, err := dev.Teams.List(ctx, w.org, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, tm := range list.Items {
		names = append(names, tm.Name)
	}
	if strings.Join(names, ",") != "visible" {
		t.Errorf("a plain member sees teams %v, want only the visible one", names)
	}
	if _, err := dev.Teams.Read(ctx, secret.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member read a secret team: %v", err)
	}
	// Members of a secret team see it.
	if err := w.owner.TeamMembers.Add(ctx, secret.ID, tfe.TeamMemberAddOptions{Usernames: []string{"dev"}}); err != nil {
		t.Fatal(err)
	}
	if got, err := dev.Teams.Read(ctx, secret.ID); err != nil || got.UserCount != 1 {
		t.Errorf("member read own secret team: %+v, %v", got, err)
	}
	// Plain members cannot manage teams.
	if _, err := dev.Teams.Create(ctx, w.org, tfe.TeamCreateOptions{Name: tfe.String("mine")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member created a team: %v", err)
	}
	if err := w.owner.TeamMembers.Remove(ctx, secret.ID, tfe.TeamMemberRemoveOptions{Usernames: []string{"dev"}}); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.TeamMembers.Add(ctx, visible.ID, tfe.TeamMemberAddOptions{Usernames: []string{"stranger"}}); err == nil {
		t.Error("added a user who is not a member of the organization")
	}
	if err := w.owner.Teams.Delete(ctx, visible.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Teams.Read(ctx, visible.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read deleted team: %v", err)
	}
}

func TestWorkspaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ws, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app"), Description: tfe.String("the app")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ws.ID, "ws-") || ws.Name != "app" || ws.Organization.Name != w.org {
		t.Errorf("created %+v", ws)
	}
	byName, err := w.owner.Workspaces.Read(ctx, w.org, "app")
	if err != nil || byName.ID != ws.ID {
		t.Errorf("read by name: %v", err)
	}
	if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("app")}); err == nil {
		t.Error("duplicate workspace name accepted")
	}
	for i := range 3 {
		if _, err := w.owner.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("svc-" + string(rune('a'+i)))}); err != nil {
			t.Fatal(err)
		}
	}
	l, err := w.owner.Workspaces.List(ctx, w.org, &tfe.WorkspaceListOptions{Search: "svc", ListOptions: tfe.ListOptions{PageSize: 2}})
	if err != nil || len(l.Items) != 2 || l.TotalCount != 3 || l.NextPage != 2 {
		t.Errorf("search page: %d items, %+v, %v", len(l.Items), l.Pagination, err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.Workspaces.Create(ctx, w.org, tfe.WorkspaceCreateOptions{Name: tfe.String("mine")}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member created a workspace: %v", err)
	}
	if err := w.owner.Workspaces.DeleteByID(ctx, ws.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Workspaces.ReadByID(ctx, ws.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("read deleted workspace: %v", err)
	}
}

func TestAgentPools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	pool := w.agentPool(t)
	if !strings.HasPrefix(pool.ID, "apool-") || !pool.OrganizationScoped {
		t.Errorf("created %+v", pool)
	}
	l, err := w.owner.AgentPools.List(ctx, w.org, nil)
	if err != nil || len(l.Items) != 1 {
		t.Fatalf("list: %v", err)
	}
	tok, err := w.owner.AgentTokens.Create(ctx, pool.ID, tfe.AgentTokenCreateOptions{Description: tfe.String("x")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.owner.AgentPools.Delete(ctx, pool.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.AgentTokens.Read(ctx, tok.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("a deleted pool's token survived: %v", err)
	}
}

func TestRegistryModules(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	m, err := w.owner.RegistryModules.Create(ctx, w.org, tfe.RegistryModuleCreateOptions{
		Name: tfe.String("vpc"), Provider: tfe.String("aws"), RegistryName: tfe.PrivateRegistry,
	})
	if err != nil {
		t.Fatal(err)
	}
	if m.Namespace != w.org || m.RegistryName != tfe.PrivateRegistry || m.Organization.Name != w.org {
		t.Errorf("created %+v", m)
	}
	id := tfe.RegistryModuleID{Organization: w.org, Name: "vpc", Provider: "aws", Namespace: w.org, RegistryName: tfe.PrivateRegistry}
	if _, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("not-semver")}); err == nil {
		t.Error("bad version accepted")
	}
	v, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.0.0")})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != tfe.RegistryModuleVersionStatusPending || v.Links["upload"] == nil {
		t.Fatalf("new version %+v", v)
	}
	// The upload address is on another listener and takes no token.
	upload := v.Links["upload"].(string)
	if strings.HasPrefix(upload, w.inst.URL) {
		t.Errorf("upload address %s is on the API listener", upload)
	}
	if err := w.owner.RegistryModules.UploadTarGzip(ctx, upload, bytes.NewReader(tarGz(t, map[string]string{"main.tf": "# vpc"}))); err != nil {
		t.Fatal(err)
	}
	if err := w.owner.RegistryModules.UploadTarGzip(ctx, upload, bytes.NewReader(tarGz(t, nil))); err == nil {
		t.Error("a one-time upload address took a second upload")
	}
	got, err := w.owner.RegistryModules.ReadVersion(ctx, id, "1.0.0")
	if err != nil || got.Status != tfe.RegistryModuleVersionStatusOk {
		t.Errorf("version after upload: %+v, %v", got, err)
	}
	bad, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String("1.1.0")})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.owner.RegistryModules.UploadTarGzip(ctx, bad.Links["upload"].(string), strings.NewReader("not an archive")); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.owner.RegistryModules.ReadVersion(ctx, id, "1.1.0"); got == nil || got.Status != tfe.RegistryModuleVersionStatusRegIngressFailed {
		t.Errorf("bad archive: %+v", got)
	}
	read, err := w.owner.RegistryModules.Read(ctx, id)
	if err != nil || len(read.VersionStatuses) != 2 {
		t.Fatalf("read: %+v, %v", read, err)
	}
	if err := w.owner.RegistryModules.DeleteVersion(ctx, id, "1.1.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.RegistryModules.ReadVersion(ctx, id, "1.1.0"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("deleted version: %v", err)
	}
	if err := w.owner.RegistryModules.DeleteProvider(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.RegistryModules.Read(ctx, id); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("deleted module: %v", err)
	}
}

func TestPolicySets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("baseline"), Kind: tfe.OPA})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ps.ID, "polset-") || ps.Kind != tfe.OPA {
		t.Errorf("created %+v", ps)
	}
	if _, err := w.owner.PolicySets.Read(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.PolicySets.Read(ctx, ps.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("member without manage-policies read a policy set: %v", err)
	}
	if err := w.owner.PolicySets.Delete(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	tm := w.team(t, "ops", nil)
	first, err := w.owner.TeamTokens.Create(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.owner.TeamTokens.Create(ctx, tm.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, w.inst, first.Token).Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("a regenerated team token's old secret still works: %v", err)
	}
	if _, err := client(t, w.inst, second.Token).Teams.Read(ctx, tm.ID); err != nil {
		t.Errorf("team token reads its team: %v", err)
	}
	if err := w.owner.TeamTokens.Delete(ctx, tm.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := client(t, w.inst, second.Token).Teams.Read(ctx, tm.ID); !errors.Is(err, tfe.ErrUnauthorized) {
		t.Errorf("deleted team token still works: %v", err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.OrganizationTokens.Create(ctx, w.org); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member made the organization token: %v", err)
	}
}

func tarGz(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(tw, body); err != nil {
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

func TestRateLimitHeader(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		limit   int
		want    string
		wantErr bool
	}{{30, "30", false}, {0, "", false}, {3, "", true}} {
		s, err := sandbox.New(sandbox.Options{RateLimit: tc.limit})
		if tc.wantErr {
			if err == nil {
				t.Errorf("rate limit %d accepted", tc.limit)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/api/v2/ping", nil))
		_ = s.Close()
		if got := rec.Header().Get("X-RateLimit-Limit"); got != tc.want {
			t.Errorf("limit %d: header %q, want %q", tc.limit, got, tc.want)
		}
	}
}
