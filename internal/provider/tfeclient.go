package provider

import (
	"context"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/tfgov/terraform-provider-tfgov/internal/tfeclient"
)

// The HTTP layer lives in internal/tfeclient; these names keep the
// package's call sites as they were (issue 38: a move, no behaviour change).

type (
	ambiguousWriteError = tfeclient.AmbiguousWriteError
	notSentError        = tfeclient.NotSentError
)

var (
	apiRequest        = tfeclient.APIRequest
	lastPage          = tfeclient.LastPage
	withResponseNotes = tfeclient.WithResponseNotes
	rejectedAttribute = tfeclient.RejectedAttribute
	lookContext       = tfeclient.LookContext
)

// Generic functions cannot be function values uninstantiated.

func listAll[T any](ctx context.Context, fetch func(ctx context.Context, page int) ([]T, *tfe.Pagination, error)) ([]T, error) {
	return tfeclient.ListAll(ctx, fetch)
}

func walkPages[T any](ctx context.Context, fetch func(ctx context.Context, page int) ([]T, *tfe.Pagination, error), visit func([]T) bool) (int, error) {
	return tfeclient.WalkPages(ctx, fetch, visit)
}

func carriedValue[T any](ctx context.Context, write func(context.Context) (T, error)) (T, error) {
	return tfeclient.CarriedValue(ctx, write)
}
