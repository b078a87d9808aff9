package sandbox

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"path"
	"slices"
	"strconv"
	"time"
)

// A seed file's policy_sets[]: sets made by hand before tfgov manages them,
// with their policies or one uploaded version, their scope and parameters
// (README.md "Seed files"). Read and checked here, made by applyPolicySets.

type seedPolicySet struct {
	path, ID, Name, Kind string
	Description          string
	Global               bool
	// PolicyIDs, WorkspaceIDs and ExclusionIDs are resolved from the names
	// the file gives.
	PolicyIDs, WorkspaceIDs, ExclusionIDs []string
	// Version is the slug of version_files (nil: no version).
	Version    []byte
	Parameters []seedParameter
}

type seedParameter struct {
	path, ID, Key, Value string
	Sensitive            bool
}

// policySets checks the organization orgName's policy_sets[]: policies
// are names of its policies[] of the set's kind, workspaces names of its
// workspaces[].
func (p *seedParser) policySets(o *seedObj, orgName string, policies []seedPolicy, workspaces map[string]string) []seedPolicySet {
	var out []seedPolicySet
	names := map[string]string{}
	polIDs, polKinds := map[string]string{}, map[string]string{}
	for _, pol := range policies {
		polIDs[pol.Name], polKinds[pol.Name] = pol.ID, pol.Kind
	}
	o.list("policy_sets", func(at string, v any) {
		so := p.object(at, v, "description", "global", "id", "kind", "name", "parameters", "policies", "version_files", "workspace_exclusions", "workspaces")
		if so == nil {
			return
		}
		ps := seedPolicySet{path: at}
		ps.Name = so.str("name", true, seedCheckName)
		p.unique(names, join(at, "name"), "policy set name", ps.Name)
		ps.Kind = so.str("kind", false, func(s string) string {
			if _, ok := policyLevels[s]; !ok {
				return "is not a policy kind: sentinel or opa"
			}
			return ""
		})
		if ps.Kind == "" {
			ps.Kind = "sentinel"
		}
		if d := so.optStr("description"); d != nil {
			ps.Description = *d
		}
		ps.Global = so.boolean("global", false)
		pols := so.strings("policies", func(path, name string) bool {
			switch {
			case polIDs[name] == "":
				p.fail(path, "%q is not a name of this organization's policies[]", name)
			case polKinds[name] != ps.Kind:
				p.fail(path, "policy %q is a %s policy; a %s set takes %s policies", name, polKinds[name], ps.Kind, ps.Kind)
			default:
				return true
			}
			return false
		})
		for _, name := range pols {
			ps.PolicyIDs = append(ps.PolicyIDs, polIDs[name])
		}
		for _, f := range []struct {
			key string
			dst *[]string
		}{{"workspaces", &ps.WorkspaceIDs}, {"workspace_exclusions", &ps.ExclusionIDs}} {
			for _, name := range so.strings(f.key, func(path, name string) bool {
				return p.named(path, name, workspaces, "a workspace of workspaces[]") != ""
			}) {
				*f.dst = append(*f.dst, workspaces[name])
			}
		}
		if ps.Global && len(ps.WorkspaceIDs) > 0 {
			p.fail(join(at, "workspaces"), "a global policy set applies to every workspace: give workspace_exclusions instead")
		}
		files := so.strings("version_files", func(string, string) bool { return true })
		switch {
		case len(files) > 0 && len(ps.PolicyIDs) > 0:
			p.fail(join(at, "version_files"), "a policy set holds policies or a version, not both")
		case len(files) > 0:
			ps.Version = p.seedVersion(join(at, "version_files"), ps.Kind, files)
		}
		ps.ID = so.id("polset-", "a policy set", orgName, ps.Name)
		ps.Parameters = p.seedParameters(so, ps.ID)
		out = append(out, ps)
	})
	return out
}

