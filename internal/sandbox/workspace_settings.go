package sandbox

import (
	"fmt"
	"net/http"
	"regexp"
	"time"
)

// Workspace settings, updates and safe delete, as hashicorp/tfe's tfe_workspace uses them:
// README.md "Workspace settings".

// wsSetting is one setting: kind "bool", "string" or "strings", its value
// on a new workspace, and for strings an optional check of the value.
type wsSetting struct {
	attr  string
	kind  string
	def   any
	check func(string) string
}

// autoDestroyDurationRE is the real service's form of an inactivity
// period: up to four digits and `d` (days) or `h` (hours).
var autoDestroyDurationRE = regexp.MustCompile(`^[1-9][0-9]{0,3}[dh]$`)

var workspaceSettings = []wsSetting{
	{attr: "allow-destroy-plan", kind: "bool", def: true},
	{attr: "assessments-enabled", kind: "bool", def: false},
	{attr: "auto-apply", kind: "bool", def: false},
	{attr: "auto-apply-run-trigger", kind: "bool", def: false},
	{attr: "file-triggers-enabled", kind: "bool", def: true},
	{attr: "global-remote-state", kind: "bool", def: false},
	{attr: "queue-all-runs", kind: "bool", def: false},
	{attr: "speculative-enabled", kind: "bool", def: true},
	{attr: "structured-run-output-enabled", kind: "bool", def: true},
	{attr: "source-name", kind: "string", def: ""},
	{attr: "source-url", kind: "string", def: ""},
	{attr: "terraform-version", kind: "string", def: "latest", check: func(v string) string {
		if v == "" {
			return "terraform-version can't be blank"
		}
		return ""
	}},
	{attr: "working-directory", kind: "string", def: ""},
	{attr: "trigger-prefixes", kind: "strings", def: []string{}},
	{attr: "trigger-patterns", kind: "strings", def: []string{}},
	// Null (nil) until set, and null clears them.
	{attr: "auto-destroy-at", kind: "string", check: func(v string) string {
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return fmt.Sprintf("auto-destroy-at must be an ISO 8601 time, got %q", v)
		}
		return ""
	}},
	{attr: "auto-destroy-activity-duration", kind: "string", check: func(v string) string {
		if !autoDestroyDurationRE.MatchString(v) {
			return fmt.Sprintf("auto-destroy-activity-duration must be a number of days or hours such as 14d or 12h, got %q", v)
		}
		return ""
	}},
}

// setting returns the workspace's value of attr, or its default.
func (ws *workspace) setting(attr string) any {
	if v, ok := ws.Settings[attr]; ok {
		return v
	}
	for _, s := range workspaceSettings {
		if s.attr == attr {
			return s.def
		}
	}
	return nil
}

// workspaceSettingsAttributes adds every setting, the effective execution
// mode and what follows from it to res.
func (st *state) workspaceSettingsAttributes(ws *workspace, res *resource) {
	for _, s := range workspaceSettings {
		res.Attributes[s.attr] = ws.setting(s.attr)
	}
	mode, pool := st.effectiveExecution(ws)
	res.Attributes["execution-mode"] = mode
	res.Attributes["operations"] = mode != "local"
	own := ws.ExecutionMode != ""
	res.Attributes["setting-overwrites"] = map[string]any{"execution-mode": own, "agent-pool": own}
	res.Relationships["agent-pool"] = relOne("agent-pools", pool)
	res.Links["self-html"] = fmt.Sprintf("/app/%s/workspaces/%s", ws.Org, ws.Name)
}

// effectiveExecution is the workspace's execution mode and agent pool: its
// own, or else its project's default (which is its own or the organization's).
func (st *state) effectiveExecution(ws *workspace) (mode, pool string) {
	mode, pool = ws.ExecutionMode, ws.AgentPoolID
	if mode == "" {
		if prj := st.projectOf(ws); prj != nil {
			return st.projectExecution(prj)
		}
		mode = "remote"
	}
	if mode != "agent" || st.AgentPools[pool] == nil {
		pool = ""
	}
	return mode, pool
}

