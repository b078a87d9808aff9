package sandbox

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// state is everything the sandbox knows. It is guarded by Server.mu and is
// serialized whole into the --data snapshot, so every field is exported and
// holds plain data. Records refer to each other by id.
type state struct {
	Seq int64 `json:"seq"`
	// AdminUserID is the user record the admin token acts as.
	AdminUserID string `json:"admin_user_id"`

	Organizations map[string]*organization `json:"organizations"` // by name
	Users         map[string]*user         `json:"users"`
	Memberships   map[string]*membership   `json:"memberships"`
	Teams         map[string]*team         `json:"teams"`
	// Tokens holds every API and agent token by id; TokenIndex maps the
	// SHA-256 of a secret to its token id. Secrets themselves are never kept.
	Tokens          map[string]*token          `json:"tokens"`
	TokenIndex      map[string]string          `json:"token_index"`
	Workspaces      map[string]*workspace      `json:"workspaces"`
	AgentPools      map[string]*agentPool      `json:"agent_pools"`
	RegistryModules map[string]*registryModule `json:"registry_modules"`
	PolicySets      map[string]*policySet      `json:"policy_sets"`
	// PolicySetVersions and PolicySetParameters hang off policy sets
	// (policy_set_versions.go, policy_set_parameters.go).
	PolicySetVersions   map[string]*policySetVersion   `json:"policy_set_versions"`
	PolicySetParameters map[string]*policySetParameter `json:"policy_set_parameters"`
	// ToolVersions is the admin catalog of Sentinel and OPA versions
	// (admin_tool_versions.go).
	ToolVersions map[string]*toolVersion `json:"tool_versions"`
	TeamAccesses map[string]*teamAccess  `json:"team_accesses"`
	// Projects and TeamProjectAccesses are projects.go and
	// team_project_access.go.
	Projects            map[string]*project           `json:"projects"`
	TeamProjectAccesses map[string]*teamProjectAccess `json:"team_project_accesses"`
	Policies            map[string]*policy            `json:"policies"`
	// OAuthClients and OAuthTokens are the VCS providers (oauth_clients.go).
	OAuthClients map[string]*oauthClient `json:"oauth_clients"`
	OAuthTokens  map[string]*oauthToken  `json:"oauth_tokens"`
	// ConfigurationVersions and TestRuns are the module test runs section
	// (module_test_runs.go).
	ConfigurationVersions map[string]*configurationVersion `json:"configuration_versions"`
	TestRuns              map[string]*testRun              `json:"test_runs"`
	TestVariables         map[string]*testVariable         `json:"test_variables"`
	// Seed is the last seed applied (seed.go), applied again at a restart.
	Seed *seedRecord `json:"seed,omitempty"`
	// Seeded holds the keys (seedKey) of the objects a seed declared and found or made: a later
	// seeding leaves them to what the API did since (README.md "Seed files").
	Seeded map[string]bool `json:"seeded,omitempty"`

	// clock is the sandbox's clock (clock.go), not persisted.
	clock *serviceClock
}

func newState() *state {
	return &state{
		Organizations:   map[string]*organization{},
		Users:           map[string]*user{},
		Memberships:     map[string]*membership{},
		Teams:           map[string]*team{},
		Tokens:          map[string]*token{},
		TokenIndex:      map[string]string{},
		Workspaces:      map[string]*workspace{},
		AgentPools:      map[string]*agentPool{},
		RegistryModules: map[string]*registryModule{},
		PolicySets:      map[string]*policySet{},

		PolicySetVersions:   map[string]*policySetVersion{},
		PolicySetParameters: map[string]*policySetParameter{},
		ToolVersions:        map[string]*toolVersion{},
		TeamAccesses:        map[string]*teamAccess{},
		Projects:            map[string]*project{},
		TeamProjectAccesses: map[string]*teamProjectAccess{},
		Policies:            map[string]*policy{},
		OAuthClients:        map[string]*oauthClient{},
		OAuthTokens:         map[string]*oauthToken{},

		ConfigurationVersions: map[string]*configurationVersion{},
		TestRuns:              map[string]*testRun{},
		TestVariables:         map[string]*testVariable{},
		clock:                 &serviceClock{},
	}
}

// record is embedded by every stored record: Seq orders lists by creation.
type record struct {
	ID        string    `json:"id"`
	Seq       int64     `json:"seq"`
	CreatedAt time.Time `json:"created_at"`
}

// newRecord makes a record with a fresh id of the given prefix.
func (st *state) newRecord(prefix string) record {
	st.Seq++
	return record{ID: newID(prefix), Seq: st.Seq, CreatedAt: st.now()}
}

func (r record) seq() int64 { return r.Seq }

// sorted returns the values of m that keep reports true, oldest first.
func sorted[T interface{ seq() int64 }](m map[string]T, keep func(T) bool) []T {
	out := make([]T, 0, len(m))
	for _, v := range m {
		if keep == nil || keep(v) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b T) int { return cmp.Compare(a.seq(), b.seq()) })
	return out
}

const idAlphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

// newID returns prefix followed by 16 random base-62 characters, the shape
// of the real service's identifiers (`at-5Bv2zGWWz8HkR2vJ`).
func newID(prefix string) string {
	return prefix + randomString(16)
}

func randomString(n int) string {
	buf := make([]byte, n)
	if _, err := rand.Read(buf); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	for i, b := range buf {
		buf[i] = idAlphabet[int(b)%len(idAlphabet)]
	}
	return string(buf)
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// loadSnapshot reads a snapshot written by saveSnapshot. A missing file is
// an empty state.
func loadSnapshot(path string) (*state, error) {
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return newState(), nil
	}
	if err != nil {
		return nil, err
	}
	// Decoding into fresh maps keeps a section that an older snapshot lacks
	// as an empty map rather than nil.
	st := newState()
	if err := json.Unmarshal(raw, st); err != nil {
		return nil, fmt.Errorf("reading sandbox snapshot %s: %w", path, err)
	}
	st.ensureProjects() // a snapshot from before projects
	return st, nil
}

// saveSnapshot writes st to path atomically: a temporary file in the same
// directory, synced, then renamed over the old snapshot. A crash leaves
// either the old or the new snapshot, never a torn one.
func saveSnapshot(path string, raw []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tfgov-sandbox-*.json")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // gone after a successful rename
	if _, err := f.Write(raw); err != nil {
		f.Close() // the write error is the one to report
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close() // the sync error is the one to report
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
