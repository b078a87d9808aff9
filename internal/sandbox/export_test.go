package sandbox

// RoutePatterns returns every pattern registered with route, for tests
// that iterate over the whole API.
func (s *Server) RoutePatterns() []string { return append([]string(nil), s.patterns...) }

// The scope function (policy_set_scope.go) and its inputs, for its tests.
type (
	ScopeSet       = scopeSet
	ScopeWorkspace = scopeWorkspace
	TagSelector    = tagSelector
)

// GovernedWorkspacesOf is governedWorkspaces.
var GovernedWorkspacesOf = governedWorkspaces
