package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// TestAccAgentTokenResource_serviceClock (issue 35, row 4): the service's
// clock runs 10 s ahead of (or behind) the machine running Terraform, and
// an agent token's create is processed but its answer is lost (the
// connection dropped). `terraform apply` creates the token again, revokes
// nothing, and its output names the left-behind token's ID: the candidates
// are chosen on the service's clock (its Date header), not the machine's.
// Needs a sandbox of its own, whose clock the test shifts.
func TestAccAgentTokenResource_serviceClock(t *testing.T) {
	testCLIConfig(t)
	if testAccSandbox() == nil {
		t.Skip("shifting the service's clock and losing an answer need the in-process sandbox's switches")
	}
	for name, offset := range map[string]time.Duration{"ahead": 10 * time.Second, "behind": -10 * time.Second} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			sb, c := ownSandbox(t, sandbox.Options{ClockOffset: offset}, "tfgov-clock")
			pool, err := c.AgentPools.Create(ctx, sb.organization, tfe.AgentPoolCreateOptions{Name: tfe.String("clock")})
			if err != nil {
				t.Fatal(err)
			}
			if err := sb.srv.InjectFault(sandbox.Fault{Method: "POST", Path: "/api/v2/agent-pools/" + pool.ID + "/authentication-tokens", Drop: true, Count: 1}); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			config := fmt.Sprintf(`%s
provider "tfgov" {
  address      = %q
  token        = %q
  organization = %q
}

resource "tfgov_agent_token" "test" {
  agent_pool_id = %q
  description   = "clock"
}

output "id" { value = tfgov_agent_token.test.id }
`, budgetProviderBlock, sb.address, sb.token, sb.organization, pool.ID)
			if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := runTerraform(t, dir, "apply", "-auto-approve", "-no-color")
			if err != nil {
				t.Fatalf("terraform apply: %v\n%s", err, out)
			}
			id, err := runTerraform(t, dir, "output", "-raw", "id")
			if err != nil {
				t.Fatalf("terraform output: %v\n%s", err, id)
			}
			tokens, err := allAgentTokens(ctx, c, pool.ID)
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, tok := range tokens {
				if tok.ID != id {
					left = append(left, tok.ID)
				}
			}
			if len(tokens) != 2 || len(left) != 1 {
				t.Fatalf("pool %s holds %d tokens, want the one in state (%s) and the lost create's", pool.ID, len(tokens), id)
			}
			if !strings.Contains(out, left[0]) || !strings.Contains(out, "may have been left behind") {
				t.Errorf("with the service's clock %s off, the apply does not name the left-behind token %s:\n%s", offset, left[0], out)
			}
			if strings.Contains(out, "may have been left behind in pool "+pool.ID+": "+id) {
				t.Errorf("the apply names the token in state (%s) as left behind:\n%s", id, out)
			}
		})
	}
}
