package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// importedMissing is the error of the read after an import that finds no
// object: the provider's own, saying what was looked for and where (what,
// a sentence naming the ID), where Terraform would only say "Cannot import
// non-existent remote object".
func importedMissing(diags *diag.Diagnostics, typeName, what string) {
	diags.AddError("Cannot import "+typeName, what+" Check the ID (or identity) of the import: nothing was imported.")
}
