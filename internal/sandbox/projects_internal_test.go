package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLoadSnapshot_beforeProjects: a --data file written before projects
// loads with a default project for each organization, holding every
// workspace, under an ID that the next load derives again.
func TestLoadSnapshot_beforeProjects(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	old := `{"seq": 3, "organizations": {"acme": {"id": "org-1", "seq": 1, "name": "acme", "owners_team_id": "team-1"}},
	         "workspaces": {"ws-1": {"id": "ws-1", "seq": 2, "org": "acme", "name": "app"}}}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := loadSnapshot(path)
	if err != nil {
		t.Fatal(err)
	}
	def := st.defaultProject("acme")
	if def == nil || def.Name != defaultProjectName || def.ID != stableID("prj-", "acme", defaultProjectName) {
		t.Fatalf("default project: %+v", def)
	}
	if ws := st.Workspaces["ws-1"]; ws.ProjectID != def.ID || st.projectOf(ws) != def || len(st.workspacesOf(def.ID)) != 1 {
		t.Errorf("workspace %+v, want it in %s", ws, def.ID)
	}
}
