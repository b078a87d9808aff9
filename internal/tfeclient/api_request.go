package tfeclient

import (
	"context"
	"net/url"

	tfe "github.com/hashicorp/go-tfe"
)

// APIRequest is the one way the provider makes a request that go-tfe has
// no method for (or whose answer go-tfe's model loses): through go-tfe's
// own machinery, client.NewRequest, so that the request has its
// authentication, rate-limit handling, retries and error mapping. For a
// GET, body is the query (go-tfe's option types, go-querystring tags);
// for other methods it is the JSON:API document (raw bytes for a PUT).
// query adds parameters to any method. out is a JSON:API model (a
// pointer to a struct, or to a list with Items and Pagination), an
// io.Writer that receives the raw answer, or nil.
//
// A write (any method but GET) is carried to its answer if Terraform asks
// the provider to stop once it is sent, and not sent after (interrupt.go).
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
