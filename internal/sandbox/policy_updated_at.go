package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// PolicyUpdatedAt says which writes move a policy's `updated-at`. The
// reference says only that it is null right after creation; go-tfe never
// reads it. The sandbox moves it on every upload and every update (the
// default), and this switch lets tests run a client under each other
// plausible behaviour of the real service, so that a client relying on
// `updated-at` is correct under all of them.
type PolicyUpdatedAt string

const (
	// PolicyUpdatedByUploadAndPatch: an upload of code and an update
	// (PATCH) both move `updated-at` (the default; also "").
	PolicyUpdatedByUploadAndPatch PolicyUpdatedAt = "upload+patch"
	// PolicyUpdatedByUpload: only an upload moves it.
	PolicyUpdatedByUpload PolicyUpdatedAt = "upload"
	// PolicyUpdatedByPatch: only an update moves it.
	PolicyUpdatedByPatch PolicyUpdatedAt = "patch"
	// PolicyUpdatedByNeither: it stays null forever.
	PolicyUpdatedByNeither PolicyUpdatedAt = "none"
)

// PolicyUpdatedAtValues are the accepted values, default first.
var PolicyUpdatedAtValues = []PolicyUpdatedAt{PolicyUpdatedByUploadAndPatch, PolicyUpdatedByUpload, PolicyUpdatedByPatch, PolicyUpdatedByNeither}

// ParsePolicyUpdatedAt checks a value; "" is the default.
func ParsePolicyUpdatedAt(v string) (PolicyUpdatedAt, error) {
	if v == "" {
		return PolicyUpdatedByUploadAndPatch, nil
	}
	for _, ok := range PolicyUpdatedAtValues {
		if PolicyUpdatedAt(v) == ok {
			return ok, nil
		}
	}
	names := make([]string, len(PolicyUpdatedAtValues))
	for i, ok := range PolicyUpdatedAtValues {
		names[i] = string(ok)
	}
	return "", fmt.Errorf("policy updated-at behaviour must be one of %s, got %q", strings.Join(names, ", "), v)
}

func (b PolicyUpdatedAt) byUpload() bool {
	return b == "" || b == PolicyUpdatedByUploadAndPatch || b == PolicyUpdatedByUpload
}

func (b PolicyUpdatedAt) byPatch() bool {
	return b == "" || b == PolicyUpdatedByUploadAndPatch || b == PolicyUpdatedByPatch
}

// SetPolicyUpdatedAt switches what moves a policy's `updated-at` from now
// on (Options.PolicyUpdatedAt at start).
func (s *Server) SetPolicyUpdatedAt(b PolicyUpdatedAt) error {
	b, err := ParsePolicyUpdatedAt(string(b))
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.policyUpdatedAt = b
	s.mu.Unlock()
	return nil
}

// PolicyUpdatedAt returns what moves a policy's `updated-at` now.
func (s *Server) PolicyUpdatedAt() PolicyUpdatedAt {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.policyUpdatedAt
}

// policyUpdatedAtSwitch is the body of /_sandbox/policy-updated-at.
type policyUpdatedAtSwitch struct {
	MovedBy PolicyUpdatedAt `json:"moved_by"`
}

// putPolicyUpdatedAt serves PUT /_sandbox/policy-updated-at (admin token
// only): the body is {"moved_by": "upload+patch" | "upload" | "patch" |
// "none"}; 200 echoes the behaviour in force, 400 names what is wrong.
func (s *Server) putPolicyUpdatedAt(w http.ResponseWriter, r *http.Request) {
	var b policyUpdatedAtSwitch
	dec := json.NewDecoder(io.LimitReader(r.Body, maxJSONBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		http.Error(w, "the body must be {\"moved_by\": ...}: "+err.Error(), http.StatusBadRequest)
		return
	}
	if err := s.SetPolicyUpdatedAt(b.MovedBy); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.getPolicyUpdatedAt(w, r)
}

// getPolicyUpdatedAt serves GET /_sandbox/policy-updated-at.
func (s *Server) getPolicyUpdatedAt(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(policyUpdatedAtSwitch{MovedBy: s.PolicyUpdatedAt()})
}

// registerPolicyUpdatedAtRoutes registers PUT and GET
// /_sandbox/policy-updated-at.
func (s *Server) registerPolicyUpdatedAtRoutes() {
	s.mux.HandleFunc("PUT /_sandbox/policy-updated-at", s.adminOnly(s.putPolicyUpdatedAt))
	s.mux.HandleFunc("GET /_sandbox/policy-updated-at", s.adminOnly(s.getPolicyUpdatedAt))
}
