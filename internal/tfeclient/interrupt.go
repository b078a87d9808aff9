package tfeclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	tfe "github.com/hashicorp/go-tfe"
)

// An interrupted apply keeps every object: a write already sent is carried to its
// answer. DESIGN.md "Writes carried past Terraform's stop".

// StopWriteWait bounds the wait for a write's answer after Terraform's stop.
const StopWriteWait = responseHeaderTimeout

// callerKey holds, in a write's context, the caller's: its end is Terraform's stop.
type callerKey struct{}

// NotSentError is a write not sent: Terraform had asked to stop, or its time was up.
type NotSentError struct{ cause error }

func (e *NotSentError) Error() string {
	if errors.Is(e.cause, context.DeadlineExceeded) {
		return "not sent: the operation's time was up (its timeout)"
	}
	return "not sent: Terraform asked the provider to stop"
}

func (e *NotSentError) Unwrap() error { return e.cause }

// writeContext is the context of one write: the caller's deadline holds, its cancellation
// leaves the write StopWriteWait to be answered. A caller already done: *NotSentError.
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

// stopRequested: ctx is a write's whose caller has ended; no retry is sent then.
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

// CarriedValue is Carried for a write that returns a value.
func CarriedValue[T any](ctx context.Context, write func(context.Context) (T, error)) (T, error) {
	var out T
	err := Carried(ctx, func(wctx context.Context) error {
		var err error
		out, err = write(wctx)
		return err
	})
	return out, err
}

// carryWrites carries the writes of the go-tfe services the resources write through.
func carryWrites(c *tfe.Client) {
	c.Policies = carriedPolicies{c.Policies}
	c.TeamAccess = carriedTeamAccess{c.TeamAccess}
	c.AgentTokens = carriedAgentTokens{c.AgentTokens}
	c.TestVariables = carriedTestVariables{c.TestVariables}
	c.ConfigurationVersions = carriedConfigurationVersions{c.ConfigurationVersions}
	c.TeamProjectAccess = carriedTeamProjectAccess{c.TeamProjectAccess}
	c.PolicySets = carriedPolicySets{c.PolicySets}
	c.PolicySetParameters = carriedPolicySetParameters{c.PolicySetParameters}
	c.PolicySetVersions = carriedPolicySetVersions{c.PolicySetVersions}
}

type carriedPolicySets struct{ tfe.PolicySets }

func (a carriedPolicySets) Create(ctx context.Context, org string, o tfe.PolicySetCreateOptions) (*tfe.PolicySet, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.PolicySet, error) { return a.PolicySets.Create(ctx, org, o) })
}

func (a carriedPolicySets) Update(ctx context.Context, id string, o tfe.PolicySetUpdateOptions) (*tfe.PolicySet, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.PolicySet, error) { return a.PolicySets.Update(ctx, id, o) })
}

func (a carriedPolicySets) Delete(ctx context.Context, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.Delete(ctx, id) })
}

func (a carriedPolicySets) AddPolicies(ctx context.Context, id string, o tfe.PolicySetAddPoliciesOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddPolicies(ctx, id, o) })
}

func (a carriedPolicySets) RemovePolicies(ctx context.Context, id string, o tfe.PolicySetRemovePoliciesOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemovePolicies(ctx, id, o) })
}

func (a carriedPolicySets) AddWorkspaces(ctx context.Context, id string, o tfe.PolicySetAddWorkspacesOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddWorkspaces(ctx, id, o) })
}

func (a carriedPolicySets) RemoveWorkspaces(ctx context.Context, id string, o tfe.PolicySetRemoveWorkspacesOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemoveWorkspaces(ctx, id, o) })
}

func (a carriedPolicySets) AddWorkspaceExclusions(ctx context.Context, id string, o tfe.PolicySetAddWorkspaceExclusionsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddWorkspaceExclusions(ctx, id, o) })
}

