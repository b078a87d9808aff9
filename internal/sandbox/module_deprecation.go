package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"time"
)

// The "Module version deprecation" section of the reference; where it is silent: README.md
// "Module version deprecation".

// deprecation is a module version's deprecation record. It lives inside its
// moduleVersion, so deleting the version (or its module) deletes it.
type deprecation struct {
	ID        string    `json:"id"`
	Reason    string    `json:"reason"`
	Link      string    `json:"link"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// The values of `deprecated-status`.
const (
	statusDeprecated   = "Deprecated"
	statusUndeprecated = "Undeprecated"
)

func (s *Server) registerModuleDeprecation() {
	s.route("PATCH /api/v2/organizations/{org}/registry-modules/private/{ns}/{name}/{provider}/{version}", s.updateModuleVersionDeprecation)
}

// deprecationRelationship is the `deprecation` relationship of a module
// version: the deprecation's identifier, or null when not deprecated.
func deprecationRelationship(mv *moduleVersion) map[string]any {
	if mv.Deprecation == nil {
		return relOne("deprecations", "")
	}
	return relOne("deprecations", mv.Deprecation.ID)
}

// deprecationResource is the `deprecations` resource delivered in
// `included`. An empty reason or link is null.
func deprecationResource(d *deprecation) resource {
	return resource{
		Type: "deprecations",
		ID:   d.ID,
		Attributes: map[string]any{
			"reason": nullableString(d.Reason),
			"link":   nullableString(d.Link),
		},
	}
}

// includedDeprecation is the `included` array of the version read: the
// deprecation when the client asked for it with include=deprecation and the
// version is deprecated.
func includedDeprecation(r *http.Request, mv *moduleVersion) []resource {
	if mv.Deprecation == nil || !includes(r)["deprecation"] {
		return nil
	}
	return []resource{deprecationResource(mv.Deprecation)}
}

// deprecationBody is the `deprecation` attribute of the request.
type deprecationBody struct {
	status, reason, link string
}

// readDeprecation checks the `deprecation` attribute: an object whose
// `deprecated-status` is `Deprecated` or `Undeprecated`, and whose optional
// `reason` and `link` are strings, `link` an absolute http or https URL.
// Other members are ignored. A problem is a 422 whose detail and pointer
// name the member at fault.
func readDeprecation(b *body) (deprecationBody, *apiError) {
	if !b.present("deprecation") {
		return deprecationBody{}, errInvalidAttribute("deprecation", "deprecation is required: an object with deprecated-status "+statusDeprecated+" or "+statusUndeprecated)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b.res.Attributes["deprecation"], &members); err != nil {
		return deprecationBody{}, errInvalidAttribute("deprecation", "deprecation must be an object")
	}
	str := func(name string) (string, bool, *apiError) {
		raw, ok := members[name]
		if !ok || string(raw) == "null" {
			return "", false, nil
		}
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", false, errInvalidAttribute("deprecation/"+name, "deprecation."+name+" must be a string")
		}
		return v, true, nil
	}
	var out deprecationBody
	status, ok, e := str("deprecated-status")
	if e != nil {
		return out, e
	}
	if !ok {
		return out, errInvalidAttribute("deprecation/deprecated-status", "deprecation.deprecated-status is required: "+statusDeprecated+" or "+statusUndeprecated)
	}
	if status != statusDeprecated && status != statusUndeprecated {
		return out, errInvalidAttribute("deprecation/deprecated-status", "deprecation.deprecated-status must be one of "+statusDeprecated+", "+statusUndeprecated+`, got "`+status+`"`)
	}
	out.status = status
	if out.reason, _, e = str("reason"); e != nil {
		return out, e
	}
	if out.link, _, e = str("link"); e != nil {
		return out, e
	}
	if out.link != "" && !isHTTPURL(out.link) {
		return out, errInvalidAttribute("deprecation/link", `deprecation.link must be an absolute http or https URL, got "`+out.link+`"`)
	}
	return out, nil
}

// isHTTPURL reports whether s is an absolute http or https URL with a host.
func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// updateModuleVersionDeprecation serves both calls of the section, told apart by
// `deprecated-status`; 404 before 422 (README.md "Module version deprecation").
func (s *Server) updateModuleVersionDeprecation(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	_, mv := s.st.moduleVersionFor(r, p, true, r.PathValue("version"))
	if mv == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "module-versions")
	if e != nil {
		return e
	}
	d, e := readDeprecation(b)
	if e != nil {
		return e
	}
	t := s.st.now()
	if d.status == statusUndeprecated {
		if mv.Deprecation != nil {
			mv.Deprecation = nil
			mv.UpdatedAt = t
		}
		writeDoc(w, http.StatusOK, document{Data: resource{Type: "module-versions", ID: mv.ID}})
		return nil
	}
	if mv.Deprecation == nil {
		mv.Deprecation = &deprecation{ID: newID("dep-"), CreatedAt: t}
	}
	mv.Deprecation.Reason, mv.Deprecation.Link, mv.Deprecation.UpdatedAt = d.reason, d.link, t
	mv.UpdatedAt = t
	writeDoc(w, http.StatusOK, document{
		Data: resource{
			Type:          "module-versions",
			ID:            mv.ID,
			Relationships: map[string]any{"deprecation": deprecationRelationship(mv)},
		},
		Included: []resource{deprecationResource(mv.Deprecation)},
	})
	return nil
}
