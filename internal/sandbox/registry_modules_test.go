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
