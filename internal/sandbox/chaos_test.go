package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// rawCall is one raw request's outcome: a status and headers, or a
// transport error (a dropped connection).
type rawCall struct {
	status int
	header http.Header
	body   []byte
	err    error
}

// call sends a raw request with token; body, when set, is sent as JSON:API.
// A fresh transport per call keeps a dropped connection from being retried
// transparently on another one; a redirect is returned, not followed.
func call(t testing.TB, method, url, token, body string) rawCall {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/vnd.api+json")
	}
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	resp, err := noRedirects(tr).Do(req)
	if err != nil {
		return rawCall{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return rawCall{status: resp.StatusCode, header: resp.Header, body: raw, err: err}
}

func policyBody(name string) string {
	return fmt.Sprintf(`{"data":{"type":"policies","attributes":{"name":%q,"kind":"sentinel","enforcement-level":"advisory"}}}`, name)
}

// policyNames lists the organization's policies through go-tfe.
func policyNames(t testing.TB, w *world) map[string]int {
	t.Helper()
	list, err := w.owner.Policies.List(context.Background(), w.org, &tfe.PolicyListOptions{ListOptions: tfe.ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatalf("list policies: %v", err)
	}
	out := map[string]int{}
	for _, p := range list.Items {
		out[p.Name]++
	}
	return out
}

func setChaos(t testing.TB, s *sandbox.Server, c sandbox.Chaos) {
	t.Helper()
	if err := s.SetChaos(c); err != nil {
		t.Fatal(err)
	}
}

// TestChaos_kinds sets each kind of chaos at rate 1 in turn and shows what
// a client sees and what the service did.
func TestChaos_kinds(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	srv := w.inst.Server
	policies := w.inst.URL + "/api/v2/organizations/acme/policies"

	// 429 before processing, with a well-formed reset; the ping is spared.
	setChaos(t, srv, sandbox.Chaos{Seed: 1, RateLimited: 1, RateLimitReset: 1500 * time.Millisecond})
	got := call(t, "POST", policies, w.inst.Token, policyBody("limited"))
	if got.err != nil || got.status != http.StatusTooManyRequests {
		t.Fatalf("429 chaos: %d %v", got.status, got.err)
	}
	if reset, err := strconv.ParseFloat(got.header.Get("X-RateLimit-Reset"), 64); err != nil || reset != 1.5 {
		t.Errorf("X-RateLimit-Reset = %q, want 1.500", got.header.Get("X-RateLimit-Reset"))
	}
	if ra := got.header.Get("Retry-After"); ra != "2" {
		t.Errorf("Retry-After = %q, want whole seconds rounded up (2)", ra)
	}
	if ping := call(t, "GET", w.inst.URL+"/api/v2/ping", "", ""); ping.status != http.StatusNoContent {
		t.Errorf("ping under chaos: %d %v", ping.status, ping.err)
	}

	// 503 before processing.
	setChaos(t, srv, sandbox.Chaos{Seed: 1, Unavailable: 1})
	if got := call(t, "POST", policies, w.inst.Token, policyBody("unavailable")); got.err != nil || got.status != http.StatusServiceUnavailable {
		t.Fatalf("503 chaos: %d %v", got.status, got.err)
	}

	// Lost answers: every create is made, every answer is a 503 or no
	// answer at all.
	setChaos(t, srv, sandbox.Chaos{Seed: 1, LostAnswer: 1})
	seen := map[string]bool{}
	for i := range 12 {
		got := call(t, "POST", policies, w.inst.Token, policyBody(fmt.Sprintf("lost-%d", i)))
		switch {
		case got.err != nil:
			seen["dropped"] = true
		case got.status == http.StatusServiceUnavailable:
			seen["503"] = true
		default:
			t.Errorf("lost answer %d: got %d %s", i, got.status, got.body)
		}
	}
	if !seen["dropped"] || !seen["503"] {
		t.Errorf("lost answers seen: %v, want both a 503 and a dropped connection", seen)
	}

	// Slow answers are processed and answered.
	setChaos(t, srv, sandbox.Chaos{Seed: 1, Slow: 1, SlowDelay: 50 * time.Millisecond})
	start := time.Now()
	if got := call(t, "POST", policies, w.inst.Token, policyBody("slow")); got.err != nil || got.status >= 300 {
		t.Fatalf("slow chaos: %d %v %s", got.status, got.err, got.body)
	}
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("a slow answer came after %s, before the 50ms delay", d)
	}

	stats := srv.ChaosStats()
	setChaos(t, srv, sandbox.Chaos{})
	names := policyNames(t, w)
	for i := range 12 {
		if names[fmt.Sprintf("lost-%d", i)] != 1 {
			t.Errorf("lost-%d: %d policies, want 1 (the answer was lost, not the create)", i, names[fmt.Sprintf("lost-%d", i)])
		}
	}
	if names["limited"] != 0 || names["unavailable"] != 0 || names["slow"] != 1 {
		t.Errorf("policies: %v; want none made by a 429 or a 503 before processing", names)
	}
	if stats[sandbox.ChaosRateLimited] != 1 || stats[sandbox.ChaosUnavailable] != 1 || stats[sandbox.ChaosSlow] != 1 ||
		stats[sandbox.ChaosLostAnswer503]+stats[sandbox.ChaosLostAnswerDropped] != 12 {
		t.Errorf("chaos stats %v", stats)
	}
}

// TestChaos_upload shows chaos on the upload listener: a lost answer
// stores the archive, a 503 before processing leaves the address usable.
func TestChaos_upload(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	srv := w.inst.Server
	_, id := w.testModule(t, "chaosup")
	archive := pack(t, passModule)
	for _, tc := range []struct {
		chaos    sandbox.Chaos
		uploaded bool
	}{
		{sandbox.Chaos{Seed: 3, Unavailable: 1}, false},
		{sandbox.Chaos{Seed: 3, LostAnswer: 1}, true},
	} {
		cv, err := w.owner.ConfigurationVersions.CreateForRegistryModule(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		setChaos(t, srv, tc.chaos)
		req, _ := http.NewRequestWithContext(ctx, "PUT", cv.UploadURL, bytes.NewReader(archive))
		resp, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable {
				t.Errorf("%v: upload answered %d", tc.chaos, resp.StatusCode)
			}
		}
		setChaos(t, srv, sandbox.Chaos{})
		read, err := w.owner.ConfigurationVersions.Read(ctx, cv.ID)
		if err != nil {
			t.Fatal(err)
		}
		if uploaded := read.Status == tfe.ConfigurationUploaded; uploaded != tc.uploaded {
			t.Errorf("%v: status %s, want uploaded=%v", tc.chaos, read.Status, tc.uploaded)
		}
		if !tc.uploaded {
			if err := w.owner.ConfigurationVersions.UploadTarGzip(ctx, cv.UploadURL, bytes.NewReader(archive)); err != nil {
				t.Errorf("upload after a 503 before processing: %v", err)
			}
		}
	}
}

// TestChaos_seeded shows that one seed gives one sequence of faults.
func TestChaos_seeded(t *testing.T) {
	t.Parallel()
	outcomes := func() string {
		inst := sandbox.StartWithOptions(t, sandbox.Options{Chaos: sandbox.Chaos{Seed: 42, RateLimited: 0.2, Unavailable: 0.2, LostAnswer: 0.2, Slow: 0.2, SlowDelay: time.Millisecond}})
		var b strings.Builder
		for range 40 {
			got := call(t, "GET", inst.URL+"/api/v2/account/details", inst.Token, "")
			if got.err != nil {
				b.WriteString("x ")
			} else {
				fmt.Fprintf(&b, "%d ", got.status)
			}
		}
		return b.String()
	}
	a, b := outcomes(), outcomes()
	if a != b {
		t.Errorf("seed 42 gave\n%s\nthen\n%s", a, b)
	}
	for _, want := range []string{"429", "503", "x", "200"} {
		if !strings.Contains(a, want+" ") {
			t.Errorf("no %s among %s", want, a)
		}
	}
}

// TestChaos_goTFE shows go-tfe with RetryServerErrors riding out 429s and
// 503s before processing: every create is made exactly once.
func TestChaos_goTFE(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	c, err := tfe.NewClient(&tfe.Config{Address: w.inst.URL, Token: w.inst.Token, RetryServerErrors: true})
	if err != nil {
		t.Fatal(err)
	}
	setChaos(t, w.inst.Server, sandbox.Chaos{Seed: 9, RateLimited: 0.25, Unavailable: 0.25, RateLimitReset: 10 * time.Millisecond})
	for i := range 10 {
		if _, err := c.Policies.Create(ctx, w.org, sentinelPolicy(fmt.Sprintf("p%d", i), tfe.EnforcementAdvisory)); err != nil {
			t.Fatalf("create p%d: %v", i, err)
		}
	}
	stats := w.inst.Server.ChaosStats()
	setChaos(t, w.inst.Server, sandbox.Chaos{})
	if names := policyNames(t, w); len(names) != 10 {
		t.Errorf("policies %v, want p0..p9 once each", names)
	}
	if stats[sandbox.ChaosRateLimited] == 0 || stats[sandbox.ChaosUnavailable] == 0 {
		t.Errorf("chaos stats %v, want both kinds injected", stats)
	}
}

// TestChaos_admin drives chaos through PUT, GET and DELETE /_sandbox/chaos.
func TestChaos_admin(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	url := w.inst.URL + "/_sandbox/chaos"
	if got := call(t, "PUT", url, w.inst.Token, `{"seed":7,"unavailable":1,"slow_delay":"2s"}`); got.status != http.StatusOK {
		t.Fatalf("PUT: %d %s", got.status, got.body)
	}
	if got := w.inst.Server.Chaos(); got.Seed != 7 || got.Unavailable != 1 || got.SlowDelay != 2*time.Second {
		t.Errorf("chaos after PUT: %+v", got)
	}
	for _, bad := range []string{`{"unavailable":2}`, `{"lost_answer":0.6,"slow":0.6}`, `{"nope":1}`, `{"slow_delay":"soon"}`, `[`} {
		if got := call(t, "PUT", url, w.inst.Token, bad); got.status != http.StatusBadRequest {
			t.Errorf("PUT %s: %d, want 400", bad, got.status)
		}
	}
	if got := call(t, "PUT", url, "not-admin", `{"unavailable":1}`); got.status != http.StatusNotFound {
		t.Errorf("PUT without the admin token: %d, want 404", got.status)
	}
	if got := call(t, "GET", w.inst.URL+"/api/v2/organizations/acme", w.inst.Token, ""); got.status != http.StatusServiceUnavailable {
		t.Errorf("request under chaos: %d", got.status)
	}
	var doc struct {
		Enabled  bool           `json:"enabled"`
		Injected map[string]int `json:"injected"`
	}
	got := call(t, "GET", url, w.inst.Token, "")
	if err := json.Unmarshal(got.body, &doc); err != nil || !doc.Enabled || doc.Injected["unavailable"] != 1 {
		t.Errorf("GET: %s (%v)", got.body, err)
	}
	var stats struct {
		Chaos map[string]int `json:"chaos"`
	}
	got = call(t, "GET", w.inst.URL+"/_sandbox/stats", w.inst.Token, "")
	if err := json.Unmarshal(got.body, &stats); err != nil || stats.Chaos["unavailable"] != 1 {
		t.Errorf("stats: %s (%v)", got.body, err)
	}
	if got := call(t, "DELETE", url, w.inst.Token, ""); got.status != http.StatusNoContent {
		t.Errorf("DELETE: %d", got.status)
	}
	if got := call(t, "GET", w.inst.URL+"/api/v2/organizations/acme", w.inst.Token, ""); got.status != http.StatusOK {
		t.Errorf("request after DELETE: %d", got.status)
	}
}

func TestParseChaos(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec string
		want sandbox.Chaos
		err  string
	}{
		{spec: "seed=7,429=0.05,503=0.05,lost=0.05,slow=0.05,slow-delay=1s", want: sandbox.Chaos{Seed: 7, RateLimited: 0.05, Unavailable: 0.05, LostAnswer: 0.05, Slow: 0.05, SlowDelay: time.Second}},
		{spec: " lost = 0.2 , reset=50ms", want: sandbox.Chaos{LostAnswer: 0.2, RateLimitReset: 50 * time.Millisecond}},
		{spec: "", want: sandbox.Chaos{}},
		{spec: "lost=1.5", err: "between 0 and 1"},
		{spec: "lost=0.6,503=0.6", err: "add up"},
		{spec: "lost", err: "key=value"},
		{spec: "boom=1", err: `unknown key "boom"`},
		{spec: "seed=x", err: "seed"},
		{spec: "slow-delay=-1s", err: "slow_delay"},
		{spec: "lost=0.1,lost=0.2", err: "twice"},
		{spec: "503=NaN", err: "between 0 and 1"},
	} {
		got, err := sandbox.ParseChaos(tc.spec)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.spec, got, err, tc.want)
		}
	}
	c, _ := sandbox.ParseChaos("seed=3,lost=0.25")
	if back, err := sandbox.ParseChaos(c.String()); err != nil || back.Seed != 3 || back.LostAnswer != 0.25 {
		t.Errorf("String %q does not read back: %+v %v", c.String(), back, err)
	}
}

