package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// Module version deprecation is a public beta without a go-tfe client: every request and answer
// the provider knows of is in this file. Deprecate and revert: PATCH .../:org/:name/:provider/:version
// with data.attributes.deprecation {deprecated-status, reason, link}; deprecating answers the
// `deprecations` record in `included`. Read: go-tfe ReadVersion's .../version?module_version=V with
// include=deprecation (relationships.deprecation null: not deprecated). encoding/json, not go-tfe's
// jsonapi, so that an answer without the deprecation relationship is an error, not "not deprecated".

// moduleVersionRef names one version of a private registry module.
type moduleVersionRef struct {
	Organization, Name, Provider, Version string
}

// String is the form errors and import IDs use: org/name/provider/version.
func (m moduleVersionRef) String() string {
	return m.Organization + "/" + m.Name + "/" + m.Provider + "/" + m.Version
}

// describe names the version and its module for error messages.
func (m moduleVersionRef) describe() string {
	return fmt.Sprintf("version %s of module %s/%s/%s", m.Version, m.Organization, m.Name, m.Provider)
}

func (m moduleVersionRef) modulePath() string {
	return "organizations/" + url.PathEscape(m.Organization) + "/registry-modules/private/" +
		url.PathEscape(m.Organization) + "/" + url.PathEscape(m.Name) + "/" + url.PathEscape(m.Provider)
}

// moduleVersionInfo is what the provider learns about a version.
type moduleVersionInfo struct {
	ID           string // `modver-<id>` on the sandbox
	Status       string // ingestion status (`ok`, `pending`, ...); only the read reports it
	Deprecated   bool
	Reason, Link *string // nil when the deprecation has none
}

const (
	deprecationStatusDeprecated   = "Deprecated"
	deprecationStatusUndeprecated = "Undeprecated"
)

type deprecationRequestDoc struct {
	Data deprecationRequestData `json:"data"`
}

type deprecationRequestData struct {
	Type       string                       `json:"type"`
	Attributes deprecationRequestAttributes `json:"attributes"`
}

type deprecationRequestAttributes struct {
	Deprecation deprecationRequestBody `json:"deprecation"`
}

type deprecationRequestBody struct {
	Status string  `json:"deprecated-status"`
	Reason *string `json:"reason,omitempty"`
	Link   *string `json:"link,omitempty"`
}

type moduleVersionDoc struct {
	Data struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Attributes struct {
			Status string `json:"status"`
		} `json:"attributes"`
		Relationships map[string]struct {
			Data json.RawMessage `json:"data"`
		} `json:"relationships"`
	} `json:"data"`
	Included []struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Attributes struct {
			Reason *string `json:"reason"`
			Link   *string `json:"link"`
		} `json:"attributes"`
	} `json:"included"`
}

// deprecateModuleVersion deprecates, or sets reason and link (nil: none): one request.
func deprecateModuleVersion(ctx context.Context, c *tfe.Client, m moduleVersionRef, reason, link *string) (*moduleVersionInfo, error) {
	doc, err := patchDeprecation(ctx, c, m, deprecationRequestBody{Status: deprecationStatusDeprecated, Reason: reason, Link: link})
	if err != nil {
		return nil, err
	}
	info, err := doc.info("module-versions")
	if err != nil {
		return nil, err
	}
	if !info.Deprecated {
		return nil, fmt.Errorf("the API answered the deprecation of %s without a deprecation; the beta API may have changed", m.describe())
	}
	return info, nil
}

// undeprecateModuleVersion reverts the version's deprecation: one request.
func undeprecateModuleVersion(ctx context.Context, c *tfe.Client, m moduleVersionRef) error {
	doc, err := patchDeprecation(ctx, c, m, deprecationRequestBody{Status: deprecationStatusUndeprecated})
	if err != nil {
		return err
	}
	if doc.Data.Type != "module-versions" {
		return fmt.Errorf("unexpected answer to reverting the deprecation of %s: data.type %q; the beta API may have changed", m.describe(), doc.Data.Type)
	}
	return nil
}

// readModuleVersion reads the version and its deprecation: one request; a missing (or
// hidden) module or version is an error for which isNotFound is true.
func readModuleVersion(ctx context.Context, c *tfe.Client, m moduleVersionRef) (*moduleVersionInfo, error) {
	var buf bytes.Buffer
	if err := tfeclient.APIRequest(ctx, c, http.MethodGet, m.modulePath()+"/version", nil,
		url.Values{"module_version": {m.Version}, "include": {"deprecation"}}, &buf); err != nil {
		return nil, err
	}
	var doc moduleVersionDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", m.describe(), err)
	}
	return doc.info("registry-module-versions")
}

func patchDeprecation(ctx context.Context, c *tfe.Client, m moduleVersionRef, body deprecationRequestBody) (*moduleVersionDoc, error) {
	var buf bytes.Buffer
	if err := tfeclient.APIRequest(ctx, c, http.MethodPatch, m.modulePath()+"/"+url.PathEscape(m.Version),
		&deprecationRequestDoc{Data: deprecationRequestData{Type: "module-versions", Attributes: deprecationRequestAttributes{Deprecation: body}}}, nil, &buf); err != nil {
		return nil, err
	}
	var doc moduleVersionDoc
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		return nil, fmt.Errorf("decoding the answer for %s: %w", m.describe(), err)
	}
	return &doc, nil
}

// info interprets a module version document of the given type.
func (d *moduleVersionDoc) info(wantType string) (*moduleVersionInfo, error) {
	if d.Data.Type != wantType || d.Data.ID == "" {
		return nil, fmt.Errorf("unexpected module version document (type %q, id %q, want type %q); the beta API may have changed", d.Data.Type, d.Data.ID, wantType)
	}
	info := &moduleVersionInfo{ID: d.Data.ID, Status: d.Data.Attributes.Status}
	rel, ok := d.Data.Relationships["deprecation"]
	if !ok {
		return nil, fmt.Errorf("module version %s has no deprecation relationship, so its deprecation cannot be read; the beta API may have changed", d.Data.ID)
	}
	if len(rel.Data) == 0 || string(rel.Data) == "null" {
		return info, nil
	}
	var ident struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if err := json.Unmarshal(rel.Data, &ident); err != nil || ident.Type != "deprecations" {
		return nil, fmt.Errorf("module version %s: unexpected deprecation relationship %s; the beta API may have changed", d.Data.ID, rel.Data)
	}
	for _, inc := range d.Included {
		if inc.Type == "deprecations" && inc.ID == ident.ID {
			info.Deprecated = true
			info.Reason, info.Link = emptyToNil(inc.Attributes.Reason), emptyToNil(inc.Attributes.Link)
			return info, nil
		}
	}
	return nil, fmt.Errorf("module version %s names deprecation %s but does not include it; the beta API may have changed", d.Data.ID, ident.ID)
}

func emptyToNil(s *string) *string {
	if s == nil || *s == "" {
		return nil
	}
	return s
}
