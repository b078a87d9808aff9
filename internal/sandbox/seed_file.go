package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/go-version"
)

// A seed file declares an organization's shape for the sandbox to make at
// start (tfgov-sandbox --seed-file, README.md "Seed files"). It is JSON:
// the format of the sandbox's own --data snapshot, read without a new
// dependency, and what Terraform's jsonencode and jq write, so a seed can be
// generated from a real organization. Every field is checked before
// anything is made; a problem names the file, the field's path
// (organizations[0].teams[2].id) and what is allowed.

// seedSpec is a parsed, checked seed file. Every object has its ID: the
// one the file gives, or one derived from its names (stableID), so the
// same file makes the same IDs on every start.
type seedSpec struct {
	Organizations []seedOrg
	Users         []seedUser
	Env           []SeedVar
}

type seedUser struct {
	path, ID, Username, Email string
	Tokens                    []seedToken
}

type seedToken struct {
	path, ID, Description, Value string
}

type seedOrg struct {
	path, Name, Email, OwnersTeamID string
	Owners                          []string // usernames
	Teams                           []seedTeam
	Workspaces                      []seedWorkspace
	AgentPools                      []seedAgentPool
	Modules                         []seedModule
	Policies                        []seedPolicy
	TeamAccess                      []seedTeamAccess
	// DefaultProjectID is the default project's ID (given or derived);
	// Projects and ProjectAccess are seed_file_projects.go's.
	DefaultProjectID      string
	DefaultProjectIDGiven bool
	Projects              []seedProject
	ProjectAccess         []seedProjectAccess
	PolicySets            []seedPolicySet
}

type seedTeam struct {
	path, ID, Name, Visibility string
	Access                     orgAccess
	Members                    []string // usernames
}

type seedWorkspace struct {
	path, ID, Name, Description string
	TagNames                    []string
	// ProjectID is the project the workspace is in (its `project`, a name).
	ProjectID string
}

type seedAgentPool struct {
	path, ID, Name     string
	OrganizationScoped bool
	AllowedWorkspaces  []string // workspace names
	Tokens             []seedAgentToken
}

type seedModule struct {
	path, ID, Name, Provider string
	Versions                 []string
	TestVariables            []seedTestVariable
	Deprecations             []seedDeprecation
}

// SeedFileError is a seed file refused: each problem is "path: what is
// wrong and what is allowed".
type SeedFileError struct {
	File     string
	Problems []string
}

func (e *SeedFileError) Error() string {
	if len(e.Problems) == 1 {
		return fmt.Sprintf("seed file %s: %s", e.File, e.Problems[0])
	}
	return fmt.Sprintf("seed file %s has %d problems:\n  %s", e.File, len(e.Problems), strings.Join(e.Problems, "\n  "))
}

var (
	seedIDRE      = regexp.MustCompile(`^[A-Za-z0-9]{1,64}$`)
	seedEnvNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	usernameRE    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
)

// seedReservedEnv are the variables the sandbox itself prints.
var seedReservedEnv = []string{"TFE_ADDRESS", "TFE_HOSTNAME", "TFE_ORGANIZATION", "TFE_TOKEN", "SSL_CERT_FILE"}

// seedAccessKeys maps organization_access's keys (the API's names with
// underscores, as tfgov and hashicorp/tfe spell them) to orgAccess fields.
var seedAccessKeys = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[orgAccess]()
	for i := range t.NumField() {
		m[strings.ReplaceAll(t.Field(i).Tag.Get("json"), "-", "_")] = i
	}
	return m
}()

// parseSeedFile decodes and checks raw, the seed file named file; source
// reads the files it names (nil: none can be). It returns the files read,
// by the name the seed file gives.
func parseSeedFile(file string, raw []byte, source func(name string) ([]byte, error)) (*seedSpec, map[string][]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(raw, se.Offset)
			return nil, nil, &SeedFileError{File: file, Problems: []string{fmt.Sprintf("line %d, column %d: not valid JSON: %v", line, col, err)}}
		}
		return nil, nil, &SeedFileError{File: file, Problems: []string{fmt.Sprintf("not valid JSON: %v", err)}}
	}
	if dec.More() {
		return nil, nil, &SeedFileError{File: file, Problems: []string{"more than one JSON value: a seed file is one object"}}
	}
	p := &seedParser{ids: map[string]string{}, source: source, sources: map[string][]byte{}}
	spec := p.spec(doc)
	if len(p.problems) > 0 {
		return nil, nil, &SeedFileError{File: file, Problems: p.problems}
	}
	return spec, p.sources, nil
}

