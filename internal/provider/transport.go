package provider

import (
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// retryTransport retries rate-limited (429), failed (5xx other than 501)
// and unreachable requests up to max times, with exponential backoff and
// jitter, honouring X-RateLimit-Reset and Retry-After.
//
// go-tfe has retries of its own, but its maximum is fixed at 30 (minutes of
// waiting against a failing server) and cannot be configured. So the
// provider switches go-tfe's server-error retries off explicitly
// (RetryServerErrors: false) and retries here instead, where `retry_max`
// bounds them. go-tfe still retries a 429 by itself; to keep the bound, an
// exhausted 429 is returned as an error, which go-tfe does not retry.
type retryTransport struct {
	next    http.RoundTripper
	max     int
	minWait time.Duration
	maxWait time.Duration
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		resp, err := t.next.RoundTrip(req)
		if !retryable(resp, err) {
			return resp, err
		}
		if attempt >= t.max {
			if err == nil && resp.StatusCode == http.StatusTooManyRequests {
				resp.Body.Close() //nolint:errcheck,gosec // replaced by the error
				return nil, fmt.Errorf("%s %s: still rate limited (429) after %d retries", req.Method, req.URL.Path, t.max)
			}
			return resp, err
		}
		wait := t.backoff(attempt, resp)
		fields := map[string]any{"method": req.Method, "path": req.URL.Path, "attempt": attempt + 1, "retry_max": t.max, "wait": wait.String()}
		if err != nil {
			fields["error"] = err.Error()
		} else {
			fields["status"] = resp.StatusCode
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close() //nolint:errcheck,gosec // drained for connection reuse
		}
		tflog.Warn(ctx, "Retrying HCP Terraform API request", fields)
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, ctx.Err()
		case <-timer.C:
		}
		if req.Body != nil && req.Body != http.NoBody {
			if req.GetBody == nil {
				return nil, fmt.Errorf("%s %s: cannot retry a request whose body cannot be replayed", req.Method, req.URL.Path)
			}
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(ctx)
			req.Body = body
		}
	}
}

// retryable: 429, 5xx except 501 (not implemented never gets better), and
// transport errors other than a canceled context.
func retryable(resp *http.Response, err error) bool {
	if err != nil {
		return true
	}
	return resp.StatusCode == http.StatusTooManyRequests ||
		(resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented)
}

func (t *retryTransport) backoff(attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		for _, h := range []string{"X-RateLimit-Reset", "Retry-After"} {
			if secs, err := strconv.ParseFloat(resp.Header.Get(h), 64); err == nil && secs > 0 {
				return min(time.Duration(secs*float64(time.Second)), t.maxWait)
			}
		}
	}
	wait := t.minWait << attempt
	if wait > t.maxWait || wait <= 0 {
		wait = t.maxWait
	}
	// Up to 20% jitter so parallel resources do not retry in lockstep.
	return wait - time.Duration(rand.Int64N(int64(wait)/5+1)) //nolint:gosec // jitter, not a secret
}
