package provider

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	tfe "github.com/hashicorp/go-tfe"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/tfgov/terraform-provider-tfgov/internal/sandbox"
)

// Protocol-level tests: the provider server driven through the plugin
// protocol (tfprotov6) as Terraform would drive it, with no Terraform
// binary, against a sandbox of the test's own. They run on any machine
// and with any Terraform installed (or none), so they cover what Terraform
// 1.11 cannot run: list resources (1.14) and identity (1.12).

// protoProvider is a configured provider server.
type protoProvider struct {
	t      testing.TB
	srv    tfprotov6.ProviderServer
	schema *tfprotov6.GetProviderSchemaResponse
	idents *tfprotov6.GetResourceIdentitySchemasResponse
	cfg    map[string]string
}

// fresh is a new provider server with p's configuration, as Terraform
// starts for each operation: it shares no list with p.
func (p *protoProvider) fresh() *protoProvider { return newProtoProvider(p.t, p.cfg) }

// protoSandbox is a sandbox of the test's own behind wrap (nil: none), with
// an organization, a go-tfe client of its owner and a provider server
// configured for it.
func protoSandbox(t testing.TB, org string, wrap func(http.Handler) http.Handler) (*sandbox.Server, *tfe.Client, *protoProvider) {
	t.Helper()
	srv, err := sandbox.New(sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	token, err := bootstrapOrganization(ts.URL, srv.AdminToken(), org, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tfe.NewClient(&tfe.Config{Address: ts.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, newProtoProvider(t, map[string]string{"address": ts.URL, "token": token, "organization": org})
}

func newProtoProvider(t testing.TB, cfg map[string]string) *protoProvider {
	t.Helper()
	ctx := context.Background()
	srv, err := testServer()
	if err != nil {
		t.Fatal(err)
	}
	p := &protoProvider{t: t, srv: srv, cfg: cfg}
	if p.schema, err = srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{}); err != nil || hasErrors(p.schema.Diagnostics) {
		t.Fatalf("GetProviderSchema: %v %s", err, diagText(p.schema.Diagnostics))
	}
	if p.idents, err = srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{}); err != nil || hasErrors(p.idents.Diagnostics) {
		t.Fatalf("GetResourceIdentitySchemas: %v %s", err, diagText(p.idents.Diagnostics))
	}
	vals := map[string]tftypes.Value{}
	attrs := p.schema.Provider.ValueType().(tftypes.Object).AttributeTypes
	for k, v := range cfg {
		vals[k] = tftypes.NewValue(tftypes.String, v)
		if attrs[k].Is(tftypes.Number) { // retry_max
			n, ok := new(big.Float).SetString(v)
			if !ok {
				p.t.Fatalf("provider attribute %s: %q is not a number", k, v)
			}
			vals[k] = tftypes.NewValue(tftypes.Number, n)
		}
	}
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.15.9", Config: p.value(p.schema.Provider, vals)})
	if err != nil || hasErrors(resp.Diagnostics) {
		t.Fatalf("ConfigureProvider: %v %s", err, diagText(resp.Diagnostics))
	}
	return p
}

// readData reads data source typ with the configuration vals (every other attribute null).
func (p *protoProvider) readData(typ string, vals map[string]tftypes.Value) *tfprotov6.ReadDataSourceResponse {
	p.t.Helper()
	resp, err := p.srv.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{
		TypeName: typ, Config: p.value(p.schema.DataSourceSchemas[typ], vals),
	})
	if err != nil {
		p.t.Fatal(err)
	}
	return resp
}

// value encodes an object of schema s with vals, every other attribute
// null.
func (p *protoProvider) value(s *tfprotov6.Schema, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return p.dynamic(s.ValueType(), vals)
}

func (p *protoProvider) dynamic(typ tftypes.Type, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	p.t.Helper()
	obj, ok := typ.(tftypes.Object)
	if !ok {
		p.t.Fatalf("%s is not an object type", typ)
	}
	all := map[string]tftypes.Value{}
	for k, at := range obj.AttributeTypes {
		all[k] = tftypes.NewValue(at, nil)
	}
	for k, v := range vals {
		if _, ok := obj.AttributeTypes[k]; !ok {
			p.t.Fatalf("no attribute %q in %s", k, typ)
		}
		all[k] = v
	}
	dv, err := tfprotov6.NewDynamicValue(obj, tftypes.NewValue(obj, all))
	if err != nil {
		p.t.Fatal(err)
	}
	return &dv
}

// decode returns the attributes of dv, an object of type typ.
func (p *protoProvider) decode(typ tftypes.Type, dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	p.t.Helper()
	if dv == nil {
		return nil
	}
	v, err := dv.Unmarshal(typ)
	if err != nil {
		p.t.Fatal(err)
	}
	if v.IsNull() {
		return nil
	}
	out := map[string]tftypes.Value{}
	if err := v.As(&out); err != nil {
		p.t.Fatal(err)
	}
	return out
}

// listResult is one decoded ListResource result.
type listResult struct {
	display  string
	identity map[string]string
	resource map[string]tftypes.Value
	diags    []*tfprotov6.Diagnostic
}

// list calls ListResource for typ (with the provider prefix) with the list
// config cfg (strings), and collects every result.
func (p *protoProvider) list(typ string, cfg map[string]string, include bool, limit int64) []listResult {
	p.t.Helper()
	ctx := context.Background()
	vals := map[string]tftypes.Value{}
	for k, v := range cfg {
		vals[k] = tftypes.NewValue(tftypes.String, v)
	}
	ls, ok := p.schema.ListResourceSchemas[typ]
	if !ok {
		p.t.Fatalf("no list resource %s", typ)
	}
	config := p.value(ls, vals)
	ls6, ok := p.srv.(tfprotov6.ProviderServerWithListResource) //nolint:staticcheck // the only interface with ListResource in terraform-plugin-go v0.31
	if !ok {
		p.t.Fatal("the provider server does not serve list resources")
	}
	vr, err := ls6.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: typ, Config: config})
	if err != nil || hasErrors(vr.Diagnostics) {
		p.t.Fatalf("ValidateListResourceConfig %s: %v %s", typ, err, diagText(vr.Diagnostics))
	}
	stream, err := ls6.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: typ, Config: config, IncludeResource: include, Limit: limit})
	if err != nil {
		p.t.Fatalf("ListResource %s: %v", typ, err)
	}
	var out []listResult
	for r := range stream.Results {
		lr := listResult{display: r.DisplayName, diags: r.Diagnostics}
		if r.Identity != nil {
			lr.identity = map[string]string{}
			for k, v := range p.decode(p.idents.IdentitySchemas[typ].ValueType(), r.Identity.IdentityData) {
				var s string
				if err := v.As(&s); err != nil {
					p.t.Fatal(err)
				}
				lr.identity[k] = s
			}
		}
		if r.Resource != nil {
			lr.resource = p.decode(p.schema.ResourceSchemas[typ].ValueType(), r.Resource)
		}
		out = append(out, lr)
	}
	return out
}

func hasErrors(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

func diagText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

// str is the string in v ("" when null).
func str(t testing.TB, v tftypes.Value) string {
	t.Helper()
	if v.IsNull() {
		return ""
	}
	var s string
	if err := v.As(&s); err != nil {
		t.Fatal(err)
	}
	return s
}
