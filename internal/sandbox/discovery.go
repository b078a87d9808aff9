package sandbox

import "net/http"

// discoveryDocument is what GET /.well-known/terraform.json answers: the
// services of the real service that the sandbox implements, at the same
// paths. app.terraform.io also lists modules.v1, providers.v1, state.v2,
// login.v1, motd.v1 and versions.v1; the sandbox serves none of those
// protocols (and must not send Terraform to checkpoint), so it leaves them
// out rather than advertise what would fail. It adds tfgov-sandbox.v1 (its
// own /_sandbox/ endpoints), which no real service lists: the provider's
// sandbox_only looks for it (tfeclient.SandboxServiceID).
var discoveryDocument = []byte(`{"tfe.v2":"/api/v2/","tfe.v2.1":"/api/v2/","tfe.v2.2":"/api/v2/","tfgov-sandbox.v1":"/_sandbox/"}` + "\n")

func (s *Server) registerDiscovery() {
	s.mux.HandleFunc("GET /.well-known/terraform.json", s.discovery)
}

// discovery serves Terraform's remote service discovery document, which
// Terraform CLI, hashicorp/tfe and tfgov's `hostname` read before any API
// request. Like the real service it needs no token; svchost's client
// requires Content-Type application/json.
func (s *Server) discovery(w http.ResponseWriter, _ *http.Request) {
	s.count("GET /.well-known/terraform.json")
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(discoveryDocument)
}
