package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The sections of a seed file that declare what tfgov governs, made by hand
// before tfgov manages the organization: policies with their code, team
// access, agent tokens with their ages, module test variables and version
// deprecations. With them a configuration's imports, its exclusive
// lock-down of hand-made grants and its prune of old tokens are tested
// offline (README.md "Seed files").

type seedPolicy struct {
	path, ID, Name, Kind, Level string
	Description, Query          *string
	// Code is nil when the file gives none (nothing uploaded).
	Code []byte
}

type seedTeamAccess struct {
	path, ID, Team, Workspace string
	TeamID, WorkspaceID       string
	Access                    string
	Permissions               workspacePermissions
}

type seedAgentToken struct {
	path, ID, Description string
	// CreatedAgo and LastUsedAgo are how long before the seeding the token
	// was made and last used; LastUsed is false for a token never used.
	CreatedAgo, LastUsedAgo time.Duration
	LastUsed                bool
}

type seedTestVariable struct {
	path, ID, Key, Value, Description string
	Sensitive, HCL                    bool
}

type seedDeprecation struct {
	path, Version, Reason, Link string
}

// policies checks the organization orgName's policies[].
func (p *seedParser) policies(o *seedObj, orgName string) []seedPolicy {
	var out []seedPolicy
	names := map[string]string{}
	o.list("policies", func(path string, v any) {
		po := p.object(path, v, "code", "description", "enforcement_level", "id", "kind", "name", "query", "source")
		if po == nil {
			return
		}
		pol := seedPolicy{path: path}
		pol.Name = po.str("name", true, seedCheckName)
		p.unique(names, join(path, "name"), "policy name", pol.Name)
		pol.Description = po.optStr("description")
		pol.Kind = po.str("kind", false, func(s string) string {
			if _, ok := policyLevels[s]; !ok {
				return "is not a policy kind: sentinel or opa"
			}
			return ""
		})
		if pol.Kind == "" {
			pol.Kind = "sentinel"
		}
		pol.Query = po.optStr("query")
		switch {
		case pol.Query != nil && pol.Kind != "opa":
			p.fail(join(path, "query"), "applies only to a policy with kind opa")
		case pol.Query != nil && strings.TrimSpace(*pol.Query) == "":
			p.fail(join(path, "query"), "must not be blank")
		case pol.Query == nil && pol.Kind == "opa":
			p.fail(join(path, "query"), "required for an opa policy: the rule to evaluate, such as data.terraform.policies.deny")
		}
		pol.Level = po.str("enforcement_level", false, func(s string) string {
			if !slices.Contains(policyLevels[pol.Kind], s) {
				return fmt.Sprintf("is not an enforcement level of a %s policy: %s", pol.Kind, strings.Join(policyLevels[pol.Kind], ", "))
			}
			return ""
		})
		if pol.Level == "" {
			pol.Level = defaultPolicyLevel[pol.Kind]
		}
		pol.Code = p.policyCode(po)
		pol.ID = po.id("pol-", "a policy", orgName, pol.Name)
		out = append(out, pol)
	})
	return out
}

// policyCode reads a policy's code: code inline, or source, a file relative
// to the seed file's directory; neither is a policy with no code uploaded.
func (p *seedParser) policyCode(po *seedObj) []byte {
	code := po.optStr("code")
	source := po.str("source", false, nil)
	switch {
	case code != nil && source != "":
		p.fail(join(po.path, "source"), "give code or source, not both")
		return nil
	case code != nil:
		if len(*code) > MaxPolicyCodeSize {
			p.fail(join(po.path, "code"), "is larger than the service's limit of %d bytes", MaxPolicyCodeSize)
		}
		return []byte(*code)
	case source == "":
		return nil
	}
	raw, err := p.readSource(source)
	switch {
	case err != nil:
		p.fail(join(po.path, "source"), "%v", err)
		return nil
	case len(raw) > MaxPolicyCodeSize:
		p.fail(join(po.path, "source"), "%s is larger than the service's limit of %d bytes", source, MaxPolicyCodeSize)
		return nil
	}
	return raw
}

