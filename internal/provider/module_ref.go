package provider

import (
	"regexp"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// moduleRef names a private registry module, whose namespace is its
// organization.
type moduleRef struct {
	Organization, Name, Provider string
}

// String is `<organization>/<module_name>/<module_provider>`, the module
// part of import IDs and the key of the provider's variable lists.
func (m moduleRef) String() string { return m.Organization + "/" + m.Name + "/" + m.Provider }

func (m moduleRef) id() tfe.RegistryModuleID {
	return tfe.RegistryModuleID{Organization: m.Organization, Namespace: m.Organization, Name: m.Name, Provider: m.Provider, RegistryName: tfe.PrivateRegistry}
}

// moduleProviderRE is the service's rule for a module's provider name.
var moduleProviderRE = regexp.MustCompile(`^[a-z0-9]+$`)

// moduleNameAttribute and moduleProviderAttribute name the module of a
// resource; changing either replaces it.
func moduleNameAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Name of the private registry module, such as `network`. Changing it replaces the resource.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:          []validator.String{stringvalidator.RegexMatches(nameRE, "must contain only letters, numbers, - and _")},
	}
}

func moduleProviderAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Required:            true,
		MarkdownDescription: "Provider of the module, such as `aws` (lower-case letters and digits). Changing it replaces the resource.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:          []validator.String{stringvalidator.RegexMatches(moduleProviderRE, "must contain only lower-case letters and digits")},
	}
}
