package sandbox

import (
	"archive/tar"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/go-version"
)

// Private registry modules and their versions, which module tests,
// test variables and deprecations hang off. Not documented by the reference;
// shaped as go-tfe expects.

func (s *Server) registerRegistryModules() {
	s.route("POST /api/v2/organizations/{org}/registry-modules", s.createRegistryModule)
	s.route("POST /api/v2/organizations/{org}/registry-modules/vcs", s.createRegistryModuleVCS)
	s.route("POST /api/v2/registry-modules", s.createRegistryModuleVCS)
	s.route("GET /api/v2/organizations/{org}/registry-modules", s.listRegistryModules)
	s.route("GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}", s.readRegistryModule)
	s.route("DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}", s.deleteModules)
	s.route("PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}", s.updateRegistryModule)
	s.route("DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}", s.deleteModules)
	s.route("GET /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/version", s.readModuleVersion)
	s.route("DELETE /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}", s.deleteModules)
	// One pattern serves both five-segment POSTs: CreateVersion's
	// `registry-modules/:org/:name/:provider/versions` and the delete action
	// `registry-modules/actions/delete/:org/:name`, which the router cannot
	// hold apart (see postRegistryModulePath).
	s.route("POST /api/v2/registry-modules/{org}/{name}/{provider}/{action}", s.postRegistryModulePath)
	s.route("POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}", s.deleteModules)
	s.route("POST /api/v2/registry-modules/actions/delete/{org}/{name}/{provider}/{version}", s.deleteModules)
}

type registryModule struct {
	record
	Org       string           `json:"org"`
	Name      string           `json:"name"`
	Provider  string           `json:"provider"`
	UpdatedAt time.Time        `json:"updated_at"`
	Versions  []*moduleVersion `json:"versions"`
	// VCSRepo and TestConfig are set for modules published from a VCS
	// repository (registry_modules_vcs.go).
	VCSRepo    *moduleVCSRepo    `json:"vcs_repo,omitempty"`
	TestConfig *moduleTestConfig `json:"test_config,omitempty"`
}