// applyWorkspaceSettings reads every setting b carries, checks them all and
// only then applies them to ws (untouched on error).
func (st *state) applyWorkspaceSettings(b *body, ws *workspace) *apiError {
	out := map[string]any{}
	for k, v := range ws.Settings {
		out[k] = v
	}
	for _, s := range workspaceSettings {
		if !b.has(s.attr) {
			continue
		}
		if !b.present(s.attr) {
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
		case "strings":
			if v := b.optStrings(s.attr); v != nil {
				out[s.attr] = v
			}
		default:
			if v := b.optString(s.attr); v != nil {
				if s.check != nil && s.check(*v) != "" {
					b.fail(errInvalidAttribute(s.attr, s.check(*v)))
				}
				out[s.attr] = *v
			}
		}
	}
	mode, pool := st.readExecution(b, ws)
	if b.present("vcs-repo") {
		b.fail(errInvalidAttribute("vcs-repo", "the sandbox does not connect workspaces to VCS repositories: leave vcs-repo out"))
	}
	projectID := ws.ProjectID
	if id := b.relID("project", "projects"); id != "" {
		if st.projectIn(ws.Org, id) == nil {
			b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: "project " + id + " not found in organization " + ws.Org, Pointer: "/data/relationships/project"})
		}
		projectID = id
	}
	if b.err != nil {
		return b.err
	}
	ws.Settings, ws.ExecutionMode, ws.AgentPoolID, ws.ProjectID = out, mode, pool, projectID
	return nil
}

// readExecution reads execution-mode, operations, setting-overwrites and
// agent-pool into the workspace's own mode ("" inherits) and pool.
func (st *state) readExecution(b *body, ws *workspace) (mode, pool string) {
	mode, pool = ws.ExecutionMode, ws.AgentPoolID
	var overwrites struct {
		ExecutionMode *bool `json:"execution-mode"`
	}
	b.optObject("setting-overwrites", &overwrites)
	sent := b.optString("execution-mode")
	b.oneOf("execution-mode", sent, "remote", "local", "agent")
	if sent == nil {
		if ops := b.optBool("operations"); ops != nil {
			m := "local"
			if *ops {
				m = "remote"
			}
			sent = &m
		}
	}
	// go-tfe sends the pool as the attribute agent-pool-id; the
	// relationship is accepted too.
	if id := b.optString("agent-pool-id"); id != nil {
		pool = *id
	} else if _, ok := b.res.Relationships["agent-pool"]; ok {
		pool = b.relID("agent-pool", "agent-pools")
	}
	switch {
	case overwrites.ExecutionMode != nil && !*overwrites.ExecutionMode:
		return "", ""
	case sent != nil:
		mode = *sent
	}
	if mode != "agent" {
		return mode, ""
	}
	if ap := st.AgentPools[pool]; ap == nil || ap.Org != ws.Org {
		b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
			Detail: "execution-mode agent needs an agent-pool of the organization", Pointer: "/data/relationships/agent-pool"})
	}
	return mode, pool
}

// workspaceAccess is what a principal may do on a workspace, the union of
// what its teams' grants allow; admin is set for owners, manage-workspaces
// and admin grants, and allows everything.
type workspaceAccess struct {
	admin, any                               bool
	queueRun, queueApply, lock, runTasks     bool
	readVariables, writeVariables, readState bool
	owner                                    bool
}

