package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// jsonValue is a JSON document as a Terraform value: objects as objects,
// arrays as tuples, numbers exact; a JSON null is a null string (a null
// needs some type). tfgov_policy_evaluation's violations are dynamic through it,
// so that an assertion compares them with literals (DESIGN.md "Evaluating
// OPA policies locally").
func jsonValue(doc []byte) (attr.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return toValue(v)
}

func toValue(v any) (attr.Value, error) {
	switch v := v.(type) {
	case nil:
		return types.StringNull(), nil
	case bool:
		return types.BoolValue(v), nil
	case string:
		return types.StringValue(v), nil
	case json.Number:
		f, _, err := big.ParseFloat(string(v), 10, 512, big.ToNearestEven)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", v, err)
		}
		return types.NumberValue(f), nil
	case []any:
		elems := make([]attr.Value, len(v))
		typs := make([]attr.Type, len(v))
		for i, e := range v {
			ev, err := toValue(e)
			if err != nil {
				return nil, err
			}
			elems[i], typs[i] = ev, ev.Type(context.Background())
		}
		t, d := types.TupleValue(typs, elems)
		if d.HasError() {
			return nil, fmt.Errorf("%v", d)
		}
		return t, nil
	case map[string]any:
		attrs := make(map[string]attr.Value, len(v))
		typs := make(map[string]attr.Type, len(v))
		for _, k := range slices.Sorted(maps.Keys(v)) {
			ev, err := toValue(v[k])
			if err != nil {
				return nil, err
			}
			attrs[k], typs[k] = ev, ev.Type(context.Background())
		}
		o, d := types.ObjectValue(typs, attrs)
		if d.HasError() {
			return nil, fmt.Errorf("%v", d)
		}
		return o, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %T", v)
}
