package tfeclient

import (
	"cmp"
	"fmt"
	"net/http"
	"strings"
)

// serviceErrorText is the message for one error of a 4xx answer: the service's title and
// detail as sent, and the Terraform attribute that source.pointer designates.
func serviceErrorText(status int, e jsonapiError) string {
	msg := fmt.Sprintf("the service refused the request (%d %s)", status, cmp.Or(e.Title, strings.ToLower(http.StatusText(status))))
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Source != nil {
		if attr := pointerAttribute(e.Source.Pointer); attr != "" {
			msg += fmt.Sprintf(" (attribute %q)", attr)
		} else if e.Source.Parameter != "" {
			msg += fmt.Sprintf(" (query parameter %q)", e.Source.Parameter)
		}
	}
	return msg
}

// pointerAttribute: `/data/attributes/enforcement-level` → `enforcement_level`,
// `/data/relationships/team` → `team_id`, `.../policy-sets` → `policy_set_ids`; else "".
func pointerAttribute(pointer string) string {
	parts := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	if len(parts) < 3 || parts[0] != "data" {
		return ""
	}
	name := strings.ReplaceAll(parts[2], "-", "_")
	switch parts[1] {
	case "attributes":
		return strings.ReplaceAll(strings.Join(parts[2:], "."), "-", "_")
	case "relationships":
		if s, ok := strings.CutSuffix(name, "s"); ok {
			return s + "_ids"
		}
		return name + "_id"
	}
	return ""
}