func lineCol(raw []byte, offset int64) (int, int) {
	// offset counts the byte that was wrong.
	before := raw[:min(max(int(offset)-1, 0), len(raw))]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, len(before) - bytes.LastIndexByte(before, '\n')
}

// seedParser walks the decoded document, collecting problems.
type seedParser struct {
	problems []string
	ids      map[string]string // ID -> path of the object that has it
	source   func(name string) ([]byte, error)
	sources  map[string][]byte // the files read, by name
}

func (p *seedParser) fail(path, format string, args ...any) {
	p.problems = append(p.problems, path+": "+fmt.Sprintf(format, args...))
}

// spec checks the whole document: users first (owners and members name
// them), then organizations, then env.
func (p *seedParser) spec(doc any) *seedSpec {
	top := p.object("(top level)", doc, "env", "organizations", "users")
	if top == nil {
		return nil
	}
	top.path = ""
	spec := &seedSpec{}
	usernames := map[string]string{}
	spec.Users = p.users(top, usernames)
	knownUser := p.knownUser(usernames)
	orgs := map[string]string{}
	top.list("organizations", func(path string, v any) {
		if org, ok := p.organization(path, v, orgs, spec.Users, knownUser); ok {
			spec.Organizations = append(spec.Organizations, org)
		}
	})
	p.requireOrganizationsAndToken(top, spec.Users)
	spec.Env = p.env(top)
	return spec
}

// users checks users[]; usernames collects them (username -> path).
func (p *seedParser) users(top *seedObj, usernames map[string]string) []seedUser {
	var users []seedUser
	tokenValues := map[string]string{}
	top.list("users", func(path string, v any) {
		o := p.object(path, v, "email", "id", "tokens", "username")
		if o == nil {
			return
		}
		u := seedUser{path: path}
		u.Username = o.str("username", true, seedCheckUsername)
		p.unique(usernames, join(path, "username"), "username", u.Username)
		u.Email = o.str("email", true, seedCheckEmail)
		u.ID = o.id("user-", "a user", u.Username)
		unnamed := map[string]string{}
		o.list("tokens", func(path string, v any) {
			if t, ok := p.token(path, v, u.Username, unnamed, tokenValues); ok {
				u.Tokens = append(u.Tokens, t)
			}
		})
		users = append(users, u)
	})
	return users
}

// token checks a token of the user username; unnamed collects the descriptions of its tokens
// without an id.
func (p *seedParser) token(path string, v any, username string, unnamed, tokenValues map[string]string) (seedToken, bool) {
	to := p.object(path, v, "description", "id", "value")
	if to == nil {
		return seedToken{}, false
	}
	t := seedToken{path: path}
	t.Description = to.str("description", false, nil)
	t.Value = to.str("value", false, seedCheckTokenValue)
	p.unique(tokenValues, join(path, "value"), "token value", t.Value)
	if _, given := to.m["id"]; !given {
		p.knownBy(unnamed, path, "this user's", t.Description)
	}
	t.ID = to.id("at-", "a token", username, t.Description)
	return t, true
}

// knownUser returns the check of a username that owners and members name.
func (p *seedParser) knownUser(usernames map[string]string) func(path, name string) bool {
	return func(path, name string) bool {
		if _, ok := usernames[name]; !ok {
			known := make([]string, 0, len(usernames))
			for n := range usernames {
				known = append(known, n)
			}
			slices.Sort(known)
			p.fail(path, "%q is not a username of users[]; known: %s", name, orNone(known))
			return false
		}
		return true
	}
}

