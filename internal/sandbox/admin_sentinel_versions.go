package sandbox

import (
	"fmt"
	"net/http"
)

// The Sentinel versions a site admin offers (go-tfe Admin.SentinelVersions),
// which go-tfe's policy set tests make before pinning one. Kept as a
// catalog only: a set's policy-tool-version is not checked against it
// (README.md "Policy sets").

type sentinelVersion struct {
	record
	Version    string `json:"version"`
	URL        string `json:"url,omitempty"`
	SHA        string `json:"sha,omitempty"`
	Official   bool   `json:"official"`
	Deprecated bool   `json:"deprecated"`
	Enabled    bool   `json:"enabled"`
	Beta       bool   `json:"beta"`
}

func (s *Server) registerAdminSentinelVersions() {
	s.route("GET /api/v2/admin/sentinel-versions", s.listSentinelVersions)
	s.route("POST /api/v2/admin/sentinel-versions", s.createSentinelVersion)
	s.route("GET /api/v2/admin/sentinel-versions/{id}", s.readSentinelVersion)
	s.route("DELETE /api/v2/admin/sentinel-versions/{id}", s.deleteSentinelVersion)
}

func sentinelVersionResource(v *sentinelVersion) resource {
	return resource{Type: "sentinel-versions", ID: v.ID, Attributes: map[string]any{
		"version": v.Version, "url": v.URL, "sha": v.SHA, "official": v.Official, "deprecated": v.Deprecated,
		"enabled": v.Enabled, "beta": v.Beta, "usage": 0, "created-at": timestamp(v.CreatedAt),
	}}
}

// The admin token only; anyone else gets 404, as on /admin.
func (s *Server) listSentinelVersions(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if !p.admin {
		return errNotFound()
	}
	return writeList(w, r, sorted(s.st.SentinelVersions, nil), sentinelVersionResource)
}

// createSentinelVersion records a version (unique, a semantic version).
func (s *Server) createSentinelVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if !p.admin {
		return errNotFound()
	}
	b, e := decodeBody(r, "sentinel-versions")
	if e != nil {
		return e
	}
	v := &sentinelVersion{Version: b.reqString("version"), Enabled: true}
	assign(&v.URL, b.optString("url"))
	assign(&v.SHA, b.optString("sha"))
	assign(&v.Official, b.optBool("official"))
	assign(&v.Deprecated, b.optBool("deprecated"))
	assign(&v.Enabled, b.optBool("enabled"))
	assign(&v.Beta, b.optBool("beta"))
	if b.err != nil {
		return b.err
	}
	if !toolVersionRE.MatchString(v.Version) || v.Version == "latest" {
		return errInvalidAttribute("version", fmt.Sprintf("version must be a semantic version such as 0.23.0, got %q", v.Version))
	}
	if find(s.st.SentinelVersions, func(o *sentinelVersion) bool { return o.Version == v.Version }) != nil {
		return errInvalidAttribute("version", "version "+v.Version+" has already been taken")
	}
	v.record = s.st.newRecord("tool-")
	s.st.SentinelVersions[v.ID] = v
	return writeOne(w, http.StatusCreated, v, sentinelVersionResource)
}

func (s *Server) readSentinelVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if !p.admin {
		return errNotFound()
	}
	return writeOne(w, http.StatusOK, s.st.SentinelVersions[r.PathValue("id")], sentinelVersionResource)
}

func (s *Server) deleteSentinelVersion(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if !p.admin {
		return errNotFound()
	}
	return deleteOne(w, s.st.SentinelVersions[r.PathValue("id")], func(id string) { delete(s.st.SentinelVersions, id) })
}
