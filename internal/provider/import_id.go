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

// importingKey is the private state key ImportState sets for the read that
// follows an import, which then explains a missing object instead of
// removing it silently (Terraform would only say "non-existent remote
// object"). That read clears it.
const importingKey = "importing"