// organization checks one of organizations[]; orgs collects their names.
func (p *seedParser) organization(path string, v any, orgs map[string]string, users []seedUser, knownUser func(path, name string) bool) (seedOrg, bool) {
	o := p.object(path, v, "agent_pools", "default_project_id", "email", "name", "owners", "owners_team_id", "policies", "policy_sets", "project_access", "projects", "registry_modules", "team_access", "teams", "workspaces")
	if o == nil {
		return seedOrg{}, false
	}
	org := seedOrg{path: path}
	org.Name = o.str("name", true, seedCheckName)
	p.unique(orgs, join(path, "name"), "organization name", org.Name)
	org.Email = o.str("email", false, nil)
	org.Owners = o.strings("owners", knownUser)
	if l, ok := o.m["owners"].([]any); !ok || len(l) == 0 {
		if _, present := o.m["owners"]; !present || ok {
			p.fail(join(path, "owners"), "required: a list of at least one username of users[] (the owners team's members)")
		}
	}
	org.OwnersTeamID = o.idAt("owners_team_id", "team-", "a team", org.Name, "owners")
	org.Teams = p.teams(o, org.Name, knownUser)
	_, org.DefaultProjectIDGiven = o.m["default_project_id"]
	org.DefaultProjectID = o.idAt("default_project_id", "prj-", "a project", org.Name, defaultProjectName)
	projects := map[string]string{}
	org.Projects = p.projects(o, org.Name, org.DefaultProjectID, projects)
	workspaces := map[string]string{}
	org.Workspaces = p.workspaces(o, org.Name, workspaces, projects)
	org.AgentPools = p.agentPools(o, org.Name, workspaces)
	org.Modules = p.registryModules(o, org.Name)
	org.Policies = p.policies(o, org.Name)
	teamIDs := map[string]string{"owners": org.OwnersTeamID}
	for _, t := range org.Teams {
		teamIDs[t.Name] = t.ID
	}
	wsIDs := map[string]string{}
	for _, w := range org.Workspaces {
		wsIDs[w.Name] = w.ID
	}
	org.TeamAccess = p.teamAccessSection(o, org.Name, teamIDs, wsIDs)
	org.ProjectAccess = p.projectAccessSection(o, org.Name, teamIDs, projects)
	org.PolicySets = p.policySets(o, org.Name, org.Policies, wsIDs)
	if org.Email == "" && len(org.Owners) > 0 {
		for _, u := range users {
			if u.Username == org.Owners[0] {
				org.Email = u.Email
			}
		}
	}
	return org, true
}

// teams checks the organization orgName's teams[].
func (p *seedParser) teams(o *seedObj, orgName string, knownUser func(path, name string) bool) []seedTeam {
	var out []seedTeam
	names := map[string]string{"owners": "the owners team"}
	o.list("teams", func(path string, v any) {
		to := p.object(path, v, "id", "members", "name", "organization_access", "visibility")
		if to == nil {
			return
		}
		t := seedTeam{path: path}
		t.Name = to.str("name", true, nil)
		p.unique(names, join(path, "name"), "team name", t.Name)
		t.Visibility = to.str("visibility", false, seedCheckVisibility)
		if t.Visibility == "" {
			t.Visibility = "secret"
		}
		p.teamAccess(to, &t.Access)
		t.Members = to.strings("members", knownUser)
		t.ID = to.id("team-", "a team", orgName, t.Name)
		out = append(out, t)
	})
	return out
}

// teamAccess reads a team's organization_access, when there is one, into
// access.
func (p *seedParser) teamAccess(to *seedObj, access *orgAccess) {
	av, ok := to.m["organization_access"]
	if !ok {
		return
	}
	allowed := make([]string, 0, len(seedAccessKeys))
	for k := range seedAccessKeys {
		allowed = append(allowed, k)
	}
	slices.Sort(allowed)
	if ao := p.object(join(to.path, "organization_access"), av, allowed...); ao != nil {
		rv := reflect.ValueOf(access).Elem()
		for k, i := range seedAccessKeys {
			rv.Field(i).SetBool(ao.boolean(k, false))
		}
	}
}

// workspaces checks the organization orgName's workspaces[]; names collects
// their names, for the agent pools' allowed_workspaces.
func (p *seedParser) workspaces(o *seedObj, orgName string, names, projects map[string]string) []seedWorkspace {
	var out []seedWorkspace
	o.list("workspaces", func(path string, v any) {
		wo := p.object(path, v, "description", "id", "name", "project", "tag_names")
		if wo == nil {
			return
		}
		w := seedWorkspace{path: path}
		w.Name = wo.str("name", true, seedCheckName)
		p.unique(names, join(path, "name"), "workspace name", w.Name)
		w.Description = wo.str("description", false, nil)
		tags := map[string]string{}
		w.TagNames = wo.strings("tag_names", func(path, s string) bool {
			if msg := checkTagName(s); msg != "" {
				p.fail(path, "%s (lower case: the service stores tags lower-case)", msg)
				return false
			}
			p.unique(tags, path, "tag", s)
			return true
		})
		w.ProjectID = projects[defaultProjectName]
		if name := wo.str("project", false, nil); name != "" {
			w.ProjectID = p.named(join(path, "project"), name, projects, "a project name of this organization's projects[] (or "+defaultProjectName+")")
		}
		w.ID = wo.id("ws-", "a workspace", orgName, w.Name)
		out = append(out, w)
	})
	return out
}

