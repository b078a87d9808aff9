package sandbox

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	slug "github.com/hashicorp/go-slug"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

// Policy set versions: a set's whole content uploaded as a tar.gz (a
// slug), ingested into `ready` or `errored` (README.md "Policy sets").

// policySetIngestTime is how long a version stays `ingressing` after its
// upload: long enough for a client to see it, as on the real service, and
// short for tests.
const policySetIngestTime = 100 * time.Millisecond

// policySetUploadLifetime is how long a version's upload link works,
// counted from the version's creation (the reference's "one hour").
const policySetUploadLifetime = time.Hour

// maxPolicySetArchive bounds a version's upload.
const maxPolicySetArchive = 10 << 20

type policySetVersion struct {
	record
	SetID string `json:"set_id"`
	// UploadedAt is zero while pending; Result ("ready" or "errored") and
	// ErrorMessage are the ingestion's outcome, shown once
	// policySetIngestTime has passed.
	UploadedAt   time.Time `json:"uploaded_at"`
	Result       string    `json:"result,omitempty"`
	ErrorMessage string    `json:"error_message,omitempty"`
	// Policies are the names of the policies the version holds.
	Policies []string `json:"policies,omitempty"`
	// uploadURL is the one-time address, kept in memory only, like the
	// upload slots.
	uploadURL string
}

func (s *Server) registerPolicySetVersions() {
	s.route("POST /api/v2/policy-sets/{id}/versions", s.createPolicySetVersion)
	s.route("GET /api/v2/policy-set-versions/{id}", s.readPolicySetVersion)
}

// status is the version's status at now.
func (v *policySetVersion) status(now time.Time) string {
	switch {
	case v.UploadedAt.IsZero():
		return "pending"
	case now.Before(v.UploadedAt.Add(policySetIngestTime)):
		return "ingressing"
	default:
		return v.Result
	}
}

// versionsOf lists a set's versions, oldest first (nil when none).
func (st *state) versionsOf(setID string) []*policySetVersion {
	vs := sorted(st.PolicySetVersions, func(v *policySetVersion) bool { return v.SetID == setID })
	if len(vs) == 0 {
		return nil
	}
	return vs
}

// setVersions returns the set's newest version (whatever its status) and
// its current one (the newest that is ready), either nil.
func (st *state) setVersions(ps *policySet) (newest, current *policySetVersion) {
	vs := st.versionsOf(ps.ID)
	now := st.now()
	for i := len(vs) - 1; i >= 0; i-- {
		if newest == nil {
			newest = vs[i]
		}
		if vs[i].status(now) == "ready" {
			return newest, vs[i]
		}
	}
	return newest, nil
}

func (st *state) policySetVersionResource(v *policySetVersion) resource {
	now := st.now()
	status := v.status(now)
	ts := map[string]any{}
	updated := v.CreatedAt
	if !v.UploadedAt.IsZero() {
		ts["ingressing-at"] = statusTimestamp(v.UploadedAt)
		updated = v.UploadedAt
		if status != "ingressing" {
			done := v.UploadedAt.Add(policySetIngestTime)
			ts[status+"-at"] = statusTimestamp(done)
			updated = done
		}
	}
	var errMsg any
	if status == "errored" {
		errMsg = v.ErrorMessage
	}
	links := map[string]any{"self": apiPath("policy-set-versions", v.ID)}
	if status == "pending" && v.uploadURL != "" && now.Before(v.CreatedAt.Add(policySetUploadLifetime)) {
		links["upload"] = v.uploadURL
	}
	return resource{
		Type: "policy-set-versions",
		ID:   v.ID,
		Attributes: map[string]any{
			"source":             "tfe-api",
			"status":             status,
			"status-timestamps":  ts,
			"error":              errMsg,
			"error-message":      errMsg,
			"ingress-attributes": nil,
			"created-at":         timestamp(v.CreatedAt),
			"updated-at":         timestamp(updated),
		},
		Relationships: map[string]any{"policy-set": relOne("policy-sets", v.SetID)},
		Links:         links,
	}
}

// createPolicySetVersion makes a pending version with a one-time upload
// link: 201. A set with individual policies does not take versions (422,
// the reference's "does not support uploading versions").
func (s *Server) createPolicySetVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ps := s.st.policySetFor(p, r.PathValue("id"))
	if ps == nil {
		return errNotFound()
	}
	if len(ps.PolicyIDs) > 0 {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid policy set", Detail: fmt.Sprintf("policy set %s does not support uploading versions: it has individual policies (remove them first)", ps.ID)}
	}
	if ps.VCSRepo != nil {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid policy set", Detail: fmt.Sprintf("policy set %s does not support uploading versions: its versions come from its VCS repository", ps.ID)}
	}
	v := &policySetVersion{record: s.st.newRecord("polsetver-"), SetID: ps.ID}
	kind, id := ps.Kind, v.ID
	v.uploadURL = s.uploads.newUploadURL(maxPolicySetArchive, func(st *state, body []byte) *apiError {
		v := st.PolicySetVersions[id]
		if v == nil || !st.now().Before(v.CreatedAt.Add(policySetUploadLifetime)) {
			return errNotFound()
		}
		v.uploadURL = ""
		v.UploadedAt = st.now()
		v.Result = "ready"
		names, err := ingestPolicySet(kind, body)
		if err != nil {
			v.Result, v.ErrorMessage = "errored", err.Error()
		}
		v.Policies = names
		return nil
	})
	s.st.PolicySetVersions[v.ID] = v
	ps.UpdatedAt = s.st.now()
	writeDoc(w, http.StatusCreated, document{Data: s.st.policySetVersionResource(v)})
	return nil
}

