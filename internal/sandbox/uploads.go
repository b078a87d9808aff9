package sandbox

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// uploadServer is the second listener. The reference puts one-time upload
// addresses on "a different host" from the API and sends them no bearer
// header, so they live on another port and authenticate by an unguessable
// path instead. Other sections may add routes to its mux (for example
// signed log URLs, which go-tfe also reads without a token).
type uploadServer struct {
	s    *Server
	ln   net.Listener
	srv  *http.Server
	mux  *http.ServeMux
	base string

	mu    sync.Mutex
	slots map[string]uploadSlot
}

// uploadSlot is a pending one-time upload. The slots are kept in memory
// only: a restarted sandbox forgets addresses it handed out but never saw
// used, as an expired signed URL would be on the real service.
type uploadSlot struct {
	limit int64
	// accept stores the body; it runs with the state lock held. A non-nil
	// error is written back; the slot is used up either way.
	accept func(st *state, body []byte) *apiError
}

func newUploadServer(s *Server, addr string) (*uploadServer, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("starting the upload listener on %s: %w", addr, err)
	}
	u := &uploadServer{s: s, ln: ln, mux: http.NewServeMux(), base: scheme(s.opts.TLS) + "://" + ln.Addr().String(), slots: map[string]uploadSlot{}}
	u.mux.HandleFunc("PUT /uploads/{secret}", u.put)
	u.mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { writeError(w, errNotFound()) })
	u.srv = &http.Server{Handler: http.HandlerFunc(u.serveHTTP), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: uploadReadTimeout, IdleTimeout: idleTimeout}
	go func() { _ = serveOn(u.srv, ln, s.opts.TLS) }()
	return u, nil
}

// scheme is "https" when the sandbox serves TLS, else "http".
func scheme(cfg *tls.Config) string {
	if cfg != nil {
		return "https"
	}
	return "http"
}

func (u *uploadServer) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return u.srv.Shutdown(ctx)
}

// serveHTTP serves the upload listener; every request first waits
// the latency (Options.Latency, SetLatency). A panic is a 500, as on the API.
func (u *uploadServer) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if !sleepCtx(r, u.s.Latency()) {
		return
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		if v := recover(); v != nil {
			u.s.recovered(rec, r, v)
		}
	}()
	if !cleanPath(r.URL.Path) {
		writeError(rec, errNotFound())
		return
	}
	u.mux.ServeHTTP(rec, r)
}

// newUploadURL registers a one-time upload of at most limit bytes and
// returns its absolute address.
func (u *uploadServer) newUploadURL(limit int64, accept func(st *state, body []byte) *apiError) string {
	secret := randomString(40)
	u.mu.Lock()
	u.slots[secret] = uploadSlot{limit: limit, accept: accept}
	u.mu.Unlock()
	return u.base + "/uploads/" + secret
}

// put consumes a slot: a second PUT to the same address is a 404, as for an
// address that never existed. Chaos applies to it as to the API's routes.
func (u *uploadServer) put(w http.ResponseWriter, r *http.Request) {
	u.s.count("PUT {upload_url}")
	u.s.serve(w, r, func(w http.ResponseWriter) (answerMode, *apiError) {
		u.process(w, r)
		return answerAsWritten, nil
	})
}

// process stores one upload.
func (u *uploadServer) process(w http.ResponseWriter, r *http.Request) {
	secret := r.PathValue("secret")
	u.mu.Lock()
	slot, ok := u.slots[secret]
	delete(u.slots, secret)
	u.mu.Unlock()
	if !ok {
		writeError(w, errNotFound())
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, slot.limit+1))
	if err != nil {
		writeError(w, &apiError{Status: http.StatusBadRequest, Title: "bad request", Detail: "could not read the upload"})
		return
	}
	if int64(len(raw)) > slot.limit {
		writeError(w, &apiError{Status: http.StatusRequestEntityTooLarge, Title: "payload too large", Detail: "the upload may not exceed " + strconv.FormatInt(slot.limit, 10) + " bytes"})
		return
	}
	u.s.mu.Lock()
	defer u.s.mu.Unlock()
	if e := slot.accept(u.s.st, raw); e != nil {
		writeError(w, e)
		return
	}
	u.s.persistLocked()
	w.WriteHeader(http.StatusOK)
}
