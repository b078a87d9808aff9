package provider

import (
	"context"
	"encoding/json"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestPrivateState_frameworkServer (issue 35): the private state tfgov
// writes (a policy's code proof) is the framework's own format, which a
// framework server built without any wrapper (providerserver, as main and
// every test serve it) reads back: a refresh and a plan on a fresh server
// take it without error and keep the proof.
func TestPrivateState_frameworkServer(t *testing.T) {
	ctx := context.Background()
	const org = "private-fw"
	_, c, p := protoSandbox(t, org, nil)
	if _, err := c.Policies.Create(ctx, org, tfe.PolicyCreateOptions{Name: tfe.String("pol"), Kind: tfe.Sentinel, EnforcementLevel: tfe.EnforcementMode(tfe.EnforcementAdvisory)}); err != nil {
		t.Fatal(err)
	}
	const typ = "tfgov_policy"
	res := p.list(typ, nil, true, 10)
	if len(res) != 1 {
		t.Fatalf("%d policies listed", len(res))
	}
	prior := res[0].resource
	planned := map[string]tftypes.Value{}
	for k, v := range prior {
		planned[k] = v
	}
	planned["content"] = tftypes.NewValue(tftypes.String, "main = rule { true }\n")
	config := map[string]tftypes.Value{"name": prior["name"], "kind": prior["kind"], "enforcement_level": prior["enforcement_level"], "content": planned["content"]}
	rt := p.schema.ResourceSchemas[typ].ValueType()
	applied, err := p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: typ, PriorState: p.dynamic(rt, prior), PlannedState: p.dynamic(rt, planned), Config: p.dynamic(rt, config),
	})
	if err != nil || hasErrors(applied.Diagnostics) {
		t.Fatalf("the upload: %v %s", err, diagText(applied.Diagnostics))
	}
	var keys map[string][]byte // the framework's format: a JSON object of base64 values
	if err := json.Unmarshal(applied.Private, &keys); err != nil || len(keys[codeProofKey]) == 0 {
		t.Fatalf("private state %q is not the framework's format with a proof (%v)", applied.Private, err)
	}

	fresh := p.fresh()
	read, err := fresh.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typ, CurrentState: applied.NewState, Private: applied.Private})
	if err != nil || hasErrors(read.Diagnostics) {
		t.Fatalf("a fresh framework server's refresh: %v %s", err, diagText(read.Diagnostics))
	}
	if err := json.Unmarshal(read.Private, &keys); err != nil || len(keys[codeProofKey]) == 0 {
		t.Fatalf("the refresh dropped the proof: %q (%v)", read.Private, err)
	}
	plan, err := fresh.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: typ, PriorState: read.NewState, ProposedNewState: read.NewState, Config: p.dynamic(rt, config), PriorPrivate: read.Private,
	})
	if err != nil || hasErrors(plan.Diagnostics) {
		t.Fatalf("a fresh framework server's plan: %v %s", err, diagText(plan.Diagnostics))
	}
	if string(plan.PlannedPrivate) != string(read.Private) {
		t.Errorf("the plan changed private state %q to %q", read.Private, plan.PlannedPrivate)
	}
}
