package provider

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// A policy's code proof, written compactly.
//
// Terraform keeps a resource instance's private state as opaque bytes and
// writes them into the state file in base64. The framework fills them with a
// JSON object whose values are base64 again, so a policy's code proof, a
// number of 12 digits under the key "p" (code_proof.go), takes 32
// characters of the state file where it carries 5 bytes: the base64 of
// {"p":"MjE3Nzg5ODE5MzA0"}. Terraform rewrites the whole state file after
// every resource it changes, and at 1,000 policies its time grows with the
// file's bytes (issue 29): those 32 characters were most of what a
// tfgov_policy held above hashicorp/tfe's tfe_policy.
//
// So the provider's protocol server (NewProtocol6Server) writes that one
// form, a private state holding the key "p" alone with a number that fits
// in 64 bits, written canonically, as compactProofTag followed by the number
// in big-endian bytes without leading zeros: 6 bytes until 2054, 8
// characters of the state file, as many as hashicorp/tfe's empty private
// state ("null"). Every other private state passes through as the
// framework wrote it (tfgov_policy_upload's record of its policy, the
// framework's import marker, a proof of a time before 2020, ...); the
// framework's form is a JSON object, which begins with '{', so the two
// forms never meet. Private state that Terraform sends back is turned into
// the framework's form again before the framework sees it, byte for byte
// as the framework wrote it.
//
// Only what Terraform stores is affected: the RPCs that carry a managed
// resource's private state (read, plan, apply, import, move). Ephemeral
// resources' private data never reaches the state, and passes through.
//
// State written in the framework's form reads as before, and is written
// compactly at the next refresh or apply. The compact form is part of the
// state's format from 0.1.0 on (no earlier version was released, and none
// reads it): a change to it must keep reading this one.
const compactProofTag = 0x00

// proofPrefix and proofSuffix frame the framework's form of a private state
// holding codeProofKey alone.
var (
	proofPrefix = []byte(`{"` + codeProofKey + `":"`)
	proofSuffix = []byte(`"}`)
)

// compactPrivate is private state as the provider's server hands it to
// Terraform: the compact form of a proof alone, anything else unchanged.
func compactPrivate(b []byte) []byte {
	if !bytes.HasPrefix(b, proofPrefix) || !bytes.HasSuffix(b, proofSuffix) || len(b) < len(proofPrefix)+len(proofSuffix) {
		return b
	}
	// The framework's json.Marshal writes each value in standard base64,
	// which has no '"', ',' or ':': a second key fails to decode here.
	digits, err := base64.StdEncoding.DecodeString(string(b[len(proofPrefix) : len(b)-len(proofSuffix)]))
	if err != nil {
		return b
	}
	n, err := strconv.ParseUint(string(digits), 10, 64)
	if err != nil || !bytes.Equal(strconv.AppendUint(nil, n, 10), digits) {
		return b // not a canonical number: the round trip would change it
	}
	out := []byte{compactProofTag}
	for shift := 56; shift >= 0; shift -= 8 {
		if c := byte(n >> shift); c != 0 || len(out) > 1 {
			out = append(out, c)
		}
	}
	return out
}

// expandPrivate is private state from Terraform as the framework reads it:
// compactPrivate's form back in the framework's, anything else unchanged.
func expandPrivate(b []byte) []byte {
	if len(b) == 0 || b[0] != compactProofTag || len(b) > 9 {
		return b
	}
	var n uint64
	for _, c := range b[1:] {
		n = n<<8 | uint64(c)
	}
	digits := strconv.AppendUint(nil, n, 10)
	out := append([]byte{}, proofPrefix...)
	out = base64.StdEncoding.AppendEncode(out, digits)
	return append(out, proofSuffix...)
}

// NewProtocol6Server is the provider's protocol version 6 server: the
// framework's, writing code proofs compactly (see compactPrivate). main and
// the acceptance tests serve this one.
func NewProtocol6Server(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		s, err := providerserver.NewProtocol6WithError(New(version)())()
		if err != nil {
			return nil, err
		}
		full, ok := s.(frameworkServer)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks list resources or actions", s)
		}
		return compactPrivateServer{full}, nil
	}
}

// frameworkServer is what the framework's server implements and the
// provider uses: every RPC, list resources and actions included (plugin-go
// serves these only from a server that has them).
type frameworkServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
}

// compactPrivateServer passes every RPC to the framework's server, with
// private state compact on Terraform's side and in the framework's form on
// the framework's.
type compactPrivateServer struct{ frameworkServer }

// plugin-go serves list resources and actions from a server that has
// their RPCs.
var (
	_ tfprotov6.ProviderServer     = compactPrivateServer{}
	_ tfprotov6.ListResourceServer = compactPrivateServer{}
	_ tfprotov6.ActionServer       = compactPrivateServer{}
)

func (s compactPrivateServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	r := *req
	r.Private = expandPrivate(req.Private)
	resp, err := s.frameworkServer.ReadResource(ctx, &r)
	if resp != nil {
		resp.Private = compactPrivate(resp.Private)
	}
	return resp, err
}

func (s compactPrivateServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	r := *req
	r.PriorPrivate = expandPrivate(req.PriorPrivate)
	resp, err := s.frameworkServer.PlanResourceChange(ctx, &r)
	if resp != nil {
		resp.PlannedPrivate = compactPrivate(resp.PlannedPrivate)
	}
	return resp, err
}

func (s compactPrivateServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	r := *req
	r.PlannedPrivate = expandPrivate(req.PlannedPrivate)
	resp, err := s.frameworkServer.ApplyResourceChange(ctx, &r)
	if resp != nil {
		resp.Private = compactPrivate(resp.Private)
	}
	return resp, err
}

func (s compactPrivateServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := s.frameworkServer.ImportResourceState(ctx, req)
	if resp != nil {
		for _, r := range resp.ImportedResources {
			if r != nil {
				r.Private = compactPrivate(r.Private)
			}
		}
	}
	return resp, err
}

func (s compactPrivateServer) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	r := *req
	r.SourcePrivate = expandPrivate(req.SourcePrivate)
	resp, err := s.frameworkServer.MoveResourceState(ctx, &r)
	if resp != nil {
		resp.TargetPrivate = compactPrivate(resp.TargetPrivate)
	}
	return resp, err
}