// seedVersion packs files (relative to the seed file; each at the slug's
// root under its base name) and ingests the slug as the service would: a
// version that would error is refused here, with its message.
func (p *seedParser) seedVersion(at, kind string, files []string) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	seen := map[string]bool{}
	for i, name := range files {
		raw, err := p.readSource(name)
		if err != nil {
			p.fail(at+"["+strconv.Itoa(i)+"]", "%v", err)
			return nil
		}
		base := path.Base(name)
		if seen[base] {
			p.fail(at+"["+strconv.Itoa(i)+"]", "two files named %s: each goes to the root of the version", base)
			return nil
		}
		seen[base] = true
		_ = tw.WriteHeader(&tar.Header{Name: base, Mode: 0o644, Size: int64(len(raw)), Typeflag: tar.TypeReg})
		_, _ = tw.Write(raw)
	}
	_ = tw.Close()
	_ = zw.Close()
	if _, err := ingestPolicySet(kind, buf.Bytes()); err != nil {
		p.fail(at, "the version would error: %v", err)
		return nil
	}
	return buf.Bytes()
}

func (p *seedParser) seedParameters(so *seedObj, setID string) []seedParameter {
	var out []seedParameter
	keys := map[string]string{}
	so.list("parameters", func(at string, v any) {
		po := p.object(at, v, "id", "key", "sensitive", "value")
		if po == nil {
			return
		}
		sp := seedParameter{path: at}
		sp.Key = po.str("key", true, func(s string) string {
			if !testVariableKeyRE.MatchString(s) {
				return "is not a parameter key: a letter or _, then letters, digits and _"
			}
			return ""
		})
		p.unique(keys, join(at, "key"), "parameter key", sp.Key)
		if v := po.optStr("value"); v != nil {
			sp.Value = *v
		}
		sp.Sensitive = po.boolean("sensitive", false)
		sp.ID = po.id("var-", "a parameter", setID, sp.Key)
		out = append(out, sp)
	})
	return out
}

// policySetConflicts lists where the seed's sets contradict the state.
func (st *state) policySetConflicts(so seedOrg, fail func(path, format string, args ...any)) {
	for _, sp := range so.PolicySets {
		if st.Seeded[sp.ID] {
			continue
		}
		if have := st.PolicySets[sp.ID]; have != nil && have.Org != so.Name {
			fail(sp.path+".id", "%q is already the ID of policy set %q of organization %s", sp.ID, have.Name, have.Org)
		}
		if have := find(st.PolicySets, func(x *policySet) bool { return x.Org == so.Name && x.Name == sp.Name }); have != nil && have.ID != sp.ID {
			fail(sp.path+".name", "policy set %q already exists in %s with ID %s: give that ID, or another name", sp.Name, so.Name, have.ID)
		}
	}
}

// applyPolicySets makes the seed's sets that the state lacks and no seed
// made before, with what of their policies and workspaces exists; a
// version is made ready at once.
func (st *state) applyPolicySets(so seedOrg) {
	for _, sp := range so.PolicySets {
		if st.PolicySets[sp.ID] != nil || st.Seeded[sp.ID] {
			continue
		}
		ps := &policySet{record: st.recordWithID(sp.ID), Org: so.Name, Name: sp.Name, Kind: sp.Kind, Description: sp.Description, Global: sp.Global, PolicyIDs: []string{}}
		ps.UpdatedAt = ps.CreatedAt
		exists := func(m func(id string) bool) func(ids []string) []string {
			return func(ids []string) []string {
				return slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return !m(id) })
			}
		}
		ps.PolicyIDs = append(ps.PolicyIDs, exists(func(id string) bool { return st.Policies[id] != nil })(sp.PolicyIDs)...)
		wsExists := exists(func(id string) bool { return st.Workspaces[id] != nil })
		ps.WorkspaceIDs, ps.WorkspaceExclusions = wsExists(sp.WorkspaceIDs), wsExists(sp.ExclusionIDs)
		st.PolicySets[ps.ID] = ps
		if sp.Version != nil {
			names, _ := ingestPolicySet(sp.Kind, sp.Version)
			v := &policySetVersion{record: st.newRecord("polsetver-"), SetID: ps.ID, Result: "ready", Policies: names}
			v.ID = stableID("polsetver-", ps.ID)
			v.UploadedAt = v.CreatedAt.Add(-policySetIngestTime - time.Millisecond)
			st.PolicySetVersions[v.ID] = v
		}
		for _, pp := range sp.Parameters {
			st.PolicySetParameters[pp.ID] = &policySetParameter{record: st.recordWithID(pp.ID), SetID: ps.ID, Key: pp.Key, Value: pp.Value, Sensitive: pp.Sensitive}
		}
	}
}