// readPolicySetVersion shows a version; `include=policy_set` adds its set.
func (s *Server) readPolicySetVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	v := s.st.PolicySetVersions[r.PathValue("id")]
	if v == nil || s.st.policySetFor(p, v.SetID) == nil {
		return errNotFound()
	}
	doc := document{Data: s.st.policySetVersionResource(v)}
	for k := range includes(r) {
		if k != "policy_set" {
			return errBadRequest("include", fmt.Sprintf("%q is not an allowed relationship; use policy_set", k))
		}
		doc.Included = []resource{s.st.policySetResource(s.st.PolicySets[v.SetID])}
	}
	writeDoc(w, http.StatusOK, doc)
	return nil
}

// versionPolicyBlock is a `policy` block of sentinel.hcl or policies.hcl.
type versionPolicyBlock struct {
	Name             string   `hcl:"name,label"`
	Source           *string  `hcl:"source,attr"`
	Query            *string  `hcl:"query,attr"`
	EnforcementLevel *string  `hcl:"enforcement_level,attr"`
	Description      *string  `hcl:"description,attr"`
	Remain           hcl.Body `hcl:",remain"`
}

// ingestPolicySet reads a version's slug as the service would: the
// configuration file of the kind (sentinel.hcl, policies.hcl for OPA) must
// be there and valid, each policy's enforcement level one of its kind's,
// each Sentinel policy's source a file of the slug (or a URL), each OPA
// policy have a query, and every .rego file parse. It returns the policies'
// names, or the error message the version shows.
func ingestPolicySet(kind string, archive []byte) ([]string, error) {
	dir, err := os.MkdirTemp("", "tfgov-sandbox-polset-")
	if err != nil {
		return nil, fmt.Errorf("the sandbox could not unpack the upload: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := slug.Unpack(bytes.NewReader(archive), dir); err != nil {
		return nil, fmt.Errorf("the upload is not a policy set archive (tar.gz): %w", err)
	}
	config := map[string]string{"sentinel": "sentinel.hcl", "opa": "policies.hcl"}[kind]
	src, err := os.ReadFile(filepath.Join(dir, config))
	if err != nil {
		return nil, fmt.Errorf("%s not found at the root of the upload: a %s policy set needs one", config, kind)
	}
	f, diags := hclparse.NewParser().ParseHCL(src, config)
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", config, diags.Error())
	}
	var doc struct {
		Policies []versionPolicyBlock `hcl:"policy,block"`
		Remain   hcl.Body             `hcl:",remain"`
	}
	if diags := gohcl.DecodeBody(f.Body, nil, &doc); diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", config, diags.Error())
	}
	var names []string
	for _, pol := range doc.Policies {
		if err := checkVersionPolicy(kind, dir, config, pol); err != nil {
			return nil, err
		}
		if slices.Contains(names, pol.Name) {
			return nil, fmt.Errorf("%s: policy %q is declared twice", config, pol.Name)
		}
		names = append(names, pol.Name)
	}
	if kind == "opa" {
		if err := parseRegoFiles(dir); err != nil {
			return nil, err
		}
	}
	return names, nil
}

func checkVersionPolicy(kind, dir, config string, pol versionPolicyBlock) error {
	where := fmt.Sprintf("%s: policy %q", config, pol.Name)
	if !nameRE.MatchString(pol.Name) {
		return fmt.Errorf("%s: a policy name may contain only letters, numbers, - and _", where)
	}
	if pol.EnforcementLevel != nil && !slices.Contains(policyLevels[kind], *pol.EnforcementLevel) {
		return fmt.Errorf("%s: enforcement_level must be one of %s, got %q", where, strings.Join(policyLevels[kind], ", "), *pol.EnforcementLevel)
	}
	switch kind {
	case "opa":
		if pol.Query == nil || strings.TrimSpace(*pol.Query) == "" {
			return fmt.Errorf("%s: query is required", where)
		}
		if pol.Source != nil {
			return fmt.Errorf("%s: an OPA policy has no source (its .rego files are read from the set)", where)
		}
	default:
		if pol.Query != nil {
			return fmt.Errorf("%s: query is only valid for OPA policies", where)
		}
		source := pol.Name + ".sentinel"
		if pol.Source != nil {
			source = *pol.Source
		}
		if strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://") {
			return nil
		}
		clean := path.Clean("/" + filepath.ToSlash(source))
		if st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(clean))); err != nil || !st.Mode().IsRegular() {
			return fmt.Errorf("%s: source %q is not a file of the policy set", where, source)
		}
	}
	return nil
}

// parseRegoFiles parses every .rego file of dir (Rego v1, or else v0).
func parseRegoFiles(dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".rego") {
			return err
		}
		code, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if _, err := policyeval.ParseModule(filepath.ToSlash(rel), code); err != nil {
			return fmt.Errorf("%s: %w", filepath.ToSlash(rel), err)
		}
		return nil
	})
}
