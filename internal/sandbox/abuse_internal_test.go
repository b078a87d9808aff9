package sandbox

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

func TestPaginate(t *testing.T) {
	t.Parallel()
	items := []int{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		number, size int
		want         []int
	}{
		{1, 2, []int{1, 2}},
		{3, 2, []int{5}},
		{4, 2, []int{}},
		{1, 100, items},
		{math.MaxInt, 2, []int{}},
		{math.MaxInt/2 + 2, 2, []int{}}, // (number-1)*size overflows
		{math.MaxInt, 100, []int{}},
	} {
		got := paginate(items, page{Number: tc.number, Size: tc.size})
		if len(got) != len(tc.want) || (len(got) > 0 && (got[0] != tc.want[0] || got[len(got)-1] != tc.want[len(tc.want)-1])) {
			t.Errorf("page %d of %d: %v, want %v", tc.number, tc.size, got, tc.want)
		}
	}
	if got := paginate([]int{}, page{Number: 1, Size: 20}); got == nil || len(got) != 0 {
		t.Errorf("empty list: %#v", got)
	}
}

// TestTestRunLog_offsetLimit reads a run's log with offsets and limits up
// to the largest int: never a panic, always a slice of the framed log.
func TestTestRunLog_offsetLimit(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.mu.Lock()
	m := fixtureModule(s.st)
	tr := &testRun{record: s.st.newRecord("trun-"), ModuleID: m.ID, Status: testRunFinished, LogSecret: randomString(40), Log: []byte("hello")}
	s.st.TestRuns[tr.ID] = tr
	s.mu.Unlock()
	framed := "\x02hello\x03"
	maxInt := strconv.Itoa(math.MaxInt)
	for _, tc := range []struct {
		query string
		want  string
	}{
		{"", framed},
		{"offset=1&limit=" + maxInt, framed[1:]},
		{"offset=" + maxInt + "&limit=" + maxInt, ""},
		{"offset=" + maxInt, ""},
		{"limit=" + maxInt, framed},
		{"offset=2&limit=3", framed[2:5]},
	} {
		req := httptest.NewRequestWithContext(context.Background(), "GET", "/test-run-logs/"+tr.LogSecret+"?"+tc.query, nil)
		rec := httptest.NewRecorder()
		s.uploads.serveHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.String() != tc.want {
			t.Errorf("%s: %d %q, want %q", tc.query, rec.Code, rec.Body.String(), tc.want)
		}
	}
	for _, q := range []string{"offset=-1", "limit=99999999999999999999", "offset=x"} {
		req := httptest.NewRequestWithContext(context.Background(), "GET", "/test-run-logs/"+tr.LogSecret+"?"+q, nil)
		rec := httptest.NewRecorder()
		s.uploads.serveHTTP(rec, req)
		if rec.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, rec.Code)
		}
	}
}

// TestRecover shows a handler's panic answered as a 500 JSON:API error
// (on the API and on the upload listener) with the state lock released,
// rather than a dropped connection.
func TestRecover(t *testing.T) {
	t.Parallel()
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	s.route("POST /api/v2/boom", func(http.ResponseWriter, *http.Request, principal) *apiError { panic("boom") })
	s.uploads.mux.HandleFunc("GET /boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	for _, url := range []string{ts.URL + "/api/v2/boom", s.uploads.base + "/boom"} {
		method := "POST"
		if strings.HasPrefix(url, s.uploads.base) {
			method = "GET"
		}
		req, _ := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer "+s.AdminToken())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var doc struct {
			Errors []struct{ Status string } `json:"errors"`
		}
		if resp.StatusCode != http.StatusInternalServerError || json.Unmarshal(raw, &doc) != nil || len(doc.Errors) != 1 || doc.Errors[0].Status != "500" {
			t.Errorf("%s: %d %s", url, resp.StatusCode, raw)
		}
	}
	// The write lock was released.
	req, _ := http.NewRequestWithContext(context.Background(), "GET", ts.URL+"/api/v2/account/details", nil)
	req.Header.Set("Authorization", "Bearer "+s.AdminToken())
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("after the panic: %v %v", resp, err)
	}
	resp.Body.Close()
}
