// Package rpcrelease serves a tfprotov6.ProviderServer whose unary RPCs each get a context that
// lets go of its parent when the RPC returns: terraform-plugin-framework v1.19 keeps every RPC's
// context until StopProvider, about 25 KB each. It goes when the framework releases them.
// DESIGN.md "Releasing each RPC's context".
package rpcrelease

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Server is the framework's server as tf6server asserts it: the temporary interfaces too.
type Server interface {
	tfprotov6.ProviderServer
	tfprotov6.ListResourceServer
	tfprotov6.ActionServer
	tfprotov6.StateStoreServer
}

// Wrap serves inner's RPCs unchanged; the unary ones under a released context. ListResource,
// InvokeAction and the state store's byte streams outlive the call and pass through as they are.
func Wrap(inner tfprotov6.ProviderServer) tfprotov6.ProviderServer {
	s, ok := inner.(Server)
	if !ok {
		return inner // a server without the temporary interfaces: nothing served would change
	}
	return &server{s}
}

type server struct{ Server }

// call runs one unary RPC under a context released when it returns.
func call[Req, Resp any](ctx context.Context, req Req, rpc func(context.Context, Req) (Resp, error)) (Resp, error) {
	c := newContext(ctx)
	defer c.release()
	return rpc(c, req)
}

func (s *server) GetMetadata(ctx context.Context, req *tfprotov6.GetMetadataRequest) (*tfprotov6.GetMetadataResponse, error) {
	return call(ctx, req, s.Server.GetMetadata)
}

func (s *server) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	return call(ctx, req, s.Server.GetProviderSchema)
}

func (s *server) GetResourceIdentitySchemas(ctx context.Context, req *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return call(ctx, req, s.Server.GetResourceIdentitySchemas)
}

func (s *server) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateProviderConfig)
}

func (s *server) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	return call(ctx, req, s.Server.ConfigureProvider)
}

func (s *server) StopProvider(ctx context.Context, req *tfprotov6.StopProviderRequest) (*tfprotov6.StopProviderResponse, error) {
	return call(ctx, req, s.Server.StopProvider)
}

func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateResourceConfig)
}

func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return call(ctx, req, s.Server.UpgradeResourceState)
}

func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return call(ctx, req, s.Server.ReadResource)
}

func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return call(ctx, req, s.Server.PlanResourceChange)
}

func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return call(ctx, req, s.Server.ApplyResourceChange)
}

func (s *server) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return call(ctx, req, s.Server.ImportResourceState)
}

func (s *server) MoveResourceState(ctx context.Context, req *tfprotov6.MoveResourceStateRequest) (*tfprotov6.MoveResourceStateResponse, error) {
	return call(ctx, req, s.Server.MoveResourceState)
}

func (s *server) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return call(ctx, req, s.Server.UpgradeResourceIdentity)
}

func (s *server) GenerateResourceConfig(ctx context.Context, req *tfprotov6.GenerateResourceConfigRequest) (*tfprotov6.GenerateResourceConfigResponse, error) {
	return call(ctx, req, s.Server.GenerateResourceConfig)
}

func (s *server) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateDataResourceConfig)
}

func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return call(ctx, req, s.Server.ReadDataSource)
}

func (s *server) CallFunction(ctx context.Context, req *tfprotov6.CallFunctionRequest) (*tfprotov6.CallFunctionResponse, error) {
	return call(ctx, req, s.Server.CallFunction)
}

func (s *server) GetFunctions(ctx context.Context, req *tfprotov6.GetFunctionsRequest) (*tfprotov6.GetFunctionsResponse, error) {
	return call(ctx, req, s.Server.GetFunctions)
}

func (s *server) ValidateEphemeralResourceConfig(ctx context.Context, req *tfprotov6.ValidateEphemeralResourceConfigRequest) (*tfprotov6.ValidateEphemeralResourceConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateEphemeralResourceConfig)
}

