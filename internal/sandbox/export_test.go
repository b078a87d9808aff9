package sandbox

// RoutePatterns returns every pattern registered with route, for tests
// that iterate over the whole API.
func (s *Server) RoutePatterns() []string { return append([]string(nil), s.patterns...) }
