// Package statesize measures what a Terraform state file spends on each
// resource instance: the bytes Terraform wrote for it (schema version,
// attributes, sensitive paths, identity and private state), as compact
// JSON. Terraform's own bookkeeping of the configuration (dependencies,
// index_key, create_before_destroy) is left out: it depends on how the
// configuration is written, not on the provider. The state budget test
// and make bench-scale both measure with it.
package statesize

import (
	"encoding/json"
	"fmt"
)

// configKeys are the instance keys that Terraform derives from the
// configuration rather than from the provider.
var configKeys = []string{"dependencies", "index_key", "create_before_destroy", "deposed", "status"}

// Instances returns, for each managed resource type in the state file raw
// (terraform.tfstate as Terraform writes it), the size in bytes of each of
// its instances.
func Instances(raw []byte) (map[string][]int, error) {
	var st struct {
		Resources []struct {
			Mode      string            `json:"mode"`
			Type      string            `json:"type"`
			Instances []json.RawMessage `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	sizes := map[string][]int{}
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, inst := range r.Instances {
			n, err := instanceBytes(inst)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.Type, err)
			}
			sizes[r.Type] = append(sizes[r.Type], n)
		}
	}
	return sizes, nil
}

func instanceBytes(inst json.RawMessage) (int, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(inst, &fields); err != nil {
		return 0, err
	}
	for _, k := range configKeys {
		delete(fields, k)
	}
	// Marshal compacts each value and keeps Terraform's escaping.
	out, err := json.Marshal(fields)
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// Mean is the mean of sizes, rounded down (0 for none).
func Mean(sizes []int) int {
	if len(sizes) == 0 {
		return 0
	}
	sum := 0
	for _, s := range sizes {
		sum += s
	}
	return sum / len(sizes)
}
