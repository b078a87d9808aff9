package provider

import (
	"context"
	"fmt"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// stateCheckFunc adapts a function to statecheck.StateCheck, for checks
// that look at the server (through go-tfe) rather than at the state alone.
type stateCheckFunc func(ctx context.Context, state *tfjson.State) error

func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = f(ctx, req.State)
}

// stateID returns the id of the resource at address in the root module.
func stateID(state *tfjson.State, address string) (string, error) {
	const attr = "id"
	if state == nil || state.Values == nil || state.Values.RootModule == nil {
		return "", fmt.Errorf("no state")
	}
	for _, r := range state.Values.RootModule.Resources {
		if r.Address == address {
			v, ok := r.AttributeValues[attr].(string)
			if !ok {
				return "", fmt.Errorf("%s.%s is %v, not a string", address, attr, r.AttributeValues[attr])
			}
			return v, nil
		}
	}
	return "", fmt.Errorf("%s not in state", address)
}
