// Package statesize measures the compact JSON a state file spends on each resource instance,
// without Terraform's bookkeeping of the configuration (dependencies, index_key, ...), which
// depends on how it is written, not on the provider. The state budgets and bench-scale use it.
package statesize

import (
	"encoding/json"
	"fmt"
)

// configKeys are the instance keys Terraform derives from the configuration.
var configKeys = []string{"dependencies", "index_key", "create_before_destroy", "deposed", "status"}

// Instance is one resource instance of a state file.
type Instance struct {
	Type, Name string
	// Fields are what Terraform wrote for it, without configKeys.
	Fields map[string]json.RawMessage
}

// Bytes is the instance's size as compact JSON.
func (i Instance) Bytes() int { return Bytes(i.Fields) }

// Bytes is the size of an instance's fields as compact JSON (Marshal
// compacts each value and keeps Terraform's escaping).
func Bytes(fields map[string]json.RawMessage) int {
	out, err := json.Marshal(fields)
	if err != nil {
		return 0 // not reached: the values were read as JSON
	}
	return len(out)
}

// Read returns the managed resource instances of the state file raw
// (terraform.tfstate as Terraform writes it).
func Read(raw []byte) ([]Instance, error) {
	var st struct {
		Resources []struct {
			Mode      string                       `json:"mode"`
			Type      string                       `json:"type"`
			Name      string                       `json:"name"`
			Instances []map[string]json.RawMessage `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("reading the state: %w", err)
	}
	var out []Instance
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, fields := range r.Instances {
			for _, k := range configKeys {
				delete(fields, k)
			}
			out = append(out, Instance{Type: r.Type, Name: r.Name, Fields: fields})
		}
	}
	return out, nil
}

// Instances returns, for each managed resource type in the state file raw,
// the size in bytes of each of its instances.
func Instances(raw []byte) (map[string][]int, error) {
	insts, err := Read(raw)
	if err != nil {
		return nil, err
	}
	sizes := map[string][]int{}
	for _, i := range insts {
		sizes[i.Type] = append(sizes[i.Type], i.Bytes())
	}
	return sizes, nil
}
