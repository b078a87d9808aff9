package tfeclient

import (
	"net/http"
	"testing"
	"time"
)

// TestAmbiguousWindow: the window of a lost write, on the service's clock.
// The clock's offset comes from an answer's Date header (whole seconds):
// with the service 10 s ahead or behind, a created-at inside the request's
// window on the service's clock is in it, one a margin outside is not;
// without any Date header every time is in it.
func TestAmbiguousWindow(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for name, off := range map[string]time.Duration{"same clock": 0, "ahead": 10 * time.Second, "behind": -10 * time.Second, "ahead by a fraction": 10300 * time.Millisecond} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// An earlier answer, sent at start-1s and received 200 ms later,
			// processed 100 ms after sending: dated on the service's clock.
			var c ServiceClock
			sent := start.Add(-time.Second)
			date := sent.Add(100 * time.Millisecond).Add(off).Truncate(time.Second)
			c.observe(&http.Response{Header: http.Header{"Date": {date.Format(http.TimeFormat)}}}, sent, sent.Add(200*time.Millisecond))
			amb := &AmbiguousWriteError{Start: start, End: start.Add(2 * time.Second)}
			amb.OffsetLow, amb.OffsetHigh, amb.OffsetKnown = c.offset()
			if amb.OffsetLow > off || amb.OffsetHigh < off {
				t.Fatalf("offset bounds (%s, %s) do not hold the offset %s", amb.OffsetLow, amb.OffsetHigh, off)
			}
			for _, tc := range []struct {
				at   time.Duration // from start, on the service's clock
				want bool
			}{
				{0, true},
				{time.Second, true},
				{2 * time.Second, true},
				{-time.Hour, false},
				{-3 * time.Second, false},
				{5 * time.Second, false},
				{time.Hour, false},
			} {
				if got := amb.Within(start.Add(off + tc.at)); got != tc.want {
					t.Errorf("Within(start%+v on the service's clock) = %v, want %v", tc.at, got, tc.want)
				}
			}
		})
	}
	t.Run("no Date header", func(t *testing.T) {
		t.Parallel()
		amb := &AmbiguousWriteError{Start: start, End: start.Add(2 * time.Second)}
		for _, at := range []time.Duration{0, -time.Hour, time.Hour} {
			if !amb.Within(start.Add(at)) {
				t.Errorf("Within(start%+v) = false without a known clock; want every candidate named", at)
			}
		}
	})
}
