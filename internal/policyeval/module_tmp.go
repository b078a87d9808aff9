package policyeval

// Module is a Rego module: its file name (in error positions) and code.
// (Defined in eval.go on the opa-eval branch; this file goes at the merge.)
type Module struct {
	Name string
	Code []byte
}
