package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Models convert without the framework's struct reflection, which compiles a regular expression per
// field per conversion (v1.19): about 8% of the CPU of agent token creates, profiled. A model that
// lists its fields is a tftypes.ValueConverter and ValueCreator: Set(ctx, &model), getModel for Get.

// modelField: an attribute's name, type and a pointer to the model's field (*types.String...).
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

// getModel reads g into a new *T through T's FromTerraform5Value (a pointer lets the framework call it).
func getModel[T any](ctx context.Context, g getter) (*T, diag.Diagnostics) {
	var m *T
	diags := g.Get(ctx, &m)
	if m == nil && !diags.HasError() {
		m = new(T)
	}
	return m, diags
}

// getInto is getModel into an existing model, in place of `req.Plan.Get(ctx, &plan)`.
func getInto[T any](ctx context.Context, g getter, m *T) diag.Diagnostics {
	got, diags := getModel[T](ctx, g)
	if got != nil {
		*m = *got
	}
	return diags
}
