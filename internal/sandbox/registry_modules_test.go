package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

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

// TestRegistryModules_deletes drives every module delete: go-tfe's
// DeleteByName and the older actions it still calls for Delete
// (`POST registry-modules/actions/delete/:org/:name`), and the provider and
// version actions, sent raw as go-tfe's fallbacks send them.
func TestRegistryModules_deletes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	module := func(name, provider string, versions ...string) tfe.RegistryModuleID {
		t.Helper()
		if _, err := w.owner.RegistryModules.Create(ctx, w.org, tfe.RegistryModuleCreateOptions{Name: tfe.String(name), Provider: tfe.String(provider), RegistryName: tfe.PrivateRegistry}); err != nil {
			t.Fatal(err)
		}
		id := tfe.RegistryModuleID{Organization: w.org, Namespace: w.org, Name: name, Provider: provider, RegistryName: tfe.PrivateRegistry}
		for _, v := range versions {
			if _, err := w.owner.RegistryModules.CreateVersion(ctx, id, tfe.RegistryModuleCreateVersionOptions{Version: tfe.String(v)}); err != nil {
				t.Fatal(err)
			}
		}
		return id
	}
	action := func(c *tfe.Client, segments ...string) error {
		req, err := c.NewRequest("POST", "registry-modules/actions/delete/"+strings.Join(segments, "/"), nil)
		if err != nil {
			return err
		}
		return req.Do(ctx, nil)
	}
	gone := func(id tfe.RegistryModuleID) bool {
		_, err := w.owner.RegistryModules.Read(ctx, id)
		return errors.Is(err, tfe.ErrResourceNotFound)
	}

	// The version action deletes one version.
	vpc := module("vpc", "aws", "1.0.0", "1.1.0")
	if err := action(w.owner, w.org, "vpc", "aws", "1.1.0"); err != nil {
		t.Fatalf("version action: %v", err)
	}
	if _, err := w.owner.RegistryModules.ReadVersion(ctx, vpc, "1.1.0"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("version after its delete action: %v", err)
	}
	if _, err := w.owner.RegistryModules.ReadVersion(ctx, vpc, "1.0.0"); err != nil {
		t.Errorf("the other version went too: %v", err)
	}
	if err := action(w.owner, w.org, "vpc", "aws", "9.9.9"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("missing version: %v", err)
	}
	// The provider action deletes one provider's module.
	vpcGoogle := module("vpc", "google")
	if err := action(w.owner, w.org, "vpc", "aws"); err != nil {
		t.Fatalf("provider action: %v", err)
	}
	if !gone(vpc) || gone(vpcGoogle) {
		t.Errorf("after the provider action: aws gone %v, google gone %v; want true, false", gone(vpc), gone(vpcGoogle))
	}
	// go-tfe's Delete (the name action) deletes every provider.
	dns, dnsGoogle := module("dns", "aws"), module("dns", "google")
	other := module("other", "aws")
	if err := w.owner.RegistryModules.Delete(ctx, w.org, "dns"); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if !gone(dns) || !gone(dnsGoogle) || gone(other) {
		t.Errorf("after Delete: dns %v %v, other %v", gone(dns), gone(dnsGoogle), gone(other))
	}
	if err := w.owner.RegistryModules.Delete(ctx, w.org, "dns"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("second Delete: %v", err)
	}
	// DeleteByName is the DELETE route for the same.
	if err := w.owner.RegistryModules.DeleteByName(ctx, vpcGoogle); err != nil || !gone(vpcGoogle) {
		t.Errorf("DeleteByName: %v, gone %v", err, gone(vpcGoogle))
	}
	// Only owners and manage-modules delete; others get 404 and nothing goes.
	plain := w.member(t, "plain@acme.test")
	if err := plain.RegistryModules.Delete(ctx, w.org, "other"); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("plain member's Delete: %v", err)
	}
	if err := action(plain, w.org, "other", "aws"); !errors.Is(err, tfe.ErrResourceNotFound) || gone(other) {
		t.Errorf("plain member's provider action: %v, gone %v", err, gone(other))
	}
	// Another five-segment POST under registry-modules is a 404.
	req, err := w.owner.NewRequest("POST", "registry-modules/"+w.org+"/other/aws/nothing", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Do(ctx, nil); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("unknown action: %v", err)
	}
}
