package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
)

func TestPolicySets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)
	ps, err := w.owner.PolicySets.Create(ctx, w.org, tfe.PolicySetCreateOptions{Name: tfe.String("baseline"), Kind: tfe.OPA})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ps.ID, "polset-") || ps.Kind != tfe.OPA {
		t.Errorf("created %+v", ps)
	}
	if _, err := w.owner.PolicySets.Read(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
	dev := w.member(t, "dev@acme.test")
	if _, err := dev.PolicySets.Read(ctx, ps.ID); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("member without manage-policies read a policy set: %v", err)
	}
	if err := w.owner.PolicySets.Delete(ctx, ps.ID); err != nil {
		t.Fatal(err)
	}
}
