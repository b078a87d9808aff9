package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// A create whose answer was lost looks for its object before it creates again, and adopts it
// only on proof (DESIGN.md "Lost creates").

const maxAmbiguousCreates = 5 // ambiguous attempts, each followed by a look-up that found nothing

// asAmbiguous finds the ambiguous write in err's chain (go-tfe wraps it in a *url.Error).
func asAmbiguous(err error) (*tfeclient.AmbiguousWriteError, bool) {
	var amb *tfeclient.AmbiguousWriteError
	ok := errors.As(err, &amb)
	return amb, ok
}

func isAmbiguous(err error) bool {
	_, ok := asAmbiguous(err)
	return ok
}

const ( // outcomes, counted by resource type for tests and logs
	reconcileAdopted   = "adopted"   // the lost create's object was found and kept
	reconcileRecreated = "recreated" // nothing was made: created again
	reconcileRefused   = "refused"   // an object not provably this create's: error with import block
	reconcileLeft      = "left"      // an object that may be a lost create's, left alone and named in a warning
)

var (
	reconcileMu     sync.Mutex
	reconcileCounts = map[string]int{}
)

func countReconcile(resourceType, outcome string) {
	reconcileMu.Lock()
	reconcileCounts[resourceType+" "+outcome]++
	reconcileMu.Unlock()
}

func reconciliations() map[string]int {
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	return maps.Clone(reconcileCounts)
}

// lostAnswerFound follows "<parent> already has <object> (<id>)": why the provider leaves it.
func lostAnswerFound(amb *tfeclient.AmbiguousWriteError) string {
	return fmt.Sprintf("The create request ended without a definite answer (%s), so this may be the object that request made, "+
		"or one that someone else made before it or while it was in flight: nothing the API returns tells them apart, "+
		"so the provider does not take it over.", amb.Reason)
}

// importAdvice is an import block for the object; `to` is the address Terraform prints in the
// diagnostic's "with" line, since the provider is not told it.
func importAdvice(resourceType, id, importID string) string {
	return fmt.Sprintf("If %s is the object you want this resource to manage, import it (set `to` to this resource's address, shown in the \"with\" line above):\n\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
		"or run: terraform import '%s.<name>' %s\n\n"+
		"Otherwise delete %s, or change the configuration so that it no longer conflicts, then apply again.",
		id, resourceType, importID, resourceType, importID, id)
}

func ambiguousGaveUp(what string, err error) string {
	return fmt.Sprintf("Creating %s: %d attempts ended without a definite answer, and none made it (checked after each): %s. "+
		"The service appears to be failing; apply again later.", what, maxAmbiguousCreates, err)
}

// conflictError is a refusal to adopt: Error is the whole message.
type conflictError struct{ msg string }

func (e *conflictError) Error() string { return e.msg }

// reconcileCreate runs create and, after each ambiguous answer, look (under tfeclient.LookContext,
// which outlives Terraform's stop by stopWriteWait): the object provably made (adopt), a
// *conflictError for one not provably it, or neither when nothing was made and create runs again.
func reconcileCreate[T any](ctx context.Context, resourceType string, create func() (T, error), look func(context.Context, *tfeclient.AmbiguousWriteError) (T, bool, error)) (T, error) {
	var zero T
	var err error
	for range maxAmbiguousCreates {
		var obj T
		obj, err = create()
		amb, ok := asAmbiguous(err)
		if !ok {
			return obj, err
		}
		tflog.Info(ctx, "Create ended ambiguously; looking for what it made", map[string]any{"resource_type": resourceType, "reason": amb.Reason})
		lctx, release := tfeclient.LookContext(ctx)
		found, adopt, lerr := look(lctx, amb)
		release()
		var conflict *conflictError
		switch {
		case errors.As(lerr, &conflict):
			countReconcile(resourceType, reconcileRefused)
			return zero, lerr
		case lerr != nil:
			return zero, fmt.Errorf("%w; then looking for what it made: %w", err, lerr)
		case adopt:
			countReconcile(resourceType, reconcileAdopted)
			tflog.Info(ctx, "Adopted the object the ambiguous create made", map[string]any{"resource_type": resourceType})
			return found, nil
		}
		countReconcile(resourceType, reconcileRecreated)
		tflog.Info(ctx, "The ambiguous create made nothing; creating again", map[string]any{"resource_type": resourceType})
	}
	return zero, errors.New(ambiguousGaveUp(resourceType, err))
}

// candidateLines: the objects besides id a lost create may have made, once each, sorted, for a warning.
func candidateLines[T any](items []T, id string, idOf func(T) string, line func(T) string) []string {
	seen := map[string]bool{id: true}
	var lines []string
	for _, it := range items {
		if i := idOf(it); !seen[i] {
			seen[i] = true
			lines = append(lines, line(it))
		}
	}
	slices.Sort(lines)
	return lines
}
