package tfeclient

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestResponseNotes: the transport notes the Date of the final answer and
// the attributes its 4xx errors point at; a refusal is classified by the
// pointer, whatever the words of its message.
func TestResponseNotes(t *testing.T) {
	date := time.Date(2026, 11, 23, 16, 0, 5, 0, time.UTC)
	tests := map[string]struct {
		status   int
		body     string
		attr     string
		rejected bool
	}{
		"name taken":               {422, `{"errors":[{"status":"422","title":"invalid attribute","detail":"Name has already been taken","source":{"pointer":"/data/attributes/name"}}]}`, "name", true},
		"reworded, same pointer":   {422, `{"errors":[{"title":"nope","detail":"something else entirely","source":{"pointer":"/data/attributes/name"}}]}`, "name", true},
		"other attribute":          {422, `{"errors":[{"title":"invalid attribute","detail":"Name is bad","source":{"pointer":"/data/attributes/kind"}}]}`, "name", false},
		"text only, no pointer":    {422, `{"errors":[{"title":"invalid attribute","detail":"(attribute \"name\") has already been taken"}]}`, "name", false},
		"not a 422":                {409, `{"errors":[{"title":"conflict","source":{"pointer":"/data/attributes/name"}}]}`, "name", false},
		"key of a test variable":   {422, `{"errors":[{"title":"invalid attribute","source":{"pointer":"/data/attributes/key"}}]}`, "key", true},
		"success has no rejection": {200, `{}`, "name", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Date", date.Format(http.TimeFormat))
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			}))
			defer srv.Close()
			c := &http.Client{Transport: &retryTransport{next: http.DefaultTransport, max: 0, minWait: time.Millisecond, maxWait: time.Millisecond}}
			ctx, notes := WithResponseNotes(context.Background())
			req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, srv.URL, nil)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if tc.status >= 400 && len(body) == 0 {
				t.Error("the error body was not put back for go-tfe")
			}
			var failed error
			if tc.status >= 400 {
				failed = errors.New("the service refused the request")
			}
			if got := RejectedAttribute(notes.Wrap(failed), tc.attr); got != tc.rejected {
				t.Errorf("RejectedAttribute(%q) = %v, want %v", tc.attr, got, tc.rejected)
			}
		})
	}
}
