package tfeclient

import (
	"context"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"
)

// APIRequest sends what go-tfe has no method for through go-tfe's NewRequest. body: a GET's
// query options, else the JSON:API document (raw bytes for a PUT); out: a model, an io.Writer or nil.
func APIRequest(ctx context.Context, c *tfe.Client, method, path string, body any, query url.Values, out any) error {
	req, err := c.NewRequestWithAdditionalQueryParams(method, path, body, query)
	if err != nil {
		return err
	}
	if isWrite(method) {
		return Carried(ctx, func(ctx context.Context) error { return req.Do(ctx, out) })
	}
	return req.Do(ctx, out)
}