func (s *server) OpenEphemeralResource(ctx context.Context, req *tfprotov6.OpenEphemeralResourceRequest) (*tfprotov6.OpenEphemeralResourceResponse, error) {
	return call(ctx, req, s.Server.OpenEphemeralResource)
}

func (s *server) RenewEphemeralResource(ctx context.Context, req *tfprotov6.RenewEphemeralResourceRequest) (*tfprotov6.RenewEphemeralResourceResponse, error) {
	return call(ctx, req, s.Server.RenewEphemeralResource)
}

func (s *server) CloseEphemeralResource(ctx context.Context, req *tfprotov6.CloseEphemeralResourceRequest) (*tfprotov6.CloseEphemeralResourceResponse, error) {
	return call(ctx, req, s.Server.CloseEphemeralResource)
}

func (s *server) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateListResourceConfig)
}

func (s *server) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateActionConfig)
}

func (s *server) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return call(ctx, req, s.Server.PlanAction)
}

func (s *server) ValidateStateStoreConfig(ctx context.Context, req *tfprotov6.ValidateStateStoreConfigRequest) (*tfprotov6.ValidateStateStoreConfigResponse, error) {
	return call(ctx, req, s.Server.ValidateStateStoreConfig)
}

func (s *server) ConfigureStateStore(ctx context.Context, req *tfprotov6.ConfigureStateStoreRequest) (*tfprotov6.ConfigureStateStoreResponse, error) {
	return call(ctx, req, s.Server.ConfigureStateStore)
}

func (s *server) GetStates(ctx context.Context, req *tfprotov6.GetStatesRequest) (*tfprotov6.GetStatesResponse, error) {
	return call(ctx, req, s.Server.GetStates)
}

func (s *server) DeleteState(ctx context.Context, req *tfprotov6.DeleteStateRequest) (*tfprotov6.DeleteStateResponse, error) {
	return call(ctx, req, s.Server.DeleteState)
}

func (s *server) LockState(ctx context.Context, req *tfprotov6.LockStateRequest) (*tfprotov6.LockStateResponse, error) {
	return call(ctx, req, s.Server.LockState)
}

func (s *server) UnlockState(ctx context.Context, req *tfprotov6.UnlockStateRequest) (*tfprotov6.UnlockStateResponse, error) {
	return call(ctx, req, s.Server.UnlockState)
}

// rpcContext is its parent until release, then a context with no values that is done: the RPC
// is over, as gRPC's own context says once it has answered. What a kept context then holds is
// its deadline and the error it ended with, no value and no channel of its parent's.
type rpcContext struct {
	parent   atomic.Pointer[parentRef] // nil once released
	deadline time.Time
	hasDL    bool
	err      error // written before parent is cleared: the parent's error at release, else Canceled
}

type parentRef struct{ context.Context }

// released is the Done channel of every released context.
var released = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func newContext(parent context.Context) *rpcContext {
	c := &rpcContext{}
	c.deadline, c.hasDL = parent.Deadline()
	c.parent.Store(&parentRef{parent})
	return c
}

func (c *rpcContext) release() {
	p := c.parent.Load()
	if p == nil {
		return
	}
	c.err = p.Err()
	if c.err == nil {
		c.err = context.Canceled
	}
	c.parent.Store(nil)
}

func (c *rpcContext) Deadline() (time.Time, bool) { return c.deadline, c.hasDL }

// Done is the parent's channel while the RPC runs, then closed: a waiter that took the parent's
// channel still sees it close when gRPC ends the stream.
func (c *rpcContext) Done() <-chan struct{} {
	if p := c.parent.Load(); p != nil {
		return p.Done()
	}
	return released
}

func (c *rpcContext) Err() error {
	if p := c.parent.Load(); p != nil {
		return p.Err()
	}
	return c.err
}

// Value delegates while the RPC runs: context.WithCancel finds the parent's cancellation through it.
func (c *rpcContext) Value(key any) any {
	if p := c.parent.Load(); p != nil {
		return p.Value(key)
	}
	return nil
}
