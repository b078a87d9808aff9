package sandbox_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// The admin subscription endpoints as hashicorp/tfe's acceptance suite
// calls them, through go-tfe's NewRequest (go-tfe has no methods for them).
type featureSet struct {
	ID   string `jsonapi:"primary,feature-sets"`
	Name string `jsonapi:"attr,name"`
}

type featureSetList struct {
	*tfe.Pagination
	Items []*featureSet
}

type subscriptionOptions struct {
	Type            string      `jsonapi:"primary,subscription"`
	RunsCeiling     *int        `jsonapi:"attr,runs-ceiling,omitempty"`
	ContractStartAt *time.Time  `jsonapi:"attr,contract-start-at,iso8601,omitempty"`
	FeatureSet      *featureSet `jsonapi:"relation,feature-set"`
}

type subscription struct {
	ID          string            `jsonapi:"primary,subscriptions"`
	RunsCeiling int               `jsonapi:"attr,runs-ceiling"`
	StartAt     time.Time         `jsonapi:"attr,contract-start-at,iso8601"`
	FeatureSet  *featureSet       `jsonapi:"relation,feature-set"`
	Org         *tfe.Organization `jsonapi:"relation,organization"`
}

func listFeatureSets(t *testing.T, c *tfe.Client, q string) (*featureSetList, error) {
	t.Helper()
	req, err := c.NewRequest("GET", "admin/feature-sets", &struct {
		Q string `url:"q,omitempty"`
	}{q})
	if err != nil {
		t.Fatal(err)
	}
	l := &featureSetList{}
	return l, req.Do(context.Background(), l)
}

func subscribe(t *testing.T, c *tfe.Client, org string, opts *subscriptionOptions) (*subscription, error) {
	t.Helper()
	req, err := c.NewRequest("POST", "admin/organizations/"+org+"/subscription", opts)
	if err != nil {
		t.Fatal(err)
	}
	sub := &subscription{}
	return sub, req.Do(context.Background(), sub)
}

// TestAdminSubscriptions: the admin token finds a plan by name and gives an
// organization a subscription, which its members read back; every other
// token gets 404 from the admin endpoints.
func TestAdminSubscriptions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := newWorld(t)

	all, err := listFeatureSets(t, w.admin, "")
	if err != nil || len(all.Items) < 4 || all.TotalCount != len(all.Items) {
		t.Fatalf("all feature sets: %+v, %v", all, err)
	}
	business, err := listFeatureSets(t, w.admin, "business")
	if err != nil || len(business.Items) != 1 || business.Items[0].Name != "Business" {
		t.Fatalf("q=business: %+v, %v", business, err)
	}
	for _, plan := range []string{"Free", "Standard (entitlement)", "Premium (entitlement)"} {
		if l, err := listFeatureSets(t, w.admin, plan); err != nil || len(l.Items) == 0 || l.Items[0].Name != plan {
			t.Errorf("the suite's plan %q: %+v, %v", plan, l, err)
		}
	}
	if _, err := listFeatureSets(t, w.owner, ""); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("an owner listed feature sets: %v", err)
	}

	start := time.Now().UTC().Truncate(time.Second)
	sub, err := subscribe(t, w.admin, w.org, &subscriptionOptions{RunsCeiling: tfe.Int(10), ContractStartAt: &start, FeatureSet: business.Items[0]})
	if err != nil || sub.RunsCeiling != 10 || !sub.StartAt.Equal(start) || sub.FeatureSet.ID != business.Items[0].ID {
		t.Fatalf("subscribe: %+v, %v", sub, err)
	}
	req, err := w.owner.NewRequest("GET", "organizations/"+w.org+"/subscription", nil)
	if err != nil {
		t.Fatal(err)
	}
	read := &subscription{}
	if err := req.Do(ctx, read); err != nil || read.ID != sub.ID || read.RunsCeiling != 10 || read.FeatureSet.ID != business.Items[0].ID || read.Org.Name != w.org {
		t.Errorf("read back: %+v, %v", read, err)
	}

	for name, tc := range map[string]struct {
		c    *tfe.Client
		org  string
		opts *subscriptionOptions
		want string
	}{
		"owner":          {w.owner, w.org, &subscriptionOptions{FeatureSet: business.Items[0]}, "not found"},
		"missing org":    {w.admin, "missing", &subscriptionOptions{FeatureSet: business.Items[0]}, "not found"},
		"no feature set": {w.admin, w.org, &subscriptionOptions{}, "feature-set is required"},
		"unknown set":    {w.admin, w.org, &subscriptionOptions{FeatureSet: &featureSet{ID: "fs-nope"}}, "is not a feature set"},
		"negative runs":  {w.admin, w.org, &subscriptionOptions{RunsCeiling: tfe.Int(-1), FeatureSet: business.Items[0]}, "runs-ceiling must not be negative"},
	} {
		if _, err := subscribe(t, tc.c, tc.org, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
	}
	// Another organization has none until given one.
	w.organization(t, "other")
	req, err = w.admin.NewRequest("GET", "organizations/other/subscription", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := req.Do(ctx, &subscription{}); !errors.Is(err, tfe.ErrResourceNotFound) {
		t.Errorf("no subscription yet: %v", err)
	}
}
