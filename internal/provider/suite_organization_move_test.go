package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

// TestAccPolicyOrganizationMove is issue 55's second row: a policies-only
// configuration run with a wrong TFE_ORGANIZATION planned replacing every
// policy, and its apply destroyed them all before failing on the missing
// organization. Now the plan fails, naming the organization and the ones
// the token can see, and every policy is still there; a move to an
// organization that exists plans the replacements with a warning that
// counts them (Terraform folds the others into "and N more similar
// warnings") and says that a replaced policy leaves its policy sets. Both
// against the tests' service (the in-process sandbox, or the live path's);
// the second organization is made only on a tfgov sandbox.
func TestAccPolicyOrganizationMove(t *testing.T) {
	t.Parallel()
	rc := testCLIConfig(t)
	client, org := testAccClient(t), testAccOrganization()
	prefix := testAccName("move")
	dir := t.TempDir()
	config := fmt.Sprintf(`terraform {
  required_providers {
    tfgov = { source = "tfgov/tfgov" }
  }
}

resource "tfgov_policy" "p" {
  for_each = toset(["a", "b", "c"])
  name     = "%s-${each.key}"
}
`, prefix)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	tf := func(organization string, args ...string) (string, int) {
		t.Helper()
		return runTerraformEnv(t, dir, []string{"TF_CLI_CONFIG_FILE=" + rc, "TFE_ORGANIZATION=" + organization}, append(args, "-no-color")...)
	}
	if out, code := tf(org, "apply", "-auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	t.Cleanup(func() {
		if out, code := tf(org, "destroy", "-auto-approve"); code != 0 {
			t.Errorf("destroy: exit %d\n%s", code, out)
		}
	})
	policies := func() int {
		t.Helper()
		n := 0
		for _, k := range []string{"a", "b", "c"} {
			if _, err := (policyClient{client}).findByName(context.Background(), org, prefix+"-"+k); err == nil {
				n++
			} else if !isNotFound(err) {
				t.Fatal(err)
			}
		}
		return n
	}

	typo := org + "-typo"
	out, code := tf(typo, "apply", "-auto-approve")
	for _, want := range []string{
		`Error: Cannot move policies to organization ` + typo,
		`Organization ` + typo + ` does not exist, or the API token cannot see it.`,
		`The organizations the API token can see:`,
		`(the closest: "` + org + `"`,
	} {
		if !strings.Contains(unwrap(out), want) {
			t.Errorf("an apply with a wrong TFE_ORGANIZATION: the output lacks %q:\n%s", want, out)
		}
	}
	if code != 1 || strings.Contains(out, "Destroying...") {
		t.Errorf("an apply with a wrong TFE_ORGANIZATION: exit %d, want 1 before any destroy\n%s", code, out)
	}
	if n := policies(); n != 3 {
		t.Fatalf("after an apply with a wrong TFE_ORGANIZATION, %d of the 3 policies are left", n)
	}

	if !isTfgovSandbox(t, testAccServiceURL()) {
		t.Skip("a move to an organization that exists: the test makes that organization only on a tfgov sandbox")
	}
	target := testAccName("moved")
	if _, err := client.Organizations.Create(context.Background(), tfe.OrganizationCreateOptions{Name: tfe.String(target), Email: tfe.String("owner@example.com")}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := client.Organizations.Delete(context.Background(), target); err != nil {
			t.Errorf("deleting organization %s: %v", target, err)
		}
	})
	out, code = tf(target, "plan", "-detailed-exitcode")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`Plan: 3 to add, 0 to change, 3 to destroy`),
		regexp.MustCompile(`Warning: Policies move from organization ` + regexp.QuoteMeta(org) + ` to ` + regexp.QuoteMeta(target) + `: each is replaced`),
		regexp.MustCompile(`A replaced policy leaves its policy sets`),
		regexp.MustCompile(`\(and 2 more similar warnings elsewhere\)`),
	} {
		if !want.MatchString(unwrap(out)) {
			t.Errorf("a plan moving the policies to %s: the output lacks %s:\n%s", target, want, out)
		}
	}
	if code != 2 {
		t.Errorf("a plan moving the policies: exit %d, want 2\n%s", code, out)
	}
}

// unwrap joins Terraform's wrapped diagnostic lines, so that a phrase can
// be found whatever the terminal width.
func unwrap(out string) string {
	return regexp.MustCompile(`\s+`).ReplaceAllString(out, " ")
}
