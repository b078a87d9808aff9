package policyeval

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Which of OPA's builtins a policy may call here, reviewed against OPA v1.22.2: deny by default,
// so a builtin a later OPA adds is refused until it is reviewed (TestBuiltinsReviewed).
// DESIGN.md "Evaluating OPA policies locally".

// allowedBuiltins reach no network, file and environment variable.
var allowedBuiltins = []string{
	// Operators, comparisons, arithmetic, types, strings; internal.* are what the compiler rewrites
	// `in`, print and template strings to, and the test runner's test cases.
	"abs", "all", "and", "any", "assign", "cast_array", "cast_boolean", "cast_null", "cast_object", "cast_set", "cast_string",
	"ceil", "concat", "contains", "count", "div", "endswith", "eq", "equal", "floor", "format_int", "gt", "gte", "indexof",
	"indexof_n", "intersection", "is_array", "is_boolean", "is_null", "is_number", "is_object", "is_set", "is_string", "lower",
	"lt", "lte", "max", "min", "minus", "mul", "neq", "or", "plus", "print", "product", "re_match", "rem", "replace", "round",
	"set_diff", "sort", "split", "sprintf", "startswith", "substring", "sum", "to_number", "trace", "trim", "trim_left",
	"trim_prefix", "trim_right", "trim_space", "trim_suffix", "type_name", "union", "upper", "walk",
	"internal.member_2", "internal.member_3", "internal.print", "internal.template_string", "internal.test_case",
	"array.concat", "array.flatten", "array.reverse", "array.slice",
	"base64.decode", "base64.encode", "base64.is_valid", "base64url.decode", "base64url.encode", "base64url.encode_no_pad",
	"bits.and", "bits.lsh", "bits.negate", "bits.or", "bits.rsh", "bits.xor",
	"glob.match", "glob.quote_meta", "graph.reachable", "graph.reachable_paths",
	"graphql.is_valid", "graphql.parse", "graphql.parse_and_verify", "graphql.parse_query", "graphql.parse_schema", "graphql.schema_is_valid",
	"hex.decode", "hex.encode",
	"json.filter", "json.is_valid", "json.marshal", "json.marshal_with_options", "json.patch", "json.remove", "json.unmarshal",
	"net.cidr_contains", "net.cidr_contains_matches", "net.cidr_expand", "net.cidr_intersects", "net.cidr_is_valid", "net.cidr_merge", "net.cidr_overlap",
	"numbers.range", "numbers.range_step",
	"object.filter", "object.get", "object.keys", "object.remove", "object.subset", "object.union", "object.union_n",
	"regex.find_all_string_submatch_n", "regex.find_n", "regex.globs_match", "regex.is_valid", "regex.match", "regex.replace",
	"regex.split", "regex.template_match",
	"rego.metadata.chain", "rego.metadata.rule", "rego.parse_module",
	"semver.compare", "semver.is_valid",
	"strings.any_prefix_match", "strings.any_suffix_match", "strings.count", "strings.render_template", "strings.replace_n",
	"strings.reverse", "strings.split_n",
	"units.parse", "units.parse_bytes", "uri.is_valid", "uri.parse",
	"urlquery.decode", "urlquery.decode_object", "urlquery.encode", "urlquery.encode_object",
	"uuid.parse", "yaml.is_valid", "yaml.marshal", "yaml.unmarshal",
	// Keys and certificates are given as values (PEM, JWK); verification uses only the roots given.
	"crypto.hmac.equal", "crypto.hmac.md5", "crypto.hmac.sha1", "crypto.hmac.sha256", "crypto.hmac.sha512", "crypto.md5",
	"crypto.parse_private_keys", "crypto.sha1", "crypto.sha256", "crypto.x509.parse_and_verify_certificates",
	"crypto.x509.parse_and_verify_certificates_with_options", "crypto.x509.parse_certificate_request",
	"crypto.x509.parse_certificates", "crypto.x509.parse_keypair", "crypto.x509.parse_rsa_private_key",
	"io.jwt.decode", "io.jwt.verify_eddsa", "io.jwt.verify_es256", "io.jwt.verify_es384", "io.jwt.verify_es512",
	"io.jwt.verify_hs256", "io.jwt.verify_hs384", "io.jwt.verify_hs512", "io.jwt.verify_ps256", "io.jwt.verify_ps384",
	"io.jwt.verify_ps512", "io.jwt.verify_rs256", "io.jwt.verify_rs384", "io.jwt.verify_rs512",
	"providers.aws.sign_req",
	// Nondeterministic, not I/O: they read the clock or the random source, as the service's evaluation does.
	"io.jwt.decode_verify", "io.jwt.encode_sign", "io.jwt.encode_sign_raw", "rand.intn", "time.now_ns", "uuid.rfc4122",
	// A time zone name is read from the time zone database only (Go refuses names with .. or a leading /).
	"time.add_date", "time.clock", "time.date", "time.diff", "time.format", "time.parse_duration_ns", "time.parse_ns",
	"time.parse_rfc3339_ns", "time.weekday",
}

var allowed = func() map[string]bool {
	m := make(map[string]bool, len(allowedBuiltins))
	for _, name := range allowedBuiltins {
		m[name] = true
	}
	return m
}()

// refusedBuiltins reach the network, the file system or the environment, with why.
var refusedBuiltins = map[string]string{
	"http.send":          "it sends HTTP requests",
	"net.lookup_ip_addr": "it resolves names through DNS",
	"opa.runtime":        "it reports the evaluating process's environment variables and configuration",
	"json.match_schema":  "OPA's schema loader follows a schema's $ref to file:// paths on the local disk (and, but for allow_net, to http:// URLs)",
	"json.verify_schema": "OPA's schema loader follows a schema's $ref to file:// paths on the local disk (and, but for allow_net, to http:// URLs)",
}

// capabilities is OPA's capabilities of this version with only allowedBuiltins, and no host that
// a builtin may reach (allow_net empty).
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(caps.Builtins, func(b *ast.Builtin) bool { return !allowed[b.Name] })
	caps.AllowNet = []string{}
	return caps
}

// explainRefused adds to OPA's "undefined function" errors for a builtin of OPA's that is refused
// here why it is; err's errors are changed in place.
func explainRefused(err error) {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		return
	}
	for _, e := range errs {
		name, ok := strings.CutPrefix(e.Message, "undefined function ")
		if e.Code != ast.TypeErr || !ok || ast.BuiltinMap[name] == nil || strings.Contains(name, " ") {
			continue
		}
		why, known := refusedBuiltins[name]
		if !known {
			why = "it is not among the builtins reviewed for this provider"
		}
		e.Message += fmt.Sprintf(" (refused by the provider: %s, and policies are evaluated here locally: no network, files or environment)", why)
	}
}
