package provider

import (
	"errors"
	"fmt"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// isNotFound reports whether err is the API's 404, which means "missing"
// and "not allowed to see it" alike.
func isNotFound(err error) bool {
	return errors.Is(err, tfe.ErrResourceNotFound)
}

// configureData unwraps the provider's data in a resource's or data
// source's Configure. It returns nil before the provider is configured
// (validation, for example), when there is nothing to do yet.
func configureData(data any, diags *diag.Diagnostics) *providerData {
	if data == nil {
		return nil
	}
	d, ok := data.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", data))
		return nil
	}
	return d
}
