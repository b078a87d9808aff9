package tfeclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// An interrupted apply keeps every object.
//
// On SIGINT or SIGTERM Terraform asks the provider to stop (StopProvider),
// and terraform-plugin-go cancels the context of every call in progress.
// A write already sent would then be abandoned: net/http drops the
// connection, and go-tfe throws away an answer that arrives after its
// context ended (its retry check returns the context's error first). The
// service may have made the object all the same, and the apply would end
// with it on the service and not in state ("context canceled").
//
// So every write the provider sends runs under a context of its own
// (writeContext): a write not yet sent when the stop comes is not sent
// (NotSentError), and a write already sent is carried to its answer,
// within StopWriteWait, so that the resource records what the service
// made. Reads are not carried: a refresh or a plan stops at once. The
// retry rule (transport.go) sends no retry once the stop came: a retry is
// a new write. A create that made an object and then had a later step
// refused records the object (tfgov_policy with code: the policy, tainted,
// without its code). A create whose answer never came (its connection lost
// as Terraform stopped) is ambiguous as any lost answer (provider/reconcile.go): its
// look-up still runs (LookContext), so the object it may have made is named
// in that apply, with its import block where it has a natural key.
//
// The writes are those of go-tfe's services the resources write through
// (policies, team access, agent tokens, test variables, a module test
// run's configuration version: carryWrites) and every non-GET APIRequest
// (policies, test runs, module version deprecations). Test run cancellations are not among them:
// they are sent because of the stop. On the happy path this costs no
// request: only a context and a goroutine per write.

// StopWriteWait bounds the wait for a write's answer after Terraform asked
// the provider to stop: the transport's own bound on an answer.
const StopWriteWait = responseHeaderTimeout

// callerKey holds, in a write's context, the caller's context, whose end
// is Terraform's stop (or the resource's timeout).
type callerKey struct{}

// NotSentError is a write the provider did not send because Terraform had
// asked it to stop, or the operation's time was up.
type NotSentError struct{ cause error }

func (e *NotSentError) Error() string {
	if errors.Is(e.cause, context.DeadlineExceeded) {
		return "not sent: the operation's time was up (its timeout)"
	}
	return "not sent: Terraform asked the provider to stop"
}

func (e *NotSentError) Unwrap() error { return e.cause }

// writeContext returns the context to send one write under, and the
// function that releases it. The caller's deadline (a resource's timeouts)
// still holds; its cancellation (Terraform's stop) leaves the write
// StopWriteWait to be answered. A caller already done gets a *NotSentError
// instead: the write is not sent.
func writeContext(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, &NotSentError{cause: err}
	}
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if d, ok := ctx.Deadline(); ok {
		var cancelDeadline context.CancelFunc
		wctx, cancelDeadline = context.WithDeadline(wctx, d)
		parent := cancel
		cancel = func() { cancelDeadline(); parent() }
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.Canceled) {
				cancel() // the deadline: as before
				return
			}
			t := time.NewTimer(StopWriteWait)
			defer t.Stop()
			select {
			case <-done:
			case <-t.C:
				cancel()
			}
		}
	}()
	release := func() {
		close(done)
		cancel()
	}
	return context.WithValue(wctx, callerKey{}, ctx), release, nil
}

// stopRequested reports whether ctx is a write's context whose caller has
// ended (Terraform asked the provider to stop): no retry is sent then.
func stopRequested(ctx context.Context) bool {
	caller, ok := ctx.Value(callerKey{}).(context.Context)
	return ok && caller.Err() != nil
}

// Carried runs one write under writeContext.
func Carried(ctx context.Context, write func(context.Context) error) error {
	wctx, release, err := writeContext(ctx)
	if err != nil {
		return err
	}
	defer release()
	return write(wctx)
}

// CarriedValue is carried for a write that returns a value.
func CarriedValue[T any](ctx context.Context, write func(context.Context) (T, error)) (T, error) {
	var out T
	err := Carried(ctx, func(wctx context.Context) error {
		var err error
		out, err = write(wctx)
		return err
	})
	return out, err
}

