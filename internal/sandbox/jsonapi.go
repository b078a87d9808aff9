package sandbox

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// mediaType is the JSON:API media type every document is served with.
const mediaType = "application/vnd.api+json"

// maxJSONBody bounds a JSON:API request body. Policy and configuration
// uploads are octet streams with their own limits.
const maxJSONBody = 1 << 20

// resource is one JSON:API resource object as the sandbox writes it.
type resource struct {
	Type          string         `json:"type"`
	ID            string         `json:"id"`
	Attributes    map[string]any `json:"attributes,omitempty"`
	Relationships map[string]any `json:"relationships,omitempty"`
	Links         map[string]any `json:"links,omitempty"`
}

// document is a top-level JSON:API document. Data is a resource, a slice of
// resources, or nil for a null primary resource.
type document struct {
	Data     any            `json:"data"`
	Included []resource     `json:"included,omitempty"`
	Links    map[string]any `json:"links,omitempty"`
	Meta     map[string]any `json:"meta,omitempty"`
}

// relOne is a to-one relationship; an empty id gives `{"data": null}`.
func relOne(typ, id string) map[string]any {
	if id == "" {
		return map[string]any{"data": nil}
	}
	return map[string]any{"data": map[string]any{"type": typ, "id": id}}
}

// relMany is a to-many relationship, always an array (never null).
func relMany(typ string, ids []string) map[string]any {
	data := make([]map[string]any, 0, len(ids))
	for _, id := range ids {
		data = append(data, map[string]any{"type": typ, "id": id})
	}
	return map[string]any{"data": data}
}

// timestamp renders t as ISO 8601 UTC with millisecond precision and a `Z`,
// the form go-tfe's iso8601 decoder requires.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// nullableTime renders a zero time as JSON null.
func nullableTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return timestamp(t)
}

// statusTimestamp renders t with second precision and a `+00:00` offset, the
// form the reference gives for `status-timestamps` values.
func statusTimestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05+00:00")
}

// nullableString renders an empty string as JSON null.
func nullableString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// writeDoc writes a JSON:API document with the given status.
func writeDoc(w http.ResponseWriter, status int, doc document) {
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(doc)
}

// writeNoContent answers 204 with an empty body.
func writeNoContent(w http.ResponseWriter) {
	w.WriteHeader(http.StatusNoContent)
}

// apiError is a JSON:API error object together with its HTTP status.
type apiError struct {
	Status  int
	Title   string
	Detail  string
	Pointer string
	// Parameter names the query parameter at fault (source.parameter).
	Parameter string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Title, e.Detail) }

// errNotFound is the answer for a missing resource and for a caller that may
// not see it: the reference uses the same status for both.
func errNotFound() *apiError { return &apiError{Status: http.StatusNotFound, Title: "not found"} }

// errInvalidAttribute is a 422 naming the offending attribute in both the
// detail and the JSON pointer.
func errInvalidAttribute(attr, detail string) *apiError {
	return &apiError{
		Status:  http.StatusUnprocessableEntity,
		Title:   "invalid attribute",
		Detail:  detail,
		Pointer: "/data/attributes/" + attr,
	}
}

// errBadRequest is a 400 for a malformed query parameter.
func errBadRequest(param, detail string) *apiError {
	return &apiError{Status: http.StatusBadRequest, Title: "bad request", Detail: fmt.Sprintf("%s: %s", param, detail), Parameter: param}
}

// errConflict is a 409 with a detail.
func errConflict(detail string) *apiError {
	return &apiError{Status: http.StatusConflict, Title: "conflict", Detail: detail}
}

func writeError(w http.ResponseWriter, e *apiError) {
	obj := map[string]any{
		"status": strconv.Itoa(e.Status),
		"title":  e.Title,
	}
	if e.Detail != "" {
		obj["detail"] = e.Detail
	}
	if e.Pointer != "" {
		obj["source"] = map[string]any{"pointer": e.Pointer}
	} else if e.Parameter != "" {
		obj["source"] = map[string]any{"parameter": e.Parameter}
	}
	w.Header().Set("Content-Type", mediaType)
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []any{obj}})
}

