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

// A module directory packed and uploaded as a configuration version for a
// test run (go-slug, as Terraform's cloud backend packs it).

// packedConfiguration is a module directory packed for upload.
type packedConfiguration struct {
	// archive is the .tar.gz to upload; nil when only the hash was asked
	// for.
	archive []byte
	// hash is the hex SHA-256 of the uncompressed tar stream, which holds
	// only names, types, permissions and contents: the same files give the
	// same hash on any machine at any time.
	hash  string
	files int
}

// normalizedModTime is the modification time of every archived file: the
// archive depends only on the files' contents.
var normalizedModTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// packConfiguration packs dir as Terraform's cloud backend does (go-slug,
// honoring .terraformignore, dereferencing symlinks to outside the
// directory), then rewrites the tar stream deterministically: fixed
// modification times, no owners, permissions reduced to 0644 or 0755.
// Without archive (a plan needs only the hash) nothing is compressed.
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

// uploadConfiguration makes a configuration version for the module's
// tests, uploads the archive to it and waits until the service has taken
// it: three requests when the service processes the upload at once.
func (c testRunClient) uploadConfiguration(ctx context.Context, m moduleRef, archive []byte) (string, error) {
	// A configuration version whose create answer was lost is never
	// looked for: nothing can use it but the one-time upload address in
	// that answer, so it stays an empty, pending version that runs nothing
	// (and the service shows it nowhere). The provider makes another.
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
		// The upload address is one-time: when the answer to an upload
		// that was processed is lost, the retry is refused. The version's
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
