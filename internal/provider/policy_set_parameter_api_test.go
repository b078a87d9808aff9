package provider

import (
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestParametersRefused: which sets take parameters (a versioned Sentinel set, or one with
// neither policies nor versions), and what the refusal names otherwise.
func TestParametersRefused(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		set  tfe.PolicySet
		want string // "" takes parameters
	}{
		"empty Sentinel set":     {tfe.PolicySet{Kind: tfe.Sentinel}, ""},
		"uploaded version":       {tfe.PolicySet{Kind: tfe.Sentinel, NewestVersion: &tfe.PolicySetVersion{ID: "polsetver-1"}}, ""},
		"VCS repository":         {tfe.PolicySet{Kind: tfe.Sentinel, PolicyCount: 2, VCSRepo: &tfe.VCSRepo{Identifier: "acme/policies"}}, ""},
		"individual policies":    {tfe.PolicySet{Kind: tfe.Sentinel, PolicyCount: 2}, "holds 2 individually attached policies (`policy_ids`): HCP Terraform takes parameters only on a versioned policy set"},
		"OPA set":                {tfe.PolicySet{Kind: tfe.OPA}, "is an OPA set: only Sentinel policies read parameters"},
		"versioned OPA set":      {tfe.PolicySet{Kind: tfe.OPA, NewestVersion: &tfe.PolicySetVersion{ID: "polsetver-1"}}, "is an OPA set"},
		"individual OPA as well": {tfe.PolicySet{Kind: tfe.OPA, PolicyCount: 1}, "is an OPA set"},
	} {
		t.Run(name, func(t *testing.T) {
			tc.set.ID, tc.set.Name = "polset-1", "baseline"
			got := parametersRefused(&tc.set)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("parametersRefused = %q, want %q", got, tc.want)
			}
			if got != "" && !strings.Contains(got, `Policy set "baseline" (polset-1)`) {
				t.Errorf("the refusal does not name the set: %q", got)
			}
		})
	}
}
