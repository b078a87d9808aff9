package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
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

// importedMissing is the error of the read after an import that finds no
// object: the provider's own, saying what was looked for and where (what,
// a sentence naming the ID), where Terraform would only say "Cannot import
// non-existent remote object".
func importedMissing(diags *diag.Diagnostics, typeName, what string) {
	diags.AddError("Cannot import "+typeName, what+" Check the ID (or identity) of the import: nothing was imported.")
}

// importIDOrNames is an import by ID (prefix) or by n names (forms), which resolve turns into the ID
// (reads, on import only); withOrg: the first name is the organization attribute too.
func (b *resourceBase) importIDOrNames(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse,
	noun, prefix, forms string, n int, withOrg bool, resolve func(parts []string) (string, error)) {
	req.ID = b.importID(ctx, req, &resp.Diagnostics)
	if strings.HasPrefix(req.ID, prefix) {
		resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
		markImporting(ctx, resp)
		return
	}
	parts, err := splitImportID(req.ID, n, forms)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import ID", err.Error())
		return
	}
	id, err := resolve(parts)
	if err != nil {
		resp.Diagnostics.AddError("Error importing "+noun, err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	if withOrg {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("organization"), parts[0])...)
	}
	markImporting(ctx, resp)
}
