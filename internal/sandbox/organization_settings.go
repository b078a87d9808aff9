package sandbox

import (
	"fmt"
	"net/http"
	"strings"
)

// Organization settings, as go-tfe's Organizations.Update sends them: README.md
// "Organization settings".

// orgSetting is one settable attribute: its kind decides how it is read
// and checked, and def is what a new organization reports.
type orgSetting struct {
	attr    string
	kind    string // "bool", "minutes", "enum" or "string"
	allowed []string
	def     any
}

var orgSettings = []orgSetting{
	{attr: "session-timeout", kind: "minutes"},
	{attr: "session-remember", kind: "minutes"},
	{attr: "collaborator-auth-policy", kind: "enum", allowed: []string{"password", "two_factor_mandatory"}, def: "password"},
	{attr: "default-execution-mode", kind: "enum", allowed: []string{"remote", "local", "agent"}, def: "remote"},
	{attr: "owners-team-saml-role-id", kind: "string"},
	{attr: "cost-estimation-enabled", kind: "bool", def: false},
	{attr: "send-passing-statuses-for-untriggered-speculative-plans", kind: "bool", def: false},
	{attr: "aggregated-commit-status-enabled", kind: "bool", def: false},
	{attr: "assessments-enforced", kind: "bool", def: false},
	{attr: "allow-force-delete-workspaces", kind: "bool", def: false},
	{attr: "speculative-plan-management-enabled", kind: "bool", def: true},
	{attr: "user-tokens-enabled", kind: "bool", def: true},
	{attr: "enforce-hyok", kind: "bool", def: false},
	{attr: "stacks-enabled", kind: "bool", def: false},
	{attr: "max-ttl-enabled", kind: "bool", def: false},
}

// maxSessionMinutes is the longest session setting the sandbox accepts.
const maxSessionMinutes = 20160

// setting returns the organization's value of attr: what was set, else the
// default a new organization reports (nil: null).
func (o *organization) setting(attr string) any {
	if v, ok := o.Settings[attr]; ok {
		return v
	}
	for _, s := range orgSettings {
		if s.attr == attr {
			return s.def
		}
	}
	return nil
}

// settingsAttributes adds every setting to attrs.
func (o *organization) settingsAttributes(attrs map[string]any) {
	for _, s := range orgSettings {
		attrs[s.attr] = o.setting(s.attr)
	}
}

// readOrgSettings reads the settings b carries into a copy of have, after
// checking each; the caller stores the copy only when b.err is nil.
func readOrgSettings(b *body, have map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range have {
		out[k] = v
	}
	for _, s := range orgSettings {
		if !b.has(s.attr) {
			continue
		}
		if !b.present(s.attr) {
			// null: only the nullable settings may be cleared.
			if s.def != nil {
				b.fail(errInvalidAttribute(s.attr, s.attr+" cannot be null"))
			}
			delete(out, s.attr)
			continue
		}
		switch s.kind {
		case "bool":
			if v := b.optBool(s.attr); v != nil {
				out[s.attr] = *v
			}
		case "minutes":
			if v := b.optInt(s.attr); v != nil {
				if *v < 1 || *v > maxSessionMinutes {
					b.fail(errInvalidAttribute(s.attr, fmt.Sprintf("%s must be between 1 and %d minutes, got %d", s.attr, maxSessionMinutes, *v)))
				}
				out[s.attr] = *v
			}
		default:
			v := b.optString(s.attr)
			if s.kind == "enum" {
				b.oneOf(s.attr, v, s.allowed...)
			}
			if v != nil {
				out[s.attr] = *v
			}
		}
	}
	return out
}

// updateOrganization is PATCH /organizations/:name.
func (s *Server) updateOrganization(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	o := s.st.Organizations[r.PathValue("org")]
	if o == nil || !s.st.actsAsOwner(p, o.Name) {
		// As every refusal of the sandbox: the same 404 as a missing one.
		return errNotFound()
	}
	b, e := decodeBody(r, "organizations")
	if e != nil {
		return e
	}
	if name := b.optString("name"); name != nil && *name != o.Name {
		b.fail(errInvalidAttribute("name", fmt.Sprintf("the sandbox does not rename organizations: %q cannot become %q", o.Name, *name)))
	}
	email := b.optString("email")
	if email != nil && !strings.Contains(*email, "@") {
		b.fail(errInvalidAttribute("email", fmt.Sprintf("email %q is not an email address", *email)))
	}
	settings := readOrgSettings(b, o.Settings)
	pool := o.DefaultAgentPoolID
	if _, ok := b.res.Relationships["default-agent-pool"]; ok {
		pool = b.relID("default-agent-pool", "agent-pools")
	}
	if b.err != nil {
		return b.err
	}
	probe := &organization{Settings: settings}
	if probe.setting("default-execution-mode") == "agent" {
		if ap := s.st.AgentPools[pool]; ap == nil || ap.Org != o.Name {
			return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
				Detail: "default-execution-mode agent needs a default-agent-pool of the organization", Pointer: "/data/relationships/default-agent-pool"}
		}
	} else {
		pool = ""
	}
	if probe.setting("aggregated-commit-status-enabled") == true && probe.setting("send-passing-statuses-for-untriggered-speculative-plans") == true {
		return errInvalidAttribute("aggregated-commit-status-enabled",
			"aggregated-commit-status-enabled and send-passing-statuses-for-untriggered-speculative-plans cannot both be true")
	}
	assign(&o.Email, email)
	o.Settings, o.DefaultAgentPoolID = settings, pool
	return writeOne(w, http.StatusOK, o, s.st.organizationResource)
}
