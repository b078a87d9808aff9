package provider

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hashicorp/go-slug"
	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// packedConfiguration is a module directory packed for a test run's configuration version.
type packedConfiguration struct {
	archive []byte // the .tar.gz to upload; nil when only the hash was asked for
	// hash: SHA-256 of the uncompressed tar (names, types, modes, contents): the same files, the same hash.
	hash  string
	files int
}

var normalizedModTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) // every file's: the archive depends on contents only

// packConfiguration packs dir as Terraform's cloud backend does (go-slug: .terraformignore, symlinks
// out of dir dereferenced), then rewrites the tar deterministically (fixed times, no owners, 0644 or
// 0755); without archive (a plan needs only the hash) nothing is compressed.
func packConfiguration(dir string, archive bool) (*packedConfiguration, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	packer, err := slug.NewPacker(slug.DereferenceSymlinks(), slug.ApplyTerraformIgnore())
	if err != nil {
		return nil, err
	}
	var packed bytes.Buffer
	if _, err := packer.Pack(dir, &packed); err != nil {
		return nil, fmt.Errorf("packing %s: %w", dir, err)
	}
	zr, err := gzip.NewReader(&packed)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)

	var out bytes.Buffer
	hasher := sha256.New()
	var zw *gzip.Writer
	tarOut := io.Writer(hasher)
	if archive {
		zw, _ = gzip.NewWriterLevel(&out, gzip.BestCompression)
		tarOut = io.MultiWriter(zw, hasher)
	}
	tw := tar.NewWriter(tarOut)
	files := 0
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("packing %s: %w", dir, err)
		}
		mode := int64(0o644)
		if h.Typeflag == tar.TypeDir || h.Mode&0o111 != 0 {
			mode = 0o755
		}
		nh := &tar.Header{Typeflag: h.Typeflag, Name: h.Name, Linkname: h.Linkname, Size: h.Size, Mode: mode, ModTime: normalizedModTime}
		if err := tw.WriteHeader(nh); err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeReg {
			files++
			if _, err := io.Copy(tw, tr); err != nil { // the user's own files, size known from the header
				return nil, err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	result := &packedConfiguration{hash: hex.EncodeToString(hasher.Sum(nil)), files: files}
	if archive {
		if err := zw.Close(); err != nil {
			return nil, err
		}
		result.archive = out.Bytes()
	}
	return result, nil
}

// uploadConfiguration makes a configuration version, uploads archive and waits until it is taken.
func (c testRunClient) uploadConfiguration(ctx context.Context, m moduleRef, archive []byte) (string, error) {
	// A version whose create answer was lost is not looked for: only that answer's one-time upload
	// address could use it, so it stays empty and runs nothing.
	cv, err := reconcileCreate(ctx, "configuration version",
		func() (*tfe.ConfigurationVersion, error) {
			return c.client.ConfigurationVersions.CreateForRegistryModule(ctx, m.id())
		},
		func(context.Context, *tfeclient.AmbiguousWriteError) (*tfe.ConfigurationVersion, bool, error) {
			return nil, false, nil
		})
	if err != nil {
		return "", fmt.Errorf("creating a configuration version: %s", moduleTestsError(m, err))
	}
	tflog.Debug(ctx, "Uploading test configuration", map[string]any{"configuration_version_id": cv.ID, "bytes": len(archive)})
	if err := c.client.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, bytes.NewReader(archive)); err != nil {
		// The upload address is one-time: after a lost answer the retry is refused, and the version's
		// status tells whether the first attempt landed.
		if got, rerr := c.client.ConfigurationVersions.Read(ctx, cv.ID); rerr != nil || got.Status == tfe.ConfigurationPending {
			return cv.ID, fmt.Errorf("uploading the configuration to %s: %w", cv.ID, err)
		}
		tflog.Info(ctx, "The configuration upload's answer was lost, but the upload landed", map[string]any{"configuration_version_id": cv.ID})
	}
	id := cv.ID
	delay := pollStart
	for {
		cv, err = c.client.ConfigurationVersions.Read(ctx, id)
		if err != nil {
			return id, fmt.Errorf("reading configuration version %s: %w", id, err)
		}
		switch cv.Status {
		case tfe.ConfigurationUploaded:
			return cv.ID, nil
		case tfe.ConfigurationErrored:
			return cv.ID, fmt.Errorf("configuration version %s could not take the upload: %s", cv.ID, cv.ErrorMessage)
		}
		if err := sleepCtx(ctx, delay); err != nil {
			return cv.ID, fmt.Errorf("waiting for configuration version %s to be uploaded (it is %s): %w", cv.ID, cv.Status, err)
		}
		delay = min(delay*3/2, pollMax)
	}
}
