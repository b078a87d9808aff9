package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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

// markImporting sets importingKey in an import's answer, for the read that
// follows it (importedMissing).
func markImporting(ctx context.Context, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, []byte(`true`))...)
}

// takeImporting reports whether this read follows an import (by ID or by
// identity), and clears the mark: later refreshes remove a missing object
// from state as usual.
func takeImporting(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	if req.Private == nil {
		return false
	}
	b, d := req.Private.GetKey(ctx, importingKey)
	resp.Diagnostics.Append(d...)
	if len(b) == 0 {
		return false
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, importingKey, nil)...)
	return true
}

// importedMissing is the error of the read after an import that finds no
// object: the provider's own, saying what was looked for and where (what,
// a sentence naming the ID), where Terraform would only say "Cannot import
// non-existent remote object".
func importedMissing(diags *diag.Diagnostics, typeName, what string) {
	diags.AddError("Cannot import "+typeName, what+" Check the ID (or identity) of the import: nothing was imported.")
}
