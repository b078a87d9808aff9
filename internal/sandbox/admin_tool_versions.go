package sandbox

import (
	"fmt"
	"net/http"
)

// The Sentinel and OPA versions a site admin offers (go-tfe
// Admin.SentinelVersions and Admin.OPAVersions, hashicorp/tfe's
// tfe_sentinel_version and tfe_opa_version), which go-tfe's and
// hashicorp/tfe's policy set tests make before pinning one. A catalog only:
// a set's policy-tool-version is not checked against it (README.md
// "Workspace tags", the admin tool versions).

type toolVersion struct {
	record
	// Tool is the resource type: "sentinel-versions" or "opa-versions".
	Tool             string  `json:"tool"`
	Version          string  `json:"version"`
	URL              string  `json:"url,omitempty"`
	SHA              string  `json:"sha,omitempty"`
	Official         bool    `json:"official"`
	Deprecated       bool    `json:"deprecated"`
	DeprecatedReason *string `json:"deprecated_reason,omitempty"`
	Enabled          bool    `json:"enabled"`
	Beta             bool    `json:"beta"`
}

func (s *Server) registerAdminToolVersions() {
	for _, tool := range []string{"sentinel-versions", "opa-versions"} {
		base := "/api/v2/admin/" + tool
		s.route("GET "+base, s.listToolVersions(tool))
		s.route("POST "+base, s.createToolVersion(tool))
		s.route("GET "+base+"/{id}", s.readToolVersion(tool))
		s.route("PATCH "+base+"/{id}", s.updateToolVersion(tool))
		s.route("DELETE "+base+"/{id}", s.deleteToolVersion(tool))
	}
}

// toolVersionResource renders a version; `deprecated-reason` only when
// there is one.
func toolVersionResource(v *toolVersion) resource {
	res := resource{Type: v.Tool, ID: v.ID, Attributes: map[string]any{
		"version": v.Version, "url": v.URL, "sha": v.SHA, "official": v.Official, "deprecated": v.Deprecated,
		"enabled": v.Enabled, "beta": v.Beta, "usage": 0, "created-at": timestamp(v.CreatedAt), "archs": []any{},
	}}
	if v.DeprecatedReason != nil {
		res.Attributes["deprecated-reason"] = *v.DeprecatedReason
	}
	return res
}

// toolVersionAt is the version of tool at {id} for the admin token; nil
// (404) for anyone else, as on /admin.
func (st *state) toolVersionAt(r *http.Request, p principal, tool string) *toolVersion {
	v := st.ToolVersions[r.PathValue("id")]
	if !p.admin || v == nil || v.Tool != tool {
		return nil
	}
	return v
}

func (s *Server) listToolVersions(tool string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		if !p.admin {
			return errNotFound()
		}
		return writeList(w, r, sorted(s.st.ToolVersions, func(v *toolVersion) bool { return v.Tool == tool }), toolVersionResource)
	}
}

// readToolVersionAttributes applies what a create or update sends.
func (s *Server) readToolVersionAttributes(b *body, v *toolVersion) *apiError {
	assign(&v.Version, b.optString("version"))
	assign(&v.URL, b.optString("url"))
	assign(&v.SHA, b.optString("sha"))
	assign(&v.Official, b.optBool("official"))
	assign(&v.Deprecated, b.optBool("deprecated"))
	if b.has("deprecated-reason") {
		// An empty reason is none: hashicorp/tfe sends "" for an unset one and expects null back.
		v.DeprecatedReason = b.optString("deprecated-reason")
		if v.DeprecatedReason != nil && *v.DeprecatedReason == "" {
			v.DeprecatedReason = nil
		}
	}
	assign(&v.Enabled, b.optBool("enabled"))
	assign(&v.Beta, b.optBool("beta"))
	if b.err != nil {
		return b.err
	}
	if !toolVersionRE.MatchString(v.Version) || v.Version == "latest" {
		return errInvalidAttribute("version", fmt.Sprintf("version must be a semantic version such as 0.23.0, got %q", v.Version))
	}
	if find(s.st.ToolVersions, func(o *toolVersion) bool { return o.Tool == v.Tool && o.Version == v.Version && o.ID != v.ID }) != nil {
		return errInvalidAttribute("version", "version "+v.Version+" has already been taken")
	}
	return nil
}

func (s *Server) createToolVersion(tool string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		if !p.admin {
			return errNotFound()
		}
		b, e := decodeBody(r, tool)
		if e != nil {
			return e
		}
		v := &toolVersion{Tool: tool, Enabled: true}
		if e := s.readToolVersionAttributes(b, v); e != nil {
			return e
		}
		v.record = s.st.newRecord("tool-")
		s.st.ToolVersions[v.ID] = v
		return writeOne(w, http.StatusCreated, v, toolVersionResource)
	}
}

func (s *Server) readToolVersion(tool string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		return writeOne(w, http.StatusOK, s.st.toolVersionAt(r, p, tool), toolVersionResource)
	}
}

func (s *Server) updateToolVersion(tool string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		v := s.st.toolVersionAt(r, p, tool)
		if v == nil {
			return errNotFound()
		}
		b, e := decodeBody(r, tool)
		if e != nil {
			return e
		}
		next := *v
		if e := s.readToolVersionAttributes(b, &next); e != nil {
			return e
		}
		*v = next
		return writeOne(w, http.StatusOK, v, toolVersionResource)
	}
}

func (s *Server) deleteToolVersion(tool string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p principal) *apiError {
		return deleteOne(w, s.st.toolVersionAt(r, p, tool), func(id string) { delete(s.st.ToolVersions, id) })
	}
}
