package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/tfgov/terraform-provider-tfgov/internal/policyeval"
)

var _ datasource.DataSourceWithConfigValidators = (*policyEvaluationDataSource)(nil)

// NewPolicyEvaluationDataSource is the tfgov_policy_evaluation data source:
// an OPA policy's query evaluated locally, as HCP Terraform evaluates it
// (internal/policyeval; DESIGN.md "Evaluating OPA policies locally"). It
// never reads the provider's data, so it works with no token and no
// service (DESIGN.md "A provider without a token").
func NewPolicyEvaluationDataSource() datasource.DataSource {
	return &policyEvaluationDataSource{}
}

type policyEvaluationDataSource struct{}

type policyEvaluationModel struct {
	Modules    types.Map     `tfsdk:"modules"`
	Sources    types.List    `tfsdk:"sources"`
	Query      types.String  `tfsdk:"query"`
	Input      types.String  `tfsdk:"input"`
	InputFile  types.String  `tfsdk:"input_file"`
	Result     types.String  `tfsdk:"result"`
	Violations types.Dynamic `tfsdk:"violations"`
}

func (d *policyEvaluationDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = policyEvaluationDataSourceType.typeName(req.ProviderTypeName)
}

func (d *policyEvaluationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	defer withPermissions(&resp.Schema.MarkdownDescription, policyEvaluationDataSourceType.permissions())
	resp.Schema = schema.Schema{
		MarkdownDescription: "An OPA policy's `query` evaluated against an input, locally, as HCP Terraform evaluates it: the query's result must be " +
			"an array (a set rule such as `deny` gives one), and an empty array passes. No request: the provider needs no token or organization " +
			"for it, so a `terraform test` file or a `check` block can assert a policy library's behaviour offline. " +
			"OPA's own packages compile the code (each module as Rego v1, or else v0) and evaluate the query as `opa eval` does. " +
			"A module that does not parse, a query that is undefined or gives no array, and an evaluation error (such as a rule with " +
			"conflicting values) are errors, naming the module and line; so is a call to a builtin that could reach the network, the file system " +
			"or the environment (`http.send`, `net.lookup_ip_addr`, `opa.runtime`, `json.match_schema` and `json.verify_schema`, whose `$ref` " +
			"can name a URL or a file), or to one that the provider's OPA has and the provider has not reviewed yet.",
		Attributes: map[string]schema.Attribute{
			"modules": schema.MapAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Rego modules by name: the name (such as `tags.rego`) appears in error positions, the value is the code, " +
					"such as `file(\"${path.module}/policies/tags.rego\")`. Set `modules`, `sources` or both. The code is recorded in state " +
					"as every data source argument is: `sources` keeps it out.",
			},
			"sources": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				MarkdownDescription: "Paths of Rego files the provider reads, such as `[tfgov_policy.tags.source]` or " +
					"`[for f in fileset(path.module, \"policies/*.rego\") : \"${path.module}/${f}\"]`; each path names its module in error positions.",
			},
			"query": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The policy's OPA query, such as `data.terraform.policies.deny` (a `tfgov_policy`'s `query`).",
				Validators:          []validator.String{regoQueryValidator{}},
			},
			"input": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The input document, as JSON: what HCP Terraform passes is an object whose `plan` is `terraform show -json` " +
					"of a saved plan, such as `jsonencode({ plan = jsondecode(file(\"plan.json\")) })`. Not allowed with `input_file`; " +
					"with neither, the policy sees no input.",
			},
			"input_file": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Path of a JSON file holding the input document, read by the provider (it stays out of state, unlike `input`).",
			},
			"result": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "`pass` when the query's array is empty, else `fail`.",
			},
			"violations": schema.DynamicAttribute{
				Computed: true,
				MarkdownDescription: "The array's elements as Terraform values, in OPA's order (a set's are sorted): a tuple, empty when `result` " +
					"is `pass`. A rule that gives messages gives strings, so `data.tfgov_policy_evaluation.x.violations == [\"...\"]` or " +
					"`contains(data.tfgov_policy_evaluation.x.violations, \"...\")` asserts them; one that gives objects gives objects, " +
					"`violations[0].address`. A JSON null is a null string.",
			},
		},
	}
}

func (d *policyEvaluationDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("modules"), path.MatchRoot("sources")),
		datasourcevalidator.Conflicting(path.MatchRoot("input"), path.MatchRoot("input_file")),
	}
}

