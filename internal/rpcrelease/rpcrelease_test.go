package rpcrelease

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestWrap_everyMethod: the wrapper serves every method the framework's server has (the
// temporary interfaces too, which tf6server asserts), so no RPC is lost behind it.
func TestWrap_everyMethod(t *testing.T) {
	t.Parallel()
	inner := providerserver.NewProtocol6(&probe{})()
	wrapped := Wrap(inner)
	if _, ok := wrapped.(*server); !ok {
		t.Fatalf("the framework's server %T is not wrapped: it lacks a method of rpcrelease.Server", inner)
	}
	wt := reflect.TypeOf(wrapped)
	it := reflect.TypeOf(inner)
	for i := range it.NumMethod() {
		if name := it.Method(i).Name; !hasMethod(wt, name) {
			t.Errorf("%s: the framework's server has it, the wrapper does not", name)
		}
	}
	//nolint:staticcheck // the temporary interfaces of terraform-plugin-go v0.31
	for name, ok := range map[string]bool{
		"ProviderServerWithListResource": isA[tfprotov6.ProviderServerWithListResource](wrapped),
		"ProviderServerWithActions":      isA[tfprotov6.ProviderServerWithActions](wrapped),
		"ProviderServerWithStateStores":  isA[tfprotov6.ProviderServerWithStateStores](wrapped),
	} {
		if !ok {
			t.Errorf("the wrapper is no %s", name)
		}
	}
}

func hasMethod(t reflect.Type, name string) bool { _, ok := t.MethodByName(name); return ok }

func isA[T any](v any) bool { _, ok := v.(T); return ok }

type key struct{}

// TestWrap_valuesUntilReturn: an RPC sees its context's values and deadline; once it returned,
// the context it was given (which the framework keeps) holds none.
func TestWrap_valuesUntilReturn(t *testing.T) {
	t.Parallel()
	p := &probe{}
	srv := Wrap(providerserver.NewProtocol6(p)())
	deadline := time.Now().Add(time.Hour)
	parent, cancel := context.WithDeadline(context.WithValue(context.Background(), key{}, "value"), deadline)
	defer cancel()
	p.metadata = func(ctx context.Context) {
		if got := ctx.Value(key{}); got != "value" {
			t.Errorf("in flight: Value = %v, want the parent's", got)
		}
		if d, ok := ctx.Deadline(); !ok || !d.Equal(deadline) {
			t.Errorf("in flight: Deadline = %v %t, want the parent's", d, ok)
		}
		p.kept = ctx
	}
	if _, err := srv.GetMetadata(parent, &tfprotov6.GetMetadataRequest{}); err != nil {
		t.Fatal(err)
	}
	if got := p.kept.Value(key{}); got != nil {
		t.Errorf("returned: Value = %v, want nil", got)
	}
	if err := p.kept.Err(); err != nil {
		t.Errorf("returned, the parent alive: Err = %v", err)
	}
	cancel() // the gRPC stream ends
	select {
	case <-p.kept.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the parent's end did not reach the kept context")
	}
	if err := p.kept.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("the parent ended: Err = %v, want Canceled", err)
	}
}

// TestContext_release: the shim's own context is its parent while the RPC runs, then holds no
// value and is done, with the parent's error if it had one then; a channel taken in flight still
// closes with the parent.
func TestContext_release(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		endFirst bool
		want     error
	}{
		"parent alive at return":   {want: context.Canceled},
		"parent past its deadline": {endFirst: true, want: context.DeadlineExceeded},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			deadline := time.Now().Add(time.Hour)
			if tc.endFirst {
				deadline = time.Now().Add(-time.Second)
			}
			parent, cancel := context.WithDeadline(context.WithValue(context.Background(), key{}, "value"), deadline)
			defer cancel()
			c := newContext(parent)
			if got := c.Value(key{}); got != "value" {
				t.Errorf("in flight: Value = %v, want the parent's", got)
			}
			inFlight := c.Done()
			if inFlight != parent.Done() {
				t.Error("in flight: Done is not the parent's channel")
			}
			c.release()
			if got := c.Value(key{}); got != nil {
				t.Errorf("released: Value = %v, want nil", got)
			}
			if d, ok := c.Deadline(); !ok || !d.Equal(deadline) {
				t.Errorf("released: Deadline = %v %t, want the parent's", d, ok)
			}
			select {
			case <-c.Done():
			default:
				t.Error("released: Done is open, want closed")
			}
			if err := c.Err(); !errors.Is(err, tc.want) {
				t.Errorf("released: Err = %v, want %v", err, tc.want)
			}
			cancel()
			<-inFlight
		})
	}
}

// TestWrap_stopCancelsInFlight: StopProvider still cancels an RPC in flight (the framework's
// own cancel, which takes the shim's context as parent), and so does the parent's end.
func TestWrap_stopCancelsInFlight(t *testing.T) {
	t.Parallel()
	for name, stop := range map[string]func(srv tfprotov6.ProviderServer, cancelParent context.CancelFunc){
		"StopProvider": func(srv tfprotov6.ProviderServer, _ context.CancelFunc) {
			if _, err := srv.StopProvider(context.Background(), &tfprotov6.StopProviderRequest{}); err != nil {
				t.Error(err)
			}
		},
		"the parent's end": func(_ tfprotov6.ProviderServer, cancelParent context.CancelFunc) { cancelParent() },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			entered, seen := make(chan struct{}), make(chan error, 1)
			p := &probe{metadata: func(ctx context.Context) {
				close(entered)
				select {
				case <-ctx.Done():
					seen <- ctx.Err()
				case <-time.After(10 * time.Second):
					seen <- errors.New("never canceled")
				}
			}}
			srv := Wrap(providerserver.NewProtocol6(p)())
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			returned := make(chan error, 1)
			go func() {
				_, err := srv.GetMetadata(parent, &tfprotov6.GetMetadataRequest{})
				returned <- err
			}()
			<-entered
			stop(srv, cancel)
			if err := <-seen; !errors.Is(err, context.Canceled) {
				t.Errorf("the RPC in flight saw %v, want Canceled", err)
			}
			if err := <-returned; err != nil {
				t.Error(err)
			}
		})
	}
}

// probe is a provider whose Metadata runs metadata, if set, with the RPC's context.
type probe struct {
	metadata func(context.Context)
	kept     context.Context
}

func (p *probe) Metadata(ctx context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "probe"
	if p.metadata != nil {
		p.metadata(ctx)
	}
}

func (*probe) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (*probe) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {}

func (*probe) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (*probe) Resources(context.Context) []func() resource.Resource { return nil }
