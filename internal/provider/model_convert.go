package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Converting a resource model without the framework's struct reflection.
//
// Plan.Get and State.Set convert a model struct field by field through
// reflection, and terraform-plugin-framework (v1.19) compiles a regular
// expression for every field of every conversion (internal/reflect's
// isValidFieldName): profiled under Terraform, that reflection was about 8%
// of the provider's CPU for agent token creates. A model that lists its
// fields (modelField) implements tftypes.ValueConverter and
// tftypes.ValueCreator instead, which the framework calls in place of
// reflection: Set(ctx, &model) as usual, and getModel for Get.

// modelField is one attribute of a model: its name, its type and a pointer
// to the model's field (*types.String, *types.Map...).
type modelField struct {
	name string
	typ  attr.Type
	ptr  any
}

// fromTerraformObject sets fields from an object value.
func fromTerraformObject(v tftypes.Value, fields []modelField) error {
	if v.IsNull() || !v.IsKnown() {
		return fmt.Errorf("cannot read a null or unknown object into a model")
	}
	var raw map[string]tftypes.Value
	if err := v.As(&raw); err != nil {
		return err
	}
	ctx := context.Background()
	for _, f := range fields {
		rv, ok := raw[f.name]
		if !ok {
			return fmt.Errorf("the object has no attribute %q", f.name)
		}
		val, err := f.typ.ValueFromTerraform(ctx, rv)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		if err := assign(f.ptr, val); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// assign stores val into the field ptr points to.
func assign(ptr any, val attr.Value) error {
	ok := false
	switch p := ptr.(type) {
	case *types.String:
		*p, ok = val.(types.String)
	case *types.Map:
		*p, ok = val.(types.Map)
	case *types.Bool:
		*p, ok = val.(types.Bool)
	case *types.Int64:
		*p, ok = val.(types.Int64)
	case *types.Set:
		*p, ok = val.(types.Set)
	case *types.List:
		*p, ok = val.(types.List)
	case *types.Object:
		*p, ok = val.(types.Object)
	}
	if !ok {
		return fmt.Errorf("cannot store %T in %T", val, ptr)
	}
	return nil
}

// toTerraformObject is the object value of fields, for ToTerraform5Value.
func toTerraformObject(fields []modelField) (any, error) {
	ctx := context.Background()
	out := make(map[string]tftypes.Value, len(fields))
	for _, f := range fields {
		v, ok := deref(f.ptr)
		if !ok {
			return nil, fmt.Errorf("%s: unsupported field %T", f.name, f.ptr)
		}
		if v == nil { // a zero framework value: null of its type
			out[f.name] = tftypes.NewValue(f.typ.TerraformType(ctx), nil)
			continue
		}
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.name, err)
		}
		out[f.name] = tv
	}
	return out, nil
}

// deref returns the value ptr points to.
func deref(ptr any) (attr.Value, bool) {
	switch p := ptr.(type) {
	case *types.String:
		return *p, true
	case *types.Map:
		if p.ElementType(context.Background()) == nil {
			return nil, true
		}
		return *p, true
	case *types.Bool:
		return *p, true
	case *types.Int64:
		return *p, true
	case *types.Set:
		if p.ElementType(context.Background()) == nil {
			return nil, true
		}
		return *p, true
	case *types.List:
		if p.ElementType(context.Background()) == nil {
			return nil, true
		}
		return *p, true
	case *types.Object:
		if len(p.AttributeTypes(context.Background())) == 0 {
			return nil, true // a zero value, such as an unset write-only attribute
		}
		return *p, true
	}
	return nil, false
}

// getter is tfsdk.Plan, tfsdk.State and tfsdk.Config.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// getModel reads g into a new *T through T's FromTerraform5Value (a pointer
// target is what lets the framework call it).
func getModel[T any](ctx context.Context, g getter) (*T, diag.Diagnostics) {
	var m *T
	diags := g.Get(ctx, &m)
	if m == nil && !diags.HasError() {
		m = new(T)
	}
	return m, diags
}

// getInto is getModel into an existing model: `getInto(ctx, req.Plan,
// &plan)` in place of `req.Plan.Get(ctx, &plan)`.
func getInto[T any](ctx context.Context, g getter, m *T) diag.Diagnostics {
	got, diags := getModel[T](ctx, g)
	if got != nil {
		*m = *got
	}
	return diags
}
