package tfeclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// ResponseNotes keeps what go-tfe drops from the final answer: its Date and the attributes
// its 4xx errors point at (DESIGN.md "The service's clock").
type ResponseNotes struct {
	mu       sync.Mutex
	date     time.Time
	status   int
	rejected []string // Terraform attribute names (pointerAttribute)
}

type responseNotesKey struct{}

// WithResponseNotes returns ctx carrying a new ResponseNotes, and it.
func WithResponseNotes(ctx context.Context) (context.Context, *ResponseNotes) {
	n := &ResponseNotes{}
	return context.WithValue(ctx, responseNotesKey{}, n), n
}

// noteResponse records resp in the notes of ctx, if any, putting a 4xx body back for go-tfe.
func noteResponse(ctx context.Context, resp *http.Response) {
	n, _ := ctx.Value(responseNotesKey{}).(*ResponseNotes)
	if n == nil || resp == nil {
		return
	}
	var rejected []string
	if resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.Body != nil {
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close() // replaced below
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
	date, _ := http.ParseTime(resp.Header.Get("Date"))
	n.mu.Lock()
	defer n.mu.Unlock()
	n.status, n.rejected = resp.StatusCode, rejected
	if !date.IsZero() {
		n.date = date
	}
}

// ServerTime is the Date of the last answer noted, to the second (zero when none came).
func (n *ResponseNotes) ServerTime() time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.date
}

// Wrap returns err as a *rejectedError when the last answer was a 4xx pointing at attributes.
func (n *ResponseNotes) Wrap(err error) error {
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

// rejectedError is a 4xx naming the attributes at fault, by their Terraform names.
type rejectedError struct {
	Status     int
	Attributes []string
	Err        error
}

func (e *rejectedError) Error() string { return e.Err.Error() }
func (e *rejectedError) Unwrap() error { return e.Err }

// RejectedAttribute reports whether err is a 422 pointing at attr, such as a name taken.
func RejectedAttribute(err error, attr string) bool {
	var r *rejectedError
	return errors.As(err, &r) && r.Status == http.StatusUnprocessableEntity && slices.Contains(r.Attributes, attr)
}
