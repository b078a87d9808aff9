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

// Creates that know whether they happened: a create whose answer was lost
// looks for its object before it creates again, and adopts it only on
// proof (DESIGN.md, "Lost creates").

// maxAmbiguousCreates bounds the create attempts of one resource that end
// ambiguously, each followed by a look-up that found nothing.
const maxAmbiguousCreates = 5

// asAmbiguous returns the ambiguous write in err's chain (go-tfe returns
// the transport's error wrapped in a *url.Error).
func asAmbiguous(err error) (*tfeclient.AmbiguousWriteError, bool) {
	var amb *tfeclient.AmbiguousWriteError
	ok := errors.As(err, &amb)
	return amb, ok
}

// isAmbiguous reports whether err is a write that may have been processed.
func isAmbiguous(err error) bool {
	_, ok := asAmbiguous(err)
	return ok
}

// Reconciliation outcomes, counted by resource type for tests and logs.
const (
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

// reconciliations returns the counts so far, keyed "<type> <outcome>".
func reconciliations() map[string]int {
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	return maps.Clone(reconcileCounts)
}

// lostAnswerFound is the paragraph that follows "<parent> already has
// <object> (<id>)" when the object was found after a create whose answer
// was lost (amb): it says why the provider does not take it over.
func lostAnswerFound(amb *tfeclient.AmbiguousWriteError) string {
	return fmt.Sprintf("The create request ended without a definite answer (%s), so this may be the object that request made, "+
		"or one that someone else made before it or while it was in flight: nothing the API returns tells them apart, "+
		"so the provider does not take it over.", amb.Reason)
}

// importAdvice tells how to manage an existing object (id) with the
// resource instead of creating one: an import block with the object's
// import ID. The provider is not told the resource's address; Terraform
// prints it in the diagnostic's "with" line, which `to` must be set to.
func importAdvice(resourceType, id, importID string) string {
	return fmt.Sprintf("If %s is the object you want this resource to manage, import it (set `to` to this resource's address, shown in the \"with\" line above):\n\n"+
		"  import {\n    to = %s.<name>\n    id = %q\n  }\n\n"+
		"or run: terraform import '%s.<name>' %s\n\n"+
		"Otherwise delete %s, or change the configuration so that it no longer conflicts, then apply again.",
		id, resourceType, importID, resourceType, importID, id)
}

// ambiguousGaveUp is the message when every attempt ended ambiguously.
func ambiguousGaveUp(what string, err error) string {
	return fmt.Sprintf("Creating %s: %d attempts ended without a definite answer, and none made it (checked after each): %s. "+
		"The service appears to be failing; apply again later.", what, maxAmbiguousCreates, err)
}

// conflictError is a refusal to adopt: Error is the whole message.
type conflictError struct{ msg string }

func (e *conflictError) Error() string { return e.msg }

// reconcileCreate runs create and, after each ambiguous answer, look (with
// the context to look under: after Terraform asked the provider to stop,
// a context of its own, so that the look-up that carries the lost write to
// an answer still runs, within stopWriteWait; internal/tfeclient/interrupt.go),
// which returns the object the lost create provably made (adopt = true),
// or a *conflictError for an object that is not provably it, or neither
// when nothing was made, and then create runs again.
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

// candidateLines lists, once each and sorted, the objects a create whose
// answer was lost may have made besides the one in state (id): the lines of
// the warnings that name possible orphans (agentTokenOrphansWarning,
// testRunOrphansWarning).
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