func (a carriedPolicySets) RemoveWorkspaceExclusions(ctx context.Context, id string, o tfe.PolicySetRemoveWorkspaceExclusionsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemoveWorkspaceExclusions(ctx, id, o) })
}

func (a carriedPolicySets) AddProjects(ctx context.Context, id string, o tfe.PolicySetAddProjectsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddProjects(ctx, id, o) })
}

func (a carriedPolicySets) RemoveProjects(ctx context.Context, id string, o tfe.PolicySetRemoveProjectsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemoveProjects(ctx, id, o) })
}

func (a carriedPolicySets) AddProjectExclusions(ctx context.Context, id string, o tfe.PolicySetAddProjectExclusionsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddProjectExclusions(ctx, id, o) })
}

func (a carriedPolicySets) RemoveProjectExclusions(ctx context.Context, id string, o tfe.PolicySetRemoveProjectExclusionsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemoveProjectExclusions(ctx, id, o) })
}

func (a carriedPolicySets) AddTagSelectors(ctx context.Context, id string, o tfe.PolicySetAddTagSelectorsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.AddTagSelectors(ctx, id, o) })
}

func (a carriedPolicySets) RemoveTagSelectors(ctx context.Context, id string, o tfe.PolicySetRemoveTagSelectorsOptions) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySets.RemoveTagSelectors(ctx, id, o) })
}

type carriedPolicySetParameters struct{ tfe.PolicySetParameters }

func (a carriedPolicySetParameters) Create(ctx context.Context, set string, o tfe.PolicySetParameterCreateOptions) (*tfe.PolicySetParameter, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.PolicySetParameter, error) {
		return a.PolicySetParameters.Create(ctx, set, o)
	})
}

func (a carriedPolicySetParameters) Update(ctx context.Context, set, id string, o tfe.PolicySetParameterUpdateOptions) (*tfe.PolicySetParameter, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.PolicySetParameter, error) {
		return a.PolicySetParameters.Update(ctx, set, id, o)
	})
}

func (a carriedPolicySetParameters) Delete(ctx context.Context, set, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySetParameters.Delete(ctx, set, id) })
}

type carriedPolicySetVersions struct{ tfe.PolicySetVersions }

func (a carriedPolicySetVersions) Create(ctx context.Context, set string) (*tfe.PolicySetVersion, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.PolicySetVersion, error) { return a.PolicySetVersions.Create(ctx, set) })
}

func (a carriedPolicySetVersions) Upload(ctx context.Context, v tfe.PolicySetVersion, path string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.PolicySetVersions.Upload(ctx, v, path) })
}

type carriedTeamProjectAccess struct{ tfe.TeamProjectAccesses }

func (a carriedTeamProjectAccess) Add(ctx context.Context, o tfe.TeamProjectAccessAddOptions) (*tfe.TeamProjectAccess, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.TeamProjectAccess, error) { return a.TeamProjectAccesses.Add(ctx, o) })
}

func (a carriedTeamProjectAccess) Update(ctx context.Context, id string, o tfe.TeamProjectAccessUpdateOptions) (*tfe.TeamProjectAccess, error) {
	return CarriedValue(ctx, func(ctx context.Context) (*tfe.TeamProjectAccess, error) {
		return a.TeamProjectAccesses.Update(ctx, id, o)
	})
}

func (a carriedTeamProjectAccess) Remove(ctx context.Context, id string) error {
	return Carried(ctx, func(ctx context.Context) error { return a.TeamProjectAccesses.Remove(ctx, id) })
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

func isWrite(method string) bool { return method != http.MethodGet && method != http.MethodHead }

// LookContext is the context of the look-up after a create's lost answer: ctx, or after
// Terraform's stop one bounded by StopWriteWait, so that what the create made is named.
func LookContext(ctx context.Context) (context.Context, context.CancelFunc) {
	if !errors.Is(ctx.Err(), context.Canceled) {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), StopWriteWait)
}