type moduleVersion struct {
	ID        string    `json:"id"`
	Version   string    `json:"version"`
	Status    string    `json:"status"`
	Error     string    `json:"error,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
	// Source is where the version came from: empty for the API
	// (`tfe-api`), the VCS type for a version read from a repository.
	Source string `json:"source,omitempty"`
	// Deprecation is set while the version is deprecated
	// (module_deprecation.go).
	Deprecation *deprecation `json:"deprecation,omitempty"`
}

func canManageModules(a orgAccess) bool { return a.ManageModules }

func (m *registryModule) version(v string) *moduleVersion {
	for _, mv := range m.Versions {
		if mv.Version == v {
			return mv
		}
	}
	return nil
}

func registryModuleResource(m *registryModule) resource {
	statuses := make([]map[string]any, 0, len(m.Versions))
	// The real service lists the newest version first.
	for i := len(m.Versions) - 1; i >= 0; i-- {
		mv := m.Versions[i]
		vs := map[string]any{"version": mv.Version, "status": mv.Status}
		if mv.Error != "" {
			vs["error"] = mv.Error
		}
		statuses = append(statuses, vs)
	}
	var vcsRepo, testConfig any
	if m.VCSRepo != nil {
		vcsRepo = vcsRepoResource(m.VCSRepo)
	}
	if m.TestConfig != nil {
		testConfig = testConfigResource(m.TestConfig)
	}
	status := "pending"
	if slices.ContainsFunc(m.Versions, func(v *moduleVersion) bool { return v.Status == "ok" }) {
		status = "setup_complete"
	}
	return resource{
		Type: "registry-modules",
		ID:   m.ID,
		Attributes: map[string]any{
			"name":                 m.Name,
			"provider":             m.Provider,
			"namespace":            m.Org,
			"registry-name":        "private",
			"status":               status,
			"version-statuses":     statuses,
			"no-code":              false,
			"publishing-mechanism": m.publishingMechanism(),
			"vcs-repo":             vcsRepo,
			"test-config":          testConfig,
			"created-at":           timestamp(m.CreatedAt),
			"updated-at":           timestamp(m.UpdatedAt),
			"permissions": map[string]any{
				"can-delete": true, "can-resync": true, "can-retry": true,
			},
		},
		Relationships: map[string]any{"organization": relOne("organizations", m.Org)},
		Links: map[string]any{
			"self": apiPath("organizations", m.Org, "registry-modules", "private", m.Org, m.Name, m.Provider),
		},
	}
}

func (mv *moduleVersion) source() string {
	if mv.Source == "" {
		return "tfe-api"
	}
	return mv.Source
}

func moduleVersionResource(m *registryModule, mv *moduleVersion, upload string) resource {
	res := resource{
		Type: "registry-module-versions",
		ID:   mv.ID,
		Attributes: map[string]any{
			"version":    mv.Version,
			"status":     mv.Status,
			"source":     mv.source(),
			"created-at": timestamp(mv.CreatedAt),
			"updated-at": timestamp(mv.UpdatedAt),
		},
		Relationships: map[string]any{
			"registry-module": relOne("registry-modules", m.ID),
			"deprecation":     deprecationRelationship(mv),
		},
		Links: map[string]any{},
	}
	if upload != "" {
		res.Links["upload"] = upload
	}
	return res
}

// moduleByPath finds a private module by organization, namespace, name and
// provider. The namespace of a private module is its organization.
func (st *state) moduleByPath(org, ns, name, provider string) *registryModule {
	if ns != org {
		return nil
	}
	return find(st.RegistryModules, func(m *registryModule) bool { return m.Org == org && m.Name == name && m.Provider == provider })
}

// moduleFor returns the module the request's path names ({org}, {ns}, which
// paths without it take to be the organization, {name} and {provider}) when
// p is a member of its organization and, with manage, may manage modules;
// otherwise nil.
func (st *state) moduleFor(r *http.Request, p principal, manage bool) *registryModule {
	org, ns := r.PathValue("org"), r.PathValue("ns")
	if ns == "" {
		ns = org
	}
	return visible(st.moduleByPath(org, ns, r.PathValue("name"), r.PathValue("provider")), func(m *registryModule) bool {
		return st.mayIn(p, m.Org, managing(manage, canManageModules))
	})
}

// moduleVersionFor returns the module the request's path names and its
// version v, as moduleFor; a missing version is nil too.
func (st *state) moduleVersionFor(r *http.Request, p principal, manage bool, v string) (*registryModule, *moduleVersion) {
	m := st.moduleFor(r, p, manage)
	if m == nil {
		return nil, nil
	}
	return m, m.version(v)
}

var moduleProviderRE = regexp.MustCompile(`^[a-z0-9]+$`)

// createRegistryModule creates a private module with no versions (go-tfe's
// RegistryModules.Create). Owners and manage-modules may. name follows
// nameRE, provider is lower-case letters and digits; the triple is unique
// (422). Only the private registry is emulated.
func (s *Server) createRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, b, e := s.st.decodeIn(r, p, canManageModules, "registry-modules")
	if e != nil {
		return e
	}
	name := b.reqString("name")
	provider := b.reqString("provider")
	registry := b.optString("registry-name")
	b.oneOf("registry-name", registry, "private")
	ns := b.optString("namespace")
	if b.err != nil {
		return b.err
	}
	if e := checkName(name); e != nil {
		return e
	}
	if !moduleProviderRE.MatchString(provider) {
		return errInvalidAttribute("provider", "provider may contain only lower-case letters and numbers")
	}
	if ns != nil && *ns != "" && *ns != org {
		return errInvalidAttribute("namespace", "namespace of a private module must be the organization name")
	}
	if s.st.moduleByPath(org, org, name, provider) != nil {
		return errInvalidAttribute("name", "name has already been taken for this provider")
	}
	m := &registryModule{record: s.st.newRecord("mod-"), Org: org, Name: name, Provider: provider}
	m.UpdatedAt = m.CreatedAt
	s.st.RegistryModules[m.ID] = m
	return writeOne(w, http.StatusCreated, m, registryModuleResource)
}

// listRegistryModules is go-tfe's RegistryModules.List: the organization's
// modules by name, then provider, paginated; members may. `q` keeps those
// whose name, namespace or provider contains the text (case-insensitive);
// `filter[provider]`, `filter[registry_name]` and
// `filter[organization_name]` keep exact matches (the sandbox has only
// the private registry, whose namespace is the organization).
func (s *Server) listRegistryModules(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	q := r.URL.Query()
	query := strings.ToLower(q.Get("q"))
	all := sorted(s.st.RegistryModules, func(m *registryModule) bool {
		return m.Org == org &&
			(strings.Contains(strings.ToLower(m.Name), query) || strings.Contains(strings.ToLower(m.Provider), query) || strings.Contains(strings.ToLower(m.Org), query)) &&
			(!q.Has("filter[provider]") || q.Get("filter[provider]") == m.Provider) &&
			(!q.Has("filter[registry_name]") || q.Get("filter[registry_name]") == "private") &&
			(!q.Has("filter[organization_name]") || q.Get("filter[organization_name]") == m.Org)
	})
	slices.SortStableFunc(all, func(a, b *registryModule) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Provider, b.Provider))
	})
	return writeList(w, r, all, registryModuleResource)
}

func (s *Server) readRegistryModule(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return writeOne(w, http.StatusOK, s.st.moduleFor(r, p, false), registryModuleResource)
}

// deleteModules serves every module delete, the older action paths too (README.md
// "Registry modules").
func (s *Server) deleteModules(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, ns, name, provider, v := r.PathValue("org"), r.PathValue("ns"), r.PathValue("name"), r.PathValue("provider"), r.PathValue("version")
	if ns == "" {
		ns = org
	}
	if ns != org || !s.st.mayIn(p, org, canManageModules) {
		return errNotFound()
	}
	mods := sorted(s.st.RegistryModules, func(m *registryModule) bool {
		return m.Org == org && m.Name == name && (provider == "" || m.Provider == provider)
	})
	switch {
	case len(mods) == 0:
		return errNotFound()
	case v != "":
		if mods[0].version(v) == nil {
			return errNotFound()
		}
		s.st.deleteModuleVersion(mods[0], v)
	default:
		for _, m := range mods {
			s.st.deleteRegistryModule(m.ID)
		}
	}
	writeNoContent(w)
	return nil
}

// postRegistryModulePath serves the five-segment POSTs under
// `registry-modules/`: CreateVersion's `:org/:name/:provider/versions` and
// the delete action `actions/delete/:org/:name`. Go's router cannot register
// both (a path such as `actions/delete/x/versions` matches each), so one
// pattern takes both and this tells them apart, reading
// `actions/delete/...` as the delete action (the path the real service
// documents for it; an organization named "actions" with a module named
// "delete" would need the other reading, a clash the sandbox accepts).
// Anything else is a 404.
func (s *Server) postRegistryModulePath(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if r.PathValue("org") == "actions" && r.PathValue("name") == "delete" {
		org, name := r.PathValue("provider"), r.PathValue("action")
		r.SetPathValue("org", org)
		r.SetPathValue("name", name)
		r.SetPathValue("provider", "")
		return s.deleteModules(w, r, p)
	}
	if r.PathValue("action") != "versions" {
		return errNotFound()
	}
	return s.createModuleVersion(w, r, p)
}

// deleteRegistryModule removes a module and what hangs off it.
func (st *state) deleteRegistryModule(id string) {
	st.deleteModuleTests(id)
	for _, v := range st.moduleTestVariables(id) {
		delete(st.TestVariables, v.ID)
	}
	delete(st.RegistryModules, id)
}

// readModuleVersion is go-tfe's ReadVersion:
// `.../private/:ns/:name/:provider/version?module_version=V`; with
// include=deprecation it also carries the version's deprecation
// (module_deprecation.go).
func (s *Server) readModuleVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m, mv := s.st.moduleVersionFor(r, p, false, r.URL.Query().Get("module_version"))
	if mv == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: moduleVersionResource(m, mv, ""), Included: includedDeprecation(r, mv)})
	return nil
}

// deleteModuleVersion removes one version and what hangs off it.
func (st *state) deleteModuleVersion(m *registryModule, v string) {
	m.Versions = slices.DeleteFunc(m.Versions, func(mv *moduleVersion) bool { return mv.Version == v })
}

// maxModuleArchive bounds a module version's upload.
const maxModuleArchive = 100 << 20

// createModuleVersion is go-tfe's CreateVersion: it adds a `pending`
// version whose `links.upload` is a one-time address on the upload
// listener. Uploading a .tar.gz moves the version to `ok`; anything else to
// `reg_ingress_failed`, as on the real service. The version must be valid
// semver and new for the module (422). A branch-based module's version may
// carry `commit-sha` (the commit the real service would read; the sandbox
// takes the content from the upload instead); a tag-based VCS module takes
// no versions through the API (422, see registry_modules_vcs.go).
func (s *Server) createModuleVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	m := s.st.moduleFor(r, p, true)
	if m == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "registry-module-versions")
	if e != nil {
		return e
	}
	v := b.reqString("version")
	b.optString("commit-sha")
	if b.err != nil {
		return b.err
	}
	if m.VCSRepo != nil && m.VCSRepo.Branch == "" {
		return errInvalidAttribute("version", "versions of a module published from tags come from the repository's tags; they cannot be created through the API")
	}
	if _, err := version.NewSemver(v); err != nil {
		return errInvalidAttribute("version", fmt.Sprintf("version must be a semantic version such as 1.2.3, got %q", v))
	}
	if m.version(v) != nil {
		return errInvalidAttribute("version", "version "+v+" already exists")
	}
	mv := s.st.addModuleVersion(m, v)
	upload := s.uploads.newUploadURL(maxModuleArchive, func(st *state, body []byte) *apiError {
		mod := st.RegistryModules[m.ID]
		if mod == nil || mod.version(v) == nil {
			return errNotFound()
		}
		target := mod.version(v)
		target.UpdatedAt = s.st.now()
		// A bad archive is the version's failure, not the upload's.
		target.Status, target.Error = "ok", ""
		if err := checkTarGz(body); err != nil {
			target.Status, target.Error = "reg_ingress_failed", err.Error()
		}
		return nil
	})
	writeDoc(w, http.StatusCreated, document{Data: moduleVersionResource(m, mv, upload)})
	return nil
}

// addModuleVersion records a pending version (shared with the demo seed).
func (st *state) addModuleVersion(m *registryModule, v string) *moduleVersion {
	t := st.now()
	mv := &moduleVersion{ID: newID("modver-"), Version: v, Status: "pending", CreatedAt: t, UpdatedAt: t}
	m.Versions = append(m.Versions, mv)
	m.UpdatedAt = t
	return mv
}

// checkTarGz reports whether raw is a readable gzip-compressed tar archive.
func checkTarGz(raw []byte) error {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not a gzip archive: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		_, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("not a tar archive: %w", err)
		}
	}
}