// TestFaults_lostAnswer shows targeted faults with After and Drop: the
// create is made and persisted, only its answer is lost.
func TestFaults_lostAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	data := t.TempDir() + "/state.json"
	w := newWorldWith(t, sandbox.Options{DataFile: data})
	srv := w.inst.Server
	path := "/api/v2/organizations/acme/policies"
	if err := srv.InjectFault(sandbox.Fault{Method: "POST", Path: path, Status: 503, After: true, Count: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy("after", tfe.EnforcementAdvisory)); err == nil || !strings.Contains(err.Error(), "service unavailable") {
		t.Errorf("After: err %v, want service unavailable", err)
	}
	// Drop through the admin endpoint.
	if got := call(t, "POST", w.inst.URL+"/_sandbox/faults", w.inst.Token, `{"method":"POST","path":"`+path+`","drop":true,"count":1}`); got.status != http.StatusCreated {
		t.Fatalf("POST /_sandbox/faults: %d %s", got.status, got.body)
	}
	if got := call(t, "POST", w.inst.URL+path, w.inst.Token, policyBody("dropped")); got.err == nil {
		t.Errorf("Drop: answered %d %s, want no answer", got.status, got.body)
	}
	for _, bad := range []sandbox.Fault{
		{Path: path, Status: 503, After: true, Drop: true, Count: 1},
		{Path: path, Status: 200, Drop: true, Count: 1},
	} {
		if err := srv.InjectFault(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if names := policyNames(t, w); names["after"] != 1 || names["dropped"] != 1 {
		t.Errorf("policies %v, want after and dropped made", names)
	}
	// Both are in the snapshot: a new sandbox on the same file has them.
	w2 := restartedWorld(t, w, data)
	if names := policyNames(t, w2); names["after"] != 1 || names["dropped"] != 1 {
		t.Errorf("after a restart: policies %v", names)
	}
}

// restartedWorld starts a second sandbox on w's data file, acting with the
// admin token: the state a crash would leave.
func restartedWorld(t *testing.T, w *world, data string) *world {
	t.Helper()
	inst := sandbox.StartWithOptions(t, sandbox.Options{DataFile: data, Token: w.inst.Token})
	return &world{inst: inst, admin: client(t, inst, inst.Token), owner: client(t, inst, inst.Token), org: w.org}
}

// TestLatency shows every request waiting Options.Latency, outside the
// state lock: parallel requests wait together, not one after another. It
// asserts overlap, not wall time: each answer comes at least Latency after
// its request (its wait ends then), so answers of waits taken one after
// another are at least Latency apart, while waits taken together end
// together. A loaded machine delays every answer, but cannot make waits
// that overlapped come one Latency apart.
func TestLatency(t *testing.T) {
	t.Parallel()
	const latency = 300 * time.Millisecond
	const n = 8
	w := newWorldWith(t, sandbox.Options{Latency: latency})
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		answered []time.Time // when each answer's first byte arrived
	)
	errs := make(chan error, 2*n) // an error and a latency error each
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sent := time.Now()
			ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
				GotFirstResponseByte: func() {
					now := time.Now()
					mu.Lock()
					answered = append(answered, now)
					mu.Unlock()
					if now.Sub(sent) < latency {
						errs <- fmt.Errorf("request %d answered %s after it was sent, before the latency (%s) passed", i, now.Sub(sent), latency)
					}
				},
			})
			_, err := w.owner.Policies.Create(ctx, w.org, sentinelPolicy(fmt.Sprintf("l%d", i), tfe.EnforcementAdvisory))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// The most answers within one Latency of each other: 1 if the waits
	// were taken one after another, n if together.
	sort.Slice(answered, func(i, j int) bool { return answered[i].Before(answered[j]) })
	most := 0
	for i := range answered {
		j := i
		for j < len(answered) && answered[j].Sub(answered[i]) < latency {
			j++
		}
		most = max(most, j-i)
	}
	if len(answered) != n || most <= n/2 {
		t.Errorf("%d of %d answers came within %s of each other (answers %d): the requests waited one after another, not together", most, n, latency, len(answered))
	}
}

// noRedirects is a client on tr that returns a redirect as the answer.
func noRedirects(tr http.RoundTripper) *http.Client {
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
