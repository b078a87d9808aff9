package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestRunReporter: a message for each change of the run's status, outcome
// or counts, none for a read that shows no change.
func TestRunReporter(t *testing.T) {
	n := func(i int) *int { return &i }
	s := func(v string) *string { return &v }
	m := moduleRef{Organization: "acme", Name: "network", Provider: "aws"}
	reads := []testRunRecord{
		{ID: "trun-1", Status: "queued"},
		{ID: "trun-1", Status: "queued"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running"},
		{ID: "trun-1", Status: "running", TestsPassed: n(1), TestsFailed: n(0)},
		{ID: "trun-1", Status: "running", TestsPassed: n(1), TestsFailed: n(0)},
		{ID: "trun-1", Status: "finished", TestStatus: s("fail"), TestsPassed: n(1), TestsFailed: n(1), TestsErrored: n(0), TestsSkipped: n(2)},
		{ID: "trun-1", Status: "finished", TestStatus: s("fail"), TestsPassed: n(1), TestsFailed: n(1), TestsErrored: n(0), TestsSkipped: n(2)},
	}
	var got []string
	r := &runReporter{m: m, start: time.Now(), send: func(msg string) { got = append(got, msg) }}
	for i := range reads {
		r.observe(&reads[i])
	}
	want := []string{
		"Test run trun-1 of acme/network/aws: queued",
		"Test run trun-1 of acme/network/aws: running",
		"Test run trun-1 of acme/network/aws: running, 1 passed, 0 failed, 0 errored, 0 skipped",
		"Test run trun-1 of acme/network/aws: finished (fail), 1 passed, 1 failed, 0 errored, 2 skipped",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("messages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRunProgressMessage_elapsed: the time since queuing shows once the
// run has left the queue.
func TestRunProgressMessage_elapsed(t *testing.T) {
	m := moduleRef{Organization: "acme", Name: "network", Provider: "aws"}
	tests := []struct {
		status  string
		elapsed time.Duration
		want    string
	}{
		{"queued", 5 * time.Second, "Test run trun-1 of acme/network/aws: queued"},
		{"running", 500 * time.Millisecond, "Test run trun-1 of acme/network/aws: running"},
		{"running", 72400 * time.Millisecond, "Test run trun-1 of acme/network/aws: running after 1m12s"},
		{"canceled", 3 * time.Second, "Test run trun-1 of acme/network/aws: canceled after 3s"},
	}
	for _, tc := range tests {
		if got := (runProgress{status: tc.status}).message("trun-1", m, tc.elapsed); got != tc.want {
			t.Errorf("%s after %s: %q, want %q", tc.status, tc.elapsed, got, tc.want)
		}
	}
}

// TestActionProgress_neverBlocks: once the invocation's context has ended
// (Terraform interrupted it), sending progress returns even though nothing
// takes the message, and sends nothing more.
func TestActionProgress_neverBlocks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	taken := make(chan string, 1)
	block := make(chan struct{}) // never closed: Terraform stopped reading
	pushes := 0
	p := newActionProgress(ctx, func(e action.InvokeProgressEvent) {
		pushes++
		if pushes == 1 {
			taken <- e.Message
			return
		}
		<-block
	})
	p.send("first")
	if got := <-taken; got != "first" {
		t.Fatalf("first message %q", got)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		time.AfterFunc(50*time.Millisecond, cancel)
		p.send("second: blocked until the context ends")
		p.send("third: not sent")
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("send blocked after the context ended")
	}
}

// TestCheckModuleDirectory names the attribute and says what is wrong.
func TestCheckModuleDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "main.tf")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		dir, want string
	}{
		"directory": {dir, ""},
		"missing":   {filepath.Join(dir, "nope"), "source: the directory " + filepath.Join(dir, "nope") + " does not exist"},
		"file":      {file, "source: " + file + " is not a directory"},
	}
	for name, tc := range tests {
		got := ""
		if err := checkModuleDirectory(tc.dir); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}

// TestModuleTestActionDocs: the action's page template, written by hand
// because Terraform 1.11 (which generates the docs in CI) exports no action
// schemas, says what the schema says: its description, and each argument
// with its type and description, as tfplugindocs renders them.
func TestModuleTestActionDocs(t *testing.T) {
	var resp action.SchemaResponse
	NewModuleTestAction().Schema(context.Background(), action.SchemaRequest{}, &resp)
	page, err := os.ReadFile(filepath.Join(repoRoot(), "templates", "actions", "module_test.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[bool][]string{}
	for _, name := range slices.Sorted(maps.Keys(resp.Schema.Attributes)) {
		a := resp.Schema.Attributes[name]
		var typ string
		switch ty := a.GetType(); {
		case ty.Equal(types.StringType):
			typ = "String"
		case ty.Equal(types.BoolType):
			typ = "Boolean"
		case ty.Equal(types.ListType{ElemType: types.StringType}):
			typ = "List of String"
		case ty.Equal(types.MapType{ElemType: types.StringType}):
			typ = "Map of String"
		}
		if typ == "" {
			t.Fatalf("%s: type %s has no name here; add it", name, a.GetType())
		}
		want[a.IsRequired()] = append(want[a.IsRequired()], fmt.Sprintf("- `%s` (%s) %s", name, typ, a.GetMarkdownDescription()))
	}
	schemaDoc := "## Schema\n\n### Required\n\n" + strings.Join(want[true], "\n") + "\n\n### Optional\n\n" + strings.Join(want[false], "\n") + "\n"
	if !strings.HasSuffix(string(page), schemaDoc) {
		t.Errorf("templates/actions/module_test.md.tmpl does not end with the schema's arguments; replace its Schema section with:\n\n%s", schemaDoc)
	}
	if !strings.Contains(string(page), "# tfgov_module_test (Action)\n\n"+resp.Schema.MarkdownDescription+"\n") {
		t.Errorf("templates/actions/module_test.md.tmpl lacks the schema's description (run make docs with Terraform 1.14 or later on PATH and copy the page)")
	}
}
