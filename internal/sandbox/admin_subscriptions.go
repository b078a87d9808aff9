package sandbox

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Admin subscription endpoints, as hashicorp/tfe's acceptance suite calls them: README.md
// "Admin subscriptions".

func (s *Server) registerAdminSubscriptions() {
	s.route("GET /api/v2/admin/feature-sets", s.listFeatureSets)
	s.route("POST /api/v2/admin/organizations/{org}/subscription", s.createSubscription)
	s.route("GET /api/v2/organizations/{org}/subscription", s.readSubscription)
}

// featureSet is one plan of the catalog.
type featureSet struct{ ID, Name string }

// featureSets are the plans HCP Terraform has offered, by the names its
// admin API gives them: the current ones (Free, Essentials, Standard,
// Premium), their entitlement forms, and the legacy ones still on older
// organizations.
var featureSets = []featureSet{
	{"fs-Business00000000", "Business"},
	{"fs-Essentials000000", "Essentials"},
	{"fs-Free000000000000", "Free"},
	{"fs-Plus000000000000", "Plus (entitlement)"},
	{"fs-Premium000000000", "Premium"},
	{"fs-PremiumEnt000000", "Premium (entitlement)"},
	{"fs-Standard00000000", "Standard"},
	{"fs-StandardEnt00000", "Standard (entitlement)"},
	{"fs-Team000000000000", "Team"},
	{"fs-TeamGovernance00", "Team & Governance"},
}

func featureSetResource(fs featureSet) resource {
	return resource{Type: "feature-sets", ID: fs.ID, Attributes: map[string]any{"name": fs.Name}}
}

// subscription is an organization's plan as the admin endpoint set it.
type subscription struct {
	ID           string         `json:"id"`
	FeatureSetID string         `json:"feature_set_id"`
	Attributes   map[string]any `json:"attributes"`
	CreatedAt    time.Time      `json:"created_at"`
}

// subscriptionInts and subscriptionTimes are the contract attributes a
// subscription keeps; anything else sent is ignored.
var (
	subscriptionInts  = []string{"runs-ceiling", "agents-ceiling", "contract-user-limit", "contract-apply-limit", "contract-managed-resources-limit"}
	subscriptionTimes = []string{"contract-start-at", "end-at"}
)

func subscriptionResource(org string, sub *subscription) resource {
	attrs := map[string]any{"created-at": timestamp(sub.CreatedAt)}
	for _, a := range append(slices.Clone(subscriptionInts), subscriptionTimes...) {
		attrs[a] = sub.Attributes[a] // nil (null) when not sent
	}
	return resource{
		Type:       "subscriptions",
		ID:         sub.ID,
		Attributes: attrs,
		Relationships: map[string]any{
			"organization": relOne("organizations", org),
			"feature-set":  relOne("feature-sets", sub.FeatureSetID),
		},
	}
}

func (s *Server) listFeatureSets(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	if !p.admin {
		return errNotFound()
	}
	q := strings.ToLower(r.URL.Query().Get("q"))
	var all []featureSet
	for _, fs := range featureSets {
		if strings.Contains(strings.ToLower(fs.Name), q) {
			all = append(all, fs)
		}
	}
	return writeList(w, r, all, featureSetResource)
}

func (s *Server) createSubscription(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	o := s.st.Organizations[r.PathValue("org")]
	if !p.admin || o == nil {
		return errNotFound()
	}
	b, e := decodeBody(r, "subscriptions", "subscription")
	if e != nil {
		return e
	}
	fs := b.reqRelID("feature-set", "feature-sets")
	attrs := map[string]any{}
	for _, a := range subscriptionInts {
		if v := b.optInt(a); v != nil {
			if *v < 0 {
				b.fail(errInvalidAttribute(a, fmt.Sprintf("%s must not be negative, got %d", a, *v)))
			}
			attrs[a] = *v
		}
	}
	for _, a := range subscriptionTimes {
		if v := b.optString(a); v != nil {
			t, err := time.Parse(time.RFC3339, *v)
			if err != nil {
				b.fail(errInvalidAttribute(a, fmt.Sprintf("%s must be an ISO 8601 time, got %q", a, *v)))
			}
			attrs[a] = timestamp(t)
		}
	}
	if b.err != nil {
		return b.err
	}
	if !slices.ContainsFunc(featureSets, func(f featureSet) bool { return f.ID == fs }) {
		return &apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship",
			Detail: fmt.Sprintf("feature-set %q is not a feature set: list them with GET /api/v2/admin/feature-sets", fs), Pointer: "/data/relationships/feature-set"}
	}
	rec := s.st.newRecord("sub-")
	o.Subscription = &subscription{ID: rec.ID, FeatureSetID: fs, Attributes: attrs, CreatedAt: rec.CreatedAt}
	writeDoc(w, http.StatusCreated, document{Data: subscriptionResource(o.Name, o.Subscription)})
	return nil
}

func (s *Server) readSubscription(w http.ResponseWriter, r *http.Request, p principal) *apiError {
	org, e := s.st.orgFor(r, p, nil)
	if e != nil {
		return e
	}
	sub := s.st.Organizations[org].Subscription
	if sub == nil {
		return errNotFound()
	}
	writeDoc(w, http.StatusOK, document{Data: subscriptionResource(org, sub)})
	return nil
}