// inResource is a resource object as a client sends it.
type inResource struct {
	Type          string                     `json:"type"`
	ID            string                     `json:"id"`
	Attributes    map[string]json.RawMessage `json:"attributes"`
	Relationships map[string]struct {
		Data json.RawMessage `json:"data"`
	} `json:"relationships"`
}

// body is a decoded JSON:API request document. Its accessors record the first
// problem they meet, so a handler reads every attribute it needs and then
// checks err once; the 422 names the attribute at fault.
type body struct {
	res inResource
	err *apiError
}

// decodeBody reads a JSON:API document whose data.type is one of types.
func decodeBody(r *http.Request, types ...string) (*body, *apiError) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxJSONBody+1))
	if err != nil {
		return nil, &apiError{Status: http.StatusBadRequest, Title: "bad request", Detail: "could not read the request body"}
	}
	if len(raw) > maxJSONBody {
		return nil, &apiError{Status: http.StatusRequestEntityTooLarge, Title: "request too large", Detail: "a JSON:API body may not exceed 1 MB"}
	}
	var doc struct {
		Data *json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "the body is not a JSON:API document: " + err.Error(), Pointer: "/data"}
	}
	if doc.Data == nil || string(*doc.Data) == "null" {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data is required", Pointer: "/data"}
	}
	b := &body{}
	if err := json.Unmarshal(*doc.Data, &b.res); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be a resource object: " + err.Error(), Pointer: "/data"}
	}
	ok := false
	for _, t := range types {
		ok = ok || b.res.Type == t
	}
	if !ok {
		return nil, &apiError{
			Status:  http.StatusUnprocessableEntity,
			Title:   "invalid type",
			Detail:  fmt.Sprintf("data.type must be %s, got %q", quoteJoin(types), b.res.Type),
			Pointer: "/data/type",
		}
	}
	return b, nil
}

// decodeLinkage reads a body whose data is an array of resource identifiers,
// such as the relationship endpoints, and returns the ids, each checked
// against typ.
func decodeLinkage(r *http.Request, typ string) ([]string, *apiError) {
	var doc struct {
		Data []struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, maxJSONBody)).Decode(&doc); err != nil {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must be an array of resource identifiers", Pointer: "/data"}
	}
	if len(doc.Data) == 0 {
		return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: "data must name at least one " + typ, Pointer: "/data"}
	}
	ids := make([]string, 0, len(doc.Data))
	for i, d := range doc.Data {
		if d.Type != typ || d.ID == "" {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Title: "malformed body", Detail: fmt.Sprintf("data[%d] must be a %q identifier with an id", i, typ), Pointer: fmt.Sprintf("/data/%d", i)}
		}
		ids = append(ids, d.ID)
	}
	return ids, nil
}

func quoteJoin(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, " or ")
}

func (b *body) fail(e *apiError) {
	if b.err == nil {
		b.err = e
	}
}

// has reports whether attr is present (null counts as present): how an
// update tells "clear this" (null) from "leave it" (absent).
func (b *body) has(attr string) bool {
	_, ok := b.res.Attributes[attr]
	return ok
}

// present reports whether attr is present and not null.
func (b *body) present(attr string) bool {
	raw, ok := b.res.Attributes[attr]
	return ok && string(raw) != "null"
}

// optString returns attr, or nil when absent or null.
func (b *body) optString(attr string) *string {
	if !b.present(attr) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b.res.Attributes[attr], &s); err != nil {
		b.fail(errInvalidAttribute(attr, attr+" must be a string"))
		return nil
	}
	return &s
}

// reqString returns attr and records a 422 when it is missing or blank.
func (b *body) reqString(attr string) string {
	s := b.optString(attr)
	if s == nil || strings.TrimSpace(*s) == "" {
		if b.err == nil {
			b.fail(errInvalidAttribute(attr, attr+" is required and can't be blank"))
		}
		return ""
	}
	return *s
}