// readSource reads a file a seed file names, recording it so that a restart
// (Reseed) needs neither the seed file nor its files.
func (p *seedParser) readSource(name string) ([]byte, error) {
	if raw, ok := p.sources[name]; ok {
		return raw, nil
	}
	if p.source == nil {
		return nil, fmt.Errorf("%q cannot be read: this seed has no directory to read files from; give the code inline in code", name)
	}
	raw, err := p.source(name)
	if err != nil {
		return nil, err
	}
	p.sources[name] = raw
	return raw, nil
}

// teamAccessSection checks the organization's team_access[]: each names a
// team of teams[] (or owners) and a workspace of workspaces[].
func (p *seedParser) teamAccessSection(o *seedObj, orgName string, teams map[string]string, workspaces map[string]string) []seedTeamAccess {
	var out []seedTeamAccess
	grants := map[string]string{}
	o.list("team_access", func(path string, v any) {
		ao := p.object(path, v, "access", "id", "permissions", "team", "workspace")
		if ao == nil {
			return
		}
		g := seedTeamAccess{path: path}
		g.Team = ao.str("team", true, nil)
		g.TeamID = p.named(join(path, "team"), g.Team, teams, "a team name of this organization's teams[] (or owners)")
		g.Workspace = ao.str("workspace", true, nil)
		g.WorkspaceID = p.named(join(path, "workspace"), g.Workspace, workspaces, "a workspace name of this organization's workspaces[]")
		if g.TeamID != "" && g.WorkspaceID != "" {
			if other, ok := grants[g.TeamID+"/"+g.WorkspaceID]; ok {
				p.fail(path, "team %q already has access to workspace %q in %s: a team holds one access per workspace", g.Team, g.Workspace, other)
			}
			grants[g.TeamID+"/"+g.WorkspaceID] = path
		}
		g.Access = ao.str("access", true, func(s string) string {
			if !slices.Contains(teamAccessValues, s) {
				return "is not an access level: " + strings.Join(teamAccessValues, ", ")
			}
			return ""
		})
		g.Permissions = teamAccessCustomDefaults
		if g.Access != teamAccessCustom {
			g.Permissions = teamAccessLevels[g.Access]
		}
		if pv, ok := ao.m["permissions"]; ok {
			if g.Access != "" && g.Access != teamAccessCustom {
				p.fail(join(path, "permissions"), "applies only to access custom: access %s implies its permissions", g.Access)
			}
			p.permissions(join(path, "permissions"), pv, &g.Permissions)
		}
		g.ID = ao.id("tws-", "a team access", orgName, g.Team, g.Workspace)
		out = append(out, g)
	})
	return out
}

// permissions reads a custom grant's permissions (the API's attributes,
// with underscores) into perms, over the service's defaults.
func (p *seedParser) permissions(path string, v any, perms *workspacePermissions) {
	attrs := make([]permissionAttr[workspacePermissions], 0, len(teamAccessPermissionAttrs))
	for _, pa := range teamAccessPermissionAttrs {
		attrs = append(attrs, permissionAttr[workspacePermissions]{attr: pa.attr, allowed: pa.allowed, str: pa.str, flag: pa.flag})
	}
	seedPermissionObject(p, path, v, attrs, perms)
}

// named returns the ID of name in known (name -> ID), failing at path with
// what it must be when there is none.
func (p *seedParser) named(path, name string, known map[string]string, what string) string {
	if name == "" {
		return ""
	}
	id, ok := known[name]
	if !ok {
		names := make([]string, 0, len(known))
		for n := range known {
			names = append(names, n)
		}
		slices.Sort(names)
		p.fail(path, "%q is not %s; known: %s", name, what, orNone(names))
	}
	return id
}

