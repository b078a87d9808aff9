package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
)

// What go-tfe drops from an answer, kept for the caller that asks.
//
// go-tfe hands back the decoded body of an answer, or an error built from
// the text of its JSON:API errors: the answer's headers and the errors'
// source.pointer are lost on the way. A caller that needs them puts a
// responseNotes in the request's context (withResponseNotes); the
// transport (retryTransport) writes into it what the final answer said:
// the attributes its 4xx errors point at (source.pointer), so that a
// refusal is classified by the attribute the service names
// (rejectedError), never by matching the text of a message.
type responseNotes struct {
	mu       sync.Mutex
	status   int
	rejected []string // Terraform attribute names (pointerAttribute)
}

type responseNotesKey struct{}

// withResponseNotes returns ctx carrying a new responseNotes, and it.
func withResponseNotes(ctx context.Context) (context.Context, *responseNotes) {
	n := &responseNotes{}
	return context.WithValue(ctx, responseNotesKey{}, n), n
}

// noteResponse records resp in the notes of ctx, if any. It reads the
// error document of a 4xx answer and puts it back for go-tfe.
func noteResponse(ctx context.Context, resp *http.Response) {
	n, _ := ctx.Value(responseNotesKey{}).(*responseNotes)
	if n == nil || resp == nil {
		return
	}
	var rejected []string
	if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.Body != nil {
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close() //nolint:errcheck,gosec // replaced below
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		var doc jsonapiErrors
		if err == nil && json.Unmarshal(raw, &doc) == nil {
			for _, e := range doc.Errors {
				if e.Source == nil {
					continue
				}
				if a := pointerAttribute(e.Source.Pointer); a != "" {
					rejected = append(rejected, a)
				}
			}
		}
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.status, n.rejected = resp.StatusCode, rejected
}

// wrap returns err as a *rejectedError when the last answer noted was a
// 4xx whose errors point at attributes; err unchanged otherwise.
func (n *responseNotes) wrap(err error) error {
	if err == nil {
		return nil
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.rejected) == 0 {
		return err
	}
	return &rejectedError{Status: n.status, Attributes: slices.Clone(n.rejected), Err: err}
}

// rejectedError is a request the service refused (4xx) naming the
// attributes at fault, by their Terraform names.
type rejectedError struct {
	Status     int
	Attributes []string
	Err        error
}

func (e *rejectedError) Error() string { return e.Err.Error() }
func (e *rejectedError) Unwrap() error { return e.Err }

// rejectedAttribute reports whether err is a refusal (422) that points at
// attribute attr, such as a name already taken.
func rejectedAttribute(err error, attr string) bool {
	var r *rejectedError
	return errors.As(err, &r) && r.Status == http.StatusUnprocessableEntity && slices.Contains(r.Attributes, attr)
}