// optBool returns attr, or nil when absent or null.
func (b *body) optBool(attr string) *bool {
	if !b.present(attr) {
		return nil
	}
	var v bool
	if err := json.Unmarshal(b.res.Attributes[attr], &v); err != nil {
		b.fail(errInvalidAttribute(attr, attr+" must be a boolean"))
		return nil
	}
	return &v
}

// optInt returns attr, or nil when absent or null.
func (b *body) optInt(attr string) *int {
	if !b.present(attr) {
		return nil
	}
	var v int
	if err := json.Unmarshal(b.res.Attributes[attr], &v); err != nil {
		b.fail(errInvalidAttribute(attr, attr+" must be an integer"))
		return nil
	}
	return &v
}

// optStrings returns attr as a list of strings, or nil when absent or null.
func (b *body) optStrings(attr string) []string {
	if !b.present(attr) {
		return nil
	}
	var v []string
	if err := json.Unmarshal(b.res.Attributes[attr], &v); err != nil {
		b.fail(errInvalidAttribute(attr, attr+" must be an array of strings"))
		return nil
	}
	if v == nil {
		v = []string{}
	}
	return v
}

// optObject decodes attr into dst and reports whether it was present.
func (b *body) optObject(attr string, dst any) bool {
	if !b.present(attr) {
		return false
	}
	if err := json.Unmarshal(b.res.Attributes[attr], dst); err != nil {
		b.fail(errInvalidAttribute(attr, attr+" has the wrong shape: "+err.Error()))
		return false
	}
	return true
}

// oneOf records a 422 when *v is set and not one of allowed.
func (b *body) oneOf(attr string, v *string, allowed ...string) {
	if v == nil {
		return
	}
	for _, a := range allowed {
		if *v == a {
			return
		}
	}
	b.fail(errInvalidAttribute(attr, fmt.Sprintf("%s must be one of %s, got %q", attr, strings.Join(allowed, ", "), *v)))
}

// relID returns the id of the to-one relationship name, checking its type.
// It returns "" when the relationship is absent or null.
func (b *body) relID(name, typ string) string {
	rel, ok := b.res.Relationships[name]
	if !ok || len(rel.Data) == 0 || string(rel.Data) == "null" {
		return ""
	}
	var d struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if err := json.Unmarshal(rel.Data, &d); err != nil {
		b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: name + " must be a single resource identifier", Pointer: "/data/relationships/" + name})
		return ""
	}
	if d.Type != typ {
		b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("%s.data.type must be %q, got %q", name, typ, d.Type), Pointer: "/data/relationships/" + name + "/data/type"})
		return ""
	}
	return d.ID
}

// reqRelID is relID that records a 422 when the relationship is missing.
func (b *body) reqRelID(name, typ string) string {
	id := b.relID(name, typ)
	if id == "" && b.err == nil {
		b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: name + " is required", Pointer: "/data/relationships/" + name})
	}
	return id
}

// relIDs returns the ids of the to-many relationship name, checking types.
func (b *body) relIDs(name, typ string) []string {
	rel, ok := b.res.Relationships[name]
	if !ok || len(rel.Data) == 0 || string(rel.Data) == "null" {
		return nil
	}
	var ds []struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}
	if err := json.Unmarshal(rel.Data, &ds); err != nil {
		b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: name + " must be an array of resource identifiers", Pointer: "/data/relationships/" + name})
		return nil
	}
	ids := make([]string, 0, len(ds))
	for _, d := range ds {
		if d.Type != typ {
			b.fail(&apiError{Status: http.StatusUnprocessableEntity, Title: "invalid relationship", Detail: fmt.Sprintf("%s items must have type %q, got %q", name, typ, d.Type), Pointer: "/data/relationships/" + name})
			return nil
		}
		ids = append(ids, d.ID)
	}
	return ids
}

// maxPageSize is the largest page the sandbox serves. The reference does not
// give a maximum; the real service caps page[size] at 100, and so do we
// (larger values are clamped, not refused).
const maxPageSize = 100