// agentPools checks the organization orgName's agent_pools[]; workspaces
// are the names its allowed_workspaces may give.
func (p *seedParser) agentPools(o *seedObj, orgName string, workspaces map[string]string) []seedAgentPool {
	var out []seedAgentPool
	names := map[string]string{}
	o.list("agent_pools", func(path string, v any) {
		ao := p.object(path, v, "allowed_workspaces", "id", "name", "organization_scoped", "tokens")
		if ao == nil {
			return
		}
		a := seedAgentPool{path: path}
		a.Name = ao.str("name", true, nil)
		p.unique(names, join(path, "name"), "agent pool name", a.Name)
		a.OrganizationScoped = ao.boolean("organization_scoped", true)
		a.AllowedWorkspaces = ao.strings("allowed_workspaces", func(path, s string) bool {
			if _, ok := workspaces[s]; !ok {
				p.fail(path, "%q is not a workspace name of this organization's workspaces[]", s)
				return false
			}
			return true
		})
		if a.OrganizationScoped && len(a.AllowedWorkspaces) > 0 {
			p.fail(join(path, "allowed_workspaces"), "applies only to a pool with organization_scoped = false (an organization-scoped pool serves every workspace)")
		}
		a.ID = ao.id("apool-", "an agent pool", orgName, a.Name)
		a.Tokens = p.agentTokens(ao, orgName, a.Name)
		out = append(out, a)
	})
	return out
}

// registryModules checks the organization orgName's registry_modules[].
func (p *seedParser) registryModules(o *seedObj, orgName string) []seedModule {
	var out []seedModule
	modules := map[string]string{}
	o.list("registry_modules", func(path string, v any) {
		mo := p.object(path, v, "deprecations", "id", "name", "provider", "test_variables", "versions")
		if mo == nil {
			return
		}
		m := seedModule{path: path}
		m.Name = mo.str("name", true, seedCheckName)
		m.Provider = mo.str("provider", true, seedCheckModuleProvider)
		p.unique(modules, path, "module", m.Name+"/"+m.Provider)
		versions := map[string]string{}
		m.Versions = mo.strings("versions", func(path, s string) bool {
			if _, err := version.NewSemver(s); err != nil {
				p.fail(path, "%q is not a semantic version such as 1.2.3", s)
				return false
			}
			p.unique(versions, path, "version", s)
			return true
		})
		m.ID = mo.id("mod-", "a registry module", orgName, m.Name, m.Provider)
		m.TestVariables = p.testVariables(mo, orgName, m.Name+"/"+m.Provider)
		m.Deprecations = p.deprecations(mo, m.Versions)
		out = append(out, m)
	})
	return out
}

// requireOrganizationsAndToken checks that the file has an organization
// and a user with a token (the token exported as TFE_TOKEN).
func (p *seedParser) requireOrganizationsAndToken(top *seedObj, users []seedUser) {
	if l, ok := top.m["organizations"].([]any); !ok || len(l) == 0 {
		if _, present := top.m["organizations"]; !present || ok {
			p.fail("organizations", "required: a list of at least one organization")
		}
	}
	if _, ok := top.m["users"]; !ok {
		p.fail("users", "required: at least one user, with a token (the first token in the file is exported as TFE_TOKEN)")
	} else if !slices.ContainsFunc(users, func(u seedUser) bool { return len(u.Tokens) > 0 }) {
		p.fail("users", "no user has a token: give one user tokens (the first token in the file is exported as TFE_TOKEN)")
	}
}

// env checks env[], the variables printed with the export lines.
func (p *seedParser) env(top *seedObj) []SeedVar {
	var out []SeedVar
	names := map[string]string{}
	top.list("env", func(path string, v any) {
		eo := p.object(path, v, "about", "name", "value")
		if eo == nil {
			return
		}
		e := SeedVar{}
		e.Env = eo.str("name", true, seedCheckEnvName)
		p.unique(names, join(path, "name"), "variable", e.Env)
		if _, ok := eo.m["value"]; !ok {
			p.fail(join(path, "value"), "required (a string; \"\" is allowed)")
		}
		e.Value = eo.str("value", false, nil)
		e.About = eo.str("about", false, nil)
		out = append(out, e)
	})
	return out
}
