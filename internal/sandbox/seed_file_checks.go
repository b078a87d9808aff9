package sandbox

import (
	"slices"
	"strings"
)

// The checks of single values: each says what is wrong, or "".

func seedCheckUsername(s string) string {
	if !usernameRE.MatchString(s) {
		return "is not a valid username: letters, digits, - and _ only"
	}
	return ""
}

func seedCheckEmail(s string) string {
	if !strings.Contains(s, "@") {
		return "is not an email address"
	}
	return ""
}

func seedCheckTokenValue(s string) string {
	if len(s) < 8 || strings.ContainsAny(s, " \t\r\n") {
		return "is not a usable token value: at least 8 characters, no spaces"
	}
	return ""
}

func seedCheckVisibility(s string) string {
	if s != "secret" && s != "organization" {
		return "is not a visibility: secret or organization"
	}
	return ""
}

func seedCheckModuleProvider(s string) string {
	if !moduleProviderRE.MatchString(s) {
		return "is not a module provider: lowercase letters and digits only (such as aws)"
	}
	return ""
}

func seedCheckEnvName(s string) string {
	if !seedEnvNameRE.MatchString(s) {
		return "is not an environment variable name: a letter or _, then letters, digits and _"
	}
	if slices.Contains(seedReservedEnv, s) {
		return "is printed by the sandbox itself; not allowed: " + strings.Join(seedReservedEnv, ", ")
	}
	return ""
}

func orNone(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}