// page is a parsed page[number]/page[size] pair.
type page struct {
	Number, Size int
	// Requested reports whether the client sent either parameter.
	Requested bool
}

// parsePage reads page[number] and page[size]. A value that is not a
// positive integer is a 400 naming the parameter (the reference does not say;
// the real service rejects such values rather than guessing).
func parsePage(r *http.Request, defaultSize int) (page, *apiError) { //nolint:unparam // every paged list of the reference defaults to 20 today
	q := r.URL.Query()
	p := page{Number: 1, Size: defaultSize}
	for _, param := range []struct {
		name string
		dst  *int
	}{{"page[number]", &p.Number}, {"page[size]", &p.Size}} {
		v, ok := q[param.name]
		if !ok {
			continue
		}
		p.Requested = true
		n, err := strconv.Atoi(v[0])
		if err != nil || n < 1 {
			return p, errBadRequest(param.name, fmt.Sprintf("must be a positive integer, got %q", v[0]))
		}
		*param.dst = n
	}
	if p.Size > maxPageSize {
		p.Size = maxPageSize
	}
	return p, nil
}

// paginate returns the page of items that p selects. A page past the last
// one is empty, whatever its number: the reference does not say, and the real
// service answers a page past the end with an empty data array and the
// pagination of the list. The offset is computed only for a page that
// exists, so no page[number] can overflow it.
func paginate[T any](items []T, p page) []T {
	if p.Number-1 >= (len(items)+p.Size-1)/p.Size {
		return []T{}
	}
	start := (p.Number - 1) * p.Size
	end := min(start+p.Size, len(items))
	return items[start:end]
}

// pageDocument wraps one page of resources with `links` and
// `meta.pagination` exactly as the reference shows them: self, first, prev,
// next, last (prev and next null at the ends), and current-page, prev-page,
// next-page, total-pages, total-count.
func pageDocument(r *http.Request, p page, total int, data []resource) document {
	pages := max(1, (total+p.Size-1)/p.Size)
	link := func(n int) any {
		if n < 1 || n > pages {
			return nil
		}
		u := *r.URL
		u.Scheme, u.Host = requestScheme(r), r.Host
		q := u.Query()
		q.Set("page[number]", strconv.Itoa(n))
		q.Set("page[size]", strconv.Itoa(p.Size))
		u.RawQuery = q.Encode()
		return u.String()
	}
	intOrNil := func(n int) any {
		if n < 1 || n > pages {
			return nil
		}
		return n
	}
	// next is the following page's number, 0 (no page) past the last, so
	// that a page[number] near the largest int does not wrap around.
	next := 0
	if p.Number < pages {
		next = p.Number + 1
	}
	return document{
		Data: data,
		Links: map[string]any{
			"self":  link(p.Number),
			"first": link(1),
			"prev":  link(p.Number - 1),
			"next":  link(next),
			"last":  link(pages),
		},
		Meta: map[string]any{"pagination": map[string]any{
			"current-page": p.Number,
			"prev-page":    intOrNil(p.Number - 1),
			"next-page":    intOrNil(next),
			"total-pages":  pages,
			"total-count":  total,
		}},
	}
}

// orEmpty turns a nil slice into an empty one so `data` is `[]`, not null.
func orEmpty(rs []resource) []resource {
	if rs == nil {
		return []resource{}
	}
	return rs
}

func requestScheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// includes parses the comma-separated `include` query parameter.
func includes(r *http.Request) map[string]bool {
	out := map[string]bool{}
	for _, v := range strings.Split(r.URL.Query().Get("include"), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out[v] = true
		}
	}
	return out
}

// apiPath builds `/api/v2/...` links with each segment escaped.
func apiPath(segments ...string) string {
	var sb strings.Builder
	sb.WriteString("/api/v2")
	for _, s := range segments {
		sb.WriteByte('/')
		sb.WriteString(url.PathEscape(s))
	}
	return sb.String()
}
