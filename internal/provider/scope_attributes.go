package provider

import (
	"regexp"

	actionschema "github.com/hashicorp/terraform-plugin-framework/action/schema"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Scope attributes: `organization`, `module_name` and `module_provider`,
// the attributes that say where an object lives. Each is defined once
// here, with one validator, and rendered for each kind of schema
// (resource, data source, list resource, action); every schema takes them
// from here, and TestScopeAttributesAgree proves that they agree.

// nameRE is the service's rule for organization names (and many others):
// letters, numbers, `-` and `_`.
var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// moduleProviderRE is the service's rule for a module's provider name.
var moduleProviderRE = regexp.MustCompile(`^[a-z0-9]+$`)

// scopeAttr is one scope attribute: organization is optional (the
// provider's by default), the module's name and provider are required.
type scopeAttr struct {
	description string
	required    bool
	validator   func() validator.String
}

var (
	organizationScope = scopeAttr{
		description: "Name of the organization. Defaults to the provider's `organization` (or `TFE_ORGANIZATION`).",
		validator:   nameValidator,
	}
	moduleNameScope = scopeAttr{
		description: "Name of the private registry module, such as `network`.",
		required:    true,
		validator:   nameValidator,
	}
	moduleProviderScope = scopeAttr{
		description: "Provider of the module, such as `aws` (lower-case letters and digits).",
		required:    true,
		validator:   moduleProviderValidator,
	}
)

// resource is the attribute of a managed resource: changing it replaces
// the resource. An unset organization is computed: the resource's
// ModifyPlan calls planOrganization to fill in the provider's default.
func (a scopeAttr) resource() schema.StringAttribute {
	s := schema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		Computed:            !a.required,
		MarkdownDescription: a.description + " Changing it replaces the resource.",
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		Validators:          []validator.String{a.validator()},
	}
	if !a.required {
		s.PlanModifiers = []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()}
	}
	return s
}

// dataSource is the attribute of a data source; an unset organization is
// computed (the provider's). description, when given, replaces the usual
// one.
func (a scopeAttr) dataSource(description ...string) dsschema.StringAttribute {
	d := a.description
	if len(description) > 0 {
		d = description[0]
	}
	return dsschema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		Computed:            !a.required,
		MarkdownDescription: d,
		Validators:          []validator.String{a.validator()},
	}
}

// list is the attribute of a list resource's configuration.
func (a scopeAttr) list() listschema.StringAttribute {
	return listschema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		MarkdownDescription: a.description,
		Validators:          []validator.String{a.validator()},
	}
}

// action is the attribute of an action.
func (a scopeAttr) action() actionschema.StringAttribute {
	return actionschema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		MarkdownDescription: a.description,
		Validators:          []validator.String{a.validator()},
	}
}

// organizationAttribute is the `organization` attribute of a resource that
// belongs to one (organizationScope.resource()).
func organizationAttribute() schema.StringAttribute { return organizationScope.resource() }

// moduleNameAttribute and moduleProviderAttribute name the module of a
// resource; changing either replaces it.
func moduleNameAttribute() schema.StringAttribute { return moduleNameScope.resource() }

func moduleProviderAttribute() schema.StringAttribute { return moduleProviderScope.resource() }

// moduleDataSourceAttributes adds to attrs the inputs naming the module of
// a data source: organization (the provider's when unset), module_name and
// module_provider.
func moduleDataSourceAttributes(attrs map[string]dsschema.Attribute) map[string]dsschema.Attribute {
	attrs["organization"] = organizationScope.dataSource()
	attrs["module_name"] = moduleNameScope.dataSource()
	attrs["module_provider"] = moduleProviderScope.dataSource()
	return attrs
}

// moduleListAttributes are the configuration attributes of a list of a
// module's objects.
func moduleListAttributes() map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"organization":    organizationScope.list(),
		"module_name":     moduleNameScope.list(),
		"module_provider": moduleProviderScope.list(),
	}
}
