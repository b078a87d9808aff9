package sandbox

import (
	"encoding/json"
	"net/http"
)

// The request counter: requests by route pattern and by concrete path, and
// its admin endpoints /_sandbox/stats.

// registerStatsRoutes registers GET and DELETE /_sandbox/stats.
func (s *Server) registerStatsRoutes() {
	s.mux.HandleFunc("GET /_sandbox/stats", s.adminOnly(s.getStats))
	s.mux.HandleFunc("DELETE /_sandbox/stats", s.adminOnly(s.resetStats))
}

func (s *Server) count(key string) {
	s.statsMu.Lock()
	s.stats[key]++
	s.statsMu.Unlock()
	s.requestArrived(key)
}

func (s *Server) countPath(r *http.Request) {
	s.statsMu.Lock()
	s.pathStats[r.Method+" "+r.URL.Path]++
	s.statsMu.Unlock()
}

// RequestsTo counts the requests made to one concrete path (such as
// "/api/v2/authentication-tokens/at-123") with method. Unlike Stats, it is
// not mixed up by other tests sharing the sandbox.
func (s *Server) RequestsTo(method, path string) int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.pathStats[method+" "+path]
}

// Stats returns a copy of the request counter: requests by route pattern
// (such as "GET /api/v2/authentication-tokens/{id}").
func (s *Server) Stats() map[string]int {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	out := make(map[string]int, len(s.stats))
	for k, v := range s.stats {
		out[k] = v
	}
	return out
}

// ResetStats zeroes the request counter and the chaos counters.
func (s *Server) ResetStats() {
	s.statsMu.Lock()
	s.stats = map[string]int{}
	s.pathStats = map[string]int{}
	s.statsMu.Unlock()
	s.chaos.reset()
}

// getStats serves the counter at GET /_sandbox/stats (admin token only),
// outside /api/v2 so it can never be mistaken for part of the API.
func (s *Server) getStats(w http.ResponseWriter, _ *http.Request) {
	stats := s.Stats()
	total := 0
	for _, v := range stats {
		total += v
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"requests": stats, "total": total, "chaos": s.ChaosStats()})
}

func (s *Server) resetStats(w http.ResponseWriter, _ *http.Request) {
	s.ResetStats()
	w.WriteHeader(http.StatusNoContent)
}