// carryWrites makes the writes of the services the resources write
// through carried (the package comment above).
func carryWrites(c *tfe.Client) {
	c.Policies = carriedPolicies{c.Policies}
	c.TeamAccess = carriedTeamAccess{c.TeamAccess}
	c.AgentTokens = carriedAgentTokens{c.AgentTokens}
	c.TestVariables = carriedTestVariables{c.TestVariables}
	c.ConfigurationVersions = carriedConfigurationVersions{c.ConfigurationVersions}
}

type carriedPolicies struct{ tfe.Policies }

func (p carriedPolicies) Create(ctx context.Context, org string, o tfe.PolicyCreateOptions) (*tfe.Policy, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.Policy, error) { return p.Policies.Create(ctx, org, o) })
}

func (p carriedPolicies) Update(ctx context.Context, id string, o tfe.PolicyUpdateOptions) (*tfe.Policy, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.Policy, error) { return p.Policies.Update(ctx, id, o) })
}

func (p carriedPolicies) Delete(ctx context.Context, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return p.Policies.Delete(ctx, id) })
}

func (p carriedPolicies) Upload(ctx context.Context, id string, content []byte) error {
	return Carried(ctx, func(ctx context.Context) error { return p.Policies.Upload(ctx, id, content) })
}

type carriedTeamAccess struct{ tfe.TeamAccesses }

func (a carriedTeamAccess) Add(ctx context.Context, o tfe.TeamAccessAddOptions) (*tfe.TeamAccess, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.TeamAccess, error) { return a.TeamAccesses.Add(ctx, o) })
}

func (a carriedTeamAccess) Update(ctx context.Context, id string, o tfe.TeamAccessUpdateOptions) (*tfe.TeamAccess, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.TeamAccess, error) { return a.TeamAccesses.Update(ctx, id, o) })
}

func (a carriedTeamAccess) Remove(ctx context.Context, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.TeamAccesses.Remove(ctx, id) })
}

type carriedAgentTokens struct{ tfe.AgentTokens }

func (a carriedAgentTokens) Create(ctx context.Context, pool string, o tfe.AgentTokenCreateOptions) (*tfe.AgentToken, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.AgentToken, error) { return a.AgentTokens.Create(ctx, pool, o) })
}

func (a carriedAgentTokens) Delete(ctx context.Context, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.AgentTokens.Delete(ctx, id) })
}

type carriedTestVariables struct{ tfe.TestVariables }

func (v carriedTestVariables) Create(ctx context.Context, m tfe.RegistryModuleID, o tfe.VariableCreateOptions) (*tfe.Variable, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.Variable, error) { return v.TestVariables.Create(ctx, m, o) })
}

func (v carriedTestVariables) Update(ctx context.Context, m tfe.RegistryModuleID, id string, o tfe.VariableUpdateOptions) (*tfe.Variable, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.Variable, error) { return v.TestVariables.Update(ctx, m, id, o) })
}

func (v carriedTestVariables) Delete(ctx context.Context, m tfe.RegistryModuleID, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return v.TestVariables.Delete(ctx, m, id) })
}

type carriedConfigurationVersions struct{ tfe.ConfigurationVersions }

func (v carriedConfigurationVersions) CreateForRegistryModule(ctx context.Context, m tfe.RegistryModuleID) (*tfe.ConfigurationVersion, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.ConfigurationVersion, error) {
		return v.ConfigurationVersions.CreateForRegistryModule(ctx, m)
	})
}

func (v carriedConfigurationVersions) UploadTarGzip(ctx context.Context, url string, archive io.Reader) error {
	return Carried(ctx, func(ctx context.Context) error { return v.ConfigurationVersions.UploadTarGzip(ctx, url, archive) })
}

// isWrite reports whether an APIRequest of method is a write.
func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// LookContext is the context of the look-up after a create's lost answer
// (reconcileCreate): ctx itself, or, once Terraform asked the provider to
// stop, one of its own bounded by StopWriteWait, so that the lost write is
// still carried to an answer: the object it made is found and named with
// its import block (or, for an agent token, in a warning) instead of being
// left unnamed. A create again after it is a new write, and is not sent.
func LookContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), StopWriteWait)
}
