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

// Scope attributes (`organization`, `module_name`, `module_provider`: where an object lives), each
// defined once with one validator and rendered for every kind of schema (TestScopeAttributesAgree).

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`) // the service's rule for organization names and many others

var moduleProviderRE = regexp.MustCompile(`^[a-z0-9]+$`)

// scopeAttr: organization is optional (the provider's by default), the module's name and provider required.
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

// resource: changing it replaces the resource; an unset organization is planned by planOrganization.
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

// dataSource: an unset organization is the provider's; description, if given, replaces the usual one.
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

func (a scopeAttr) list() listschema.StringAttribute {
	return listschema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		MarkdownDescription: a.description,
		Validators:          []validator.String{a.validator()},
	}
}

func (a scopeAttr) action() actionschema.StringAttribute {
	return actionschema.StringAttribute{
		Required:            a.required,
		Optional:            !a.required,
		MarkdownDescription: a.description,
		Validators:          []validator.String{a.validator()},
	}
}

func organizationAttribute() schema.StringAttribute { return organizationScope.resource() }

func moduleNameAttribute() schema.StringAttribute { return moduleNameScope.resource() }

func moduleProviderAttribute() schema.StringAttribute { return moduleProviderScope.resource() }

// moduleDataSourceAttributes adds the inputs naming a data source's module to attrs.
func moduleDataSourceAttributes(attrs map[string]dsschema.Attribute) map[string]dsschema.Attribute {
	attrs["organization"] = organizationScope.dataSource()
	attrs["module_name"] = moduleNameScope.dataSource()
	attrs["module_provider"] = moduleProviderScope.dataSource()
	return attrs
}

func moduleListAttributes() map[string]listschema.Attribute {
	return map[string]listschema.Attribute{
		"organization":    organizationScope.list(),
		"module_name":     moduleNameScope.list(),
		"module_provider": moduleProviderScope.list(),
	}
}