func (d *policyEvaluationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var cfg policyEvaluationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	modules, where := d.modules(ctx, cfg, resp)
	if resp.Diagnostics.HasError() {
		return
	}
	var input []byte
	switch {
	case !cfg.Input.IsNull():
		input = []byte(cfg.Input.ValueString())
	case !cfg.InputFile.IsNull():
		b, err := os.ReadFile(cfg.InputFile.ValueString()) // reading the configured file is the point
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("input_file"), "Cannot read the input file", err.Error())
			return
		}
		input = b
	}
	query := cfg.Query.ValueString()
	p, err := policyeval.Prepare(ctx, modules, query)
	if err != nil {
		summary := "Policy does not compile"
		if strings.Contains(err.Error(), "rego_parse_error") {
			summary = "Rego does not parse"
		}
		resp.Diagnostics.AddAttributeError(errorPath(err, where), summary, err.Error())
		return
	}
	out, err := p.Eval(ctx, input)
	if err != nil {
		at := errorPath(err, where)
		var bad policyeval.InputError
		if errors.As(err, &bad) {
			at = path.Root("input")
			if !cfg.InputFile.IsNull() {
				at = path.Root("input_file")
			}
		}
		resp.Diagnostics.AddAttributeError(at, "Policy evaluation failed", err.Error())
		return
	}
	cfg.Result = types.StringValue("fail")
	if out.Pass {
		cfg.Result = types.StringValue("pass")
	}
	elems := make([]attr.Value, len(out.Violations))
	typs := make([]attr.Type, len(out.Violations))
	for i, v := range out.Violations {
		ev, err := jsonValue(v)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("query"), "Policy evaluation failed", fmt.Sprintf("violation %d: %s", i, err))
			return
		}
		elems[i], typs[i] = ev, ev.Type(ctx)
	}
	tuple, diags := types.TupleValue(typs, elems)
	resp.Diagnostics.Append(diags...)
	cfg.Violations = types.DynamicValue(tuple)
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
}

// modules collects the modules of `sources` and `modules`, and where each
// name comes from (its attribute path), for errors.
func (d *policyEvaluationDataSource) modules(ctx context.Context, cfg policyEvaluationModel, resp *datasource.ReadResponse) ([]policyeval.Module, map[string]path.Path) {
	where := map[string]path.Path{}
	var modules []policyeval.Module
	var sources []string
	resp.Diagnostics.Append(cfg.Sources.ElementsAs(ctx, &sources, false)...)
	for i, name := range sources {
		at := path.Root("sources").AtListIndex(i)
		if _, dup := where[name]; dup {
			resp.Diagnostics.AddAttributeError(at, "Duplicate module", fmt.Sprintf("%s is listed twice: each module once.", name))
			continue
		}
		code, err := readPolicySource(name)
		if err != nil {
			resp.Diagnostics.AddAttributeError(at, "Cannot read the Rego file", err.Error())
			continue
		}
		where[name] = at
		modules = append(modules, policyeval.Module{Name: name, Code: code})
	}
	inline := map[string]string{}
	resp.Diagnostics.Append(cfg.Modules.ElementsAs(ctx, &inline, false)...)
	for _, name := range slices.Sorted(maps.Keys(inline)) {
		at := path.Root("modules").AtMapKey(name)
		if _, dup := where[name]; dup {
			resp.Diagnostics.AddAttributeError(at, "Duplicate module",
				fmt.Sprintf("%s is also in sources: give the inline module another name.", name))
			continue
		}
		where[name] = at
		modules = append(modules, policyeval.Module{Name: name, Code: []byte(inline[name])})
	}
	return modules, where
}

// errorPath is the attribute an evaluation error belongs to: the module
// its position names, else the query.
func errorPath(err error, where map[string]path.Path) path.Path {
	file := ""
	var astErrs ast.Errors
	var astErr *ast.Error
	var evalErr *topdown.Error
	switch {
	case errors.As(err, &astErrs) && len(astErrs) > 0 && astErrs[0].Location != nil:
		file = astErrs[0].Location.File
	case errors.As(err, &astErr) && astErr.Location != nil:
		file = astErr.Location.File
	case errors.As(err, &evalErr) && evalErr.Location != nil:
		file = evalErr.Location.File
	}
	if p, ok := where[strings.TrimSpace(file)]; ok {
		return p
	}
	return path.Root("query")
}