func (st *state) workspaceAccessOf(p principal, ws *workspace) workspaceAccess {
	a := workspaceAccess{owner: st.actsAsOwner(p, ws.Org)}
	if a.owner || st.hasOrgAccess(p, ws.Org, canManageWorkspaces) {
		a.admin = true
	}
	for _, t := range st.teamsOf(p, ws.Org) {
		for _, rt := range st.teamRoutesTo(t, ws) {
			perm := rt.Permissions
			a.any = true
			a.admin = a.admin || rt.Admin
			a.queueRun = a.queueRun || perm.Runs == "plan" || perm.Runs == "apply"
			a.queueApply = a.queueApply || perm.Runs == "apply"
			a.lock = a.lock || perm.WorkspaceLocking
			a.runTasks = a.runTasks || perm.RunTasks
			a.readVariables = a.readVariables || perm.Variables != "none"
			a.writeVariables = a.writeVariables || perm.Variables == "write"
			a.readState = a.readState || perm.StateVersions == "read" || perm.StateVersions == "write"
		}
	}
	return a
}

// workspacePermissionsFor is the `permissions` attribute for p. An admin may
// do everything but force-delete, which owners always may and other admins
// only where the organization allows force deletes
// (`allow-force-delete-workspaces`), as the real service documents that
// setting. Managing HYOK is never allowed: the sandbox has no HYOK.
func (st *state) workspacePermissionsFor(p principal, ws *workspace) map[string]any {
	a := st.workspaceAccessOf(p, ws)
	force := a.owner
	if o := st.Organizations[ws.Org]; a.admin && o != nil && o.setting("allow-force-delete-workspaces") == true {
		force = true
	}
	return map[string]any{
		"can-update":              a.admin,
		"can-destroy":             a.admin,
		"can-queue-destroy":       a.admin,
		"can-force-unlock":        a.admin,
		"can-read-settings":       a.admin || a.any,
		"can-queue-run":           a.admin || a.queueRun,
		"can-queue-apply":         a.admin || a.queueApply,
		"can-lock":                a.admin || a.lock,
		"can-unlock":              a.admin || a.lock,
		"can-manage-run-tasks":    a.admin || a.runTasks,
		"can-read-variable":       a.admin || a.readVariables,
		"can-update-variable":     a.admin || a.writeVariables,
		"can-read-state-versions": a.admin || a.readState,
		"can-manage-hyok":         false,
		"can-force-delete":        force,
	}
}

// workspaceRenderer renders workspaces for p, with p's permissions.
func (st *state) workspaceRenderer(p principal) func(*workspace) resource {
	return func(ws *workspace) resource {
		res := st.workspaceResource(ws)
		res.Attributes["permissions"] = st.workspacePermissionsFor(p, ws)
		return res
	}
}

// workspaceToManage is the workspace the request names when p may update
// or delete it: owners, manage-workspaces and the workspace's admins.
func (st *state) workspaceToManage(r *http.Request, p principal) *workspace {
	return visible(st.workspaceAt(r), func(ws *workspace) bool {
		return st.canReadWorkspace(p, ws) && st.workspaceAccessOf(p, ws).admin
	})
}

// updateWorkspace serves both update paths: name (unique in the
// organization), description and the settings.
func (s *Server) updateWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	ws := s.st.workspaceToManage(r, p)
	if ws == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "workspaces")
	if e != nil {
		return e
	}
	name := b.optString("name")
	desc := b.optString("description")
	if b.err != nil {
		return b.err
	}
	if name != nil && *name != ws.Name {
		if e := checkName(*name); e != nil {
			return e
		}
		if s.st.workspaceByName(ws.Org, *name) != nil {
			return errNameTaken()
		}
	}
	bindings, e := readTagBindings(b, ws.TagBindings)
	if e != nil {
		return e
	}
	if e := s.st.applyWorkspaceSettings(b, ws); e != nil {
		return e
	}
	ws.TagBindings = bindings
	assign(&ws.Name, name)
	assign(&ws.Description, desc)
	ws.UpdatedAt = s.st.now()
	return writeOne(w, http.StatusOK, ws, s.st.workspaceRenderer(p))
}

// safeDeleteWorkspace serves both safe-delete paths: 204, as DELETE.
func (s *Server) safeDeleteWorkspace(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	return deleteOne(w, s.st.workspaceToManage(r, p), s.st.deleteWorkspace)
}
