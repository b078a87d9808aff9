package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	slug "github.com/hashicorp/go-slug"
)

// Internal tests of what the API cannot reach: configuration versions from
// version control (auto-queue-runs), the engine's restart behaviour, and
// the init decision.

func packDir(t *testing.T, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := slug.Pack(dir, &buf, true); err != nil {
		t.Fatalf("pack %s: %v", dir, err)
	}
	return buf.Bytes()
}

// fixtureModule makes organization acme and module acme/tested/aws.
func fixtureModule(st *state) *registryModule {
	owner := st.userByEmail("owner@acme.test")
	st.createOrganization("acme", owner.Email, owner)
	m := &registryModule{record: st.newRecord("mod-"), Org: "acme", Name: "tested", Provider: "aws"}
	st.RegistryModules[m.ID] = m
	return m
}

// waitFinal polls until the run reaches a final state.
func waitFinal(t *testing.T, s *Server, id string) testRun {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		s.mu.RLock()
		tr := *s.st.TestRuns[id]
		s.mu.RUnlock()
		if tr.final() {
			return tr
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s is still %s", id, tr.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestConfigurationVersionAutoQueue(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { ts.Close(); _ = s.Close() })

	s.mu.Lock()
	m := fixtureModule(s.st)
	vcs := s.st.newConfigurationVersion(m, true)
	api := s.st.newConfigurationVersion(m, false)
	archive := packDir(t, "../testdata/module-tests/pass")
	for _, cv := range []*configurationVersion{vcs, api} {
		if e := s.acceptConfiguration(s.st, cv.ID, archive); e != nil {
			t.Fatalf("accept: %v", e)
		}
	}
	var runs []*testRun
	for _, tr := range s.st.TestRuns {
		runs = append(runs, tr)
	}
	s.mu.Unlock()
	if len(runs) != 1 || runs[0].Source != testSourceConfigurationVersion || runs[0].ConfigVersionID != vcs.ID || runs[0].CreatedBy != "" {
		t.Fatalf("uploading to a version-control version and an API version queued %+v; want one run of the former, source %s", runs, testSourceConfigurationVersion)
	}
	tr := waitFinal(t, s, runs[0].ID)
	if tr.Status != testRunFinished || tr.TestStatus != "pass" || *tr.Passed != 3 {
		t.Fatalf("auto-queued run: %+v\n%s", tr, tr.Log)
	}

	for filter, want := range map[string]float64{testSourceConfigurationVersion: 1, testSourceAPI: 0, "svc-api,svc-configuration-version": 1} {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, ts.URL+"/api/v2/organizations/acme/tests/registry-modules/private/acme/tested/aws/test-runs?filter%5Bsource%5D="+filter, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Data []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"data"`
			Meta struct {
				Pagination map[string]any `json:"pagination"`
			} `json:"meta"`
		}
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if doc.Meta.Pagination["total-count"] != want {
			t.Errorf("filter[source]=%s: %v runs, want %v", filter, doc.Meta.Pagination["total-count"], want)
		}
		for _, d := range doc.Data {
			if d.Attributes["source"] != testSourceConfigurationVersion || d.Attributes["message"] != testRunMessages[testSourceConfigurationVersion] {
				t.Errorf("run attributes %v", d.Attributes)
			}
		}
	}
}

// TestTestEngineRestart: a sandbox restarted on its snapshot runs the runs
// that were queued and errors those that were executing.
func TestTestEngineRestart(t *testing.T) {
	t.Parallel()
	data := filepath.Join(t.TempDir(), "state.json")
	first, err := New(Options{DataFile: data})
	if err != nil {
		t.Fatal(err)
	}
	first.mu.Lock()
	m := fixtureModule(first.st)
	cv := first.st.newConfigurationVersion(m, false)
	cv.Status, cv.Archive = "uploaded", packDir(t, "../testdata/module-tests/fail")
	queued := first.st.newTestRun(m.ID, cv.ID, testSourceAPI, "")
	running := first.st.newTestRun(m.ID, cv.ID, testSourceAPI, "")
	running.Status = testRunRunning
	first.persistLocked()
	first.mu.Unlock()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second, err := New(Options{DataFile: data})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = second.Close() })
	got := waitFinal(t, second, queued.ID)
	if got.Status != testRunFinished || got.TestStatus != "fail" || *got.Passed != 1 || *got.Failed != 1 {
		t.Fatalf("queued run after the restart: %+v\n%s", got, got.Log)
	}
	second.mu.RLock()
	interrupted := *second.st.TestRuns[running.ID]
	second.mu.RUnlock()
	if interrupted.Status != testRunErrored || interrupted.ErroredAt.IsZero() || !bytes.Contains(interrupted.Log, []byte("sandbox stopped")) {
		t.Fatalf("run that was executing: %+v", interrupted)
	}

	// Both outcomes are in the snapshot.
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	st, err := loadSnapshot(data)
	if err != nil || len(raw) == 0 {
		t.Fatal(err)
	}
	if st.TestRuns[queued.ID].Status != testRunFinished || st.TestRuns[running.ID].Status != testRunErrored || len(st.ConfigurationVersions[cv.ID].Archive) == 0 {
		t.Fatalf("snapshot: %+v %+v", st.TestRuns[queued.ID], st.TestRuns[running.ID])
	}
}

func TestNeedsInit(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		files map[string]string
		want  bool
	}{
		"builtin only": {map[string]string{
			"main.tf": `
terraform {
  required_providers {
    terraform = { source = "terraform.io/builtin/terraform" }
  }
}
locals { a = 1 }
resource "terraform_data" "x" {}
data "terraform_remote_state" "s" {
  backend = "local"
}
check "c" {
  assert {
    condition     = true
    error_message = "x"
  }
}
output "a" { value = local.a }`,
			"tests/a.tftest.hcl": `run "a" {
  command = plan
}`,
		}, false},
		"required provider":    {map[string]string{"main.tf": "terraform {\n  required_providers {\n    random = { source = \"hashicorp/random\" }\n  }\n}\n"}, true},
		"implied provider":     {map[string]string{"main.tf": "resource \"random_pet\" \"p\" {}\n"}, true},
		"provider block":       {map[string]string{"main.tf": "provider \"aws\" {}\n"}, true},
		"module call":          {map[string]string{"main.tf": "module \"m\" {\n  source = \"./m\"\n}\n"}, true},
		"data source in check": {map[string]string{"main.tf": "check \"c\" {\n  data \"http\" \"h\" {\n    url = \"https://example.com\"\n  }\n}\n"}, true},
		"module in a run":      {map[string]string{"main.tf": "", "tests/a.tftest.hcl": "run \"a\" {\n  module {\n    source = \"./setup\"\n  }\n}\n"}, true},
		"mock provider":        {map[string]string{"main.tf": "", "tests/a.tftest.hcl": "mock_provider \"aws\" {}\n"}, true},
		"json configuration":   {map[string]string{"main.tf.json": "{}"}, true},
		"unparsable":           {map[string]string{"main.tf": "locals {"}, true},
		"other test directory": {map[string]string{"main.tf": "", "tests/a.tftest.hcl": "provider \"aws\" {}\n"}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for f, content := range tc.files {
				p := filepath.Join(dir, f)
				if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			testDir := "tests"
			if name == "other test directory" {
				testDir = "integration"
			}
			if got := needsInit(dir, testDir); got != tc.want {
				t.Errorf("needsInit = %v, want %v", got, tc.want)
			}
		})
	}
}