// agentTokens checks an agent pool's tokens[].
func (p *seedParser) agentTokens(ao *seedObj, orgName, pool string) []seedAgentToken {
	var out []seedAgentToken
	unnamed := map[string]string{}
	ao.list("tokens", func(path string, v any) {
		to := p.object(path, v, "created_ago", "description", "id", "last_used_ago")
		if to == nil {
			return
		}
		t := seedAgentToken{path: path}
		t.Description = to.str("description", true, nil)
		if t.Description != "" && strings.TrimSpace(t.Description) == "" {
			p.fail(join(path, "description"), "must not be blank")
		}
		t.CreatedAgo, _ = p.age(to, "created_ago")
		t.LastUsedAgo, t.LastUsed = p.age(to, "last_used_ago")
		if t.LastUsed && t.LastUsedAgo > t.CreatedAgo {
			p.fail(join(path, "last_used_ago"), "is longer ago than created_ago (%s): a token is used after it is made", to.m["created_ago"])
		}
		if _, given := to.m["id"]; !given && t.Description != "" {
			p.knownBy(unnamed, path, "this pool's", t.Description)
		}
		t.ID = to.id("at-", "an agent token", orgName, pool, t.Description)
		out = append(out, t)
	})
	return out
}

// age reads an age at key: a Go duration such as "720h" or "1h30m", or
// whole days such as "30d"; ok is false when the key is absent.
func (p *seedParser) age(o *seedObj, key string) (time.Duration, bool) {
	var d time.Duration
	s := o.str(key, false, func(s string) string {
		var err error
		if d, err = parseAge(s); err != nil {
			return "is not an age: a duration such as 720h, 1h30m or 30d (days), not negative"
		}
		return ""
	})
	return d, s != ""
}

// parseAge parses "30d" (days) or a Go duration such as "720h".
func parseAge(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("not a number of days: %q", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d < 0 {
		return 0, fmt.Errorf("negative: %q", s)
	}
	return d, err
}

// testVariables checks a registry module's test_variables[].
func (p *seedParser) testVariables(mo *seedObj, orgName, module string) []seedTestVariable {
	var out []seedTestVariable
	keys := map[string]string{}
	mo.list("test_variables", func(path string, v any) {
		vo := p.object(path, v, "description", "hcl", "id", "key", "sensitive", "value")
		if vo == nil {
			return
		}
		tv := seedTestVariable{path: path}
		tv.Key = vo.str("key", true, func(s string) string {
			if !testVariableKeyRE.MatchString(s) {
				return "is not a test variable key: a letter or _, then letters, digits and _"
			}
			return ""
		})
		p.unique(keys, join(path, "key"), "key", tv.Key)
		tv.Value = vo.str("value", false, nil)
		tv.Description = vo.str("description", false, func(s string) string {
			if n := utf8.RuneCountInString(s); n > testVariableDescriptionMax {
				return fmt.Sprintf("is too long: at most %d characters, got %d", testVariableDescriptionMax, n)
			}
			return ""
		})
		tv.Sensitive = vo.boolean("sensitive", false)
		tv.HCL = vo.boolean("hcl", false)
		tv.ID = vo.id("var-", "a test variable", orgName, module, tv.Key)
		out = append(out, tv)
	})
	return out
}

// deprecations checks a registry module's deprecations[]: each a version of
// its versions.
func (p *seedParser) deprecations(mo *seedObj, versions []string) []seedDeprecation {
	var out []seedDeprecation
	seen := map[string]string{}
	mo.list("deprecations", func(path string, v any) {
		do := p.object(path, v, "link", "reason", "version")
		if do == nil {
			return
		}
		d := seedDeprecation{path: path}
		d.Version = do.str("version", true, func(s string) string {
			if !slices.Contains(versions, s) {
				return "is not a version of this module's versions: " + orNone(versions)
			}
			return ""
		})
		p.unique(seen, join(path, "version"), "deprecated version", d.Version)
		d.Reason = do.str("reason", false, nil)
		d.Link = do.str("link", false, func(s string) string {
			if !isHTTPURL(s) {
				return "is not an absolute http:// or https:// URL"
			}
			return ""
		})
		out = append(out, d)
	})
	return out
}
