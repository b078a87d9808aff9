package provider

import (
	"fmt"
	"strings"
)

// splitImportID splits a composite import ID into exactly n non-empty parts
// separated by "/". want describes the accepted form(s) for the error.
func splitImportID(id string, n int, want string) ([]string, error) {
	parts := strings.Split(id, "/")
	if len(parts) != n {
		return nil, fmt.Errorf("invalid import ID %q: want %s", id, want)
	}
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, fmt.Errorf("invalid import ID %q: want %s (no part may be empty)", id, want)
		}
	}
	return parts, nil
}
