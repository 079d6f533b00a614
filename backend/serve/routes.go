package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/coder/websocket"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
	"agentdesk/backend/workspace"
)

const (
	maxRequestBytes = 8 << 20
	// clientQueue is what a client may fall behind by before it is cut off (it reconnects and
	// reloads): a turn of a thousand tool calls publishes over 2,000 events in a few hundred ms, and a
	// page busy drawing for a tenth of a second must not lose its stream for it.
	clientQueue = 16384
	// overflowReason is the close reason a client too slow for its events gets.
	overflowReason = "event queue overflow"
	// maxFrame bounds a frame of batched events; an event larger than it goes in a frame alone.
	maxFrame = 256 << 10
)

func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("method")
	method, ok := s.opts.Methods[name]
	if !ok {
		writeError(w, http.StatusNotFound, s.opts.Describe(errs.New(errs.UnknownMethod, "Method", name)))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBytes))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, s.opts.Describe(errs.Wrap(errs.InvalidInput, err, "Field", "body")))
		return
	}
	result, err := method(r.Context(), body)
	if err != nil {
		writeError(w, statusOf(err, s.opts.Faults), s.opts.Describe(err))
		return
	}
	writeJSON(w, http.StatusOK, result)
}

// statusOf says whose fault a failed call is. A typed kind is a refusal of this request (a
// 4xx the page can act on) unless it is known to be AgentDesk's own failure: errs' store and
// internal kinds here, and the kinds of the packages serve cannot see in faults. An error
// without a kind is a failure nobody foresaw, so a 500.
func statusOf(err error, faults map[errs.Kind]int) int {
	var typed *errs.Error
	if !errors.As(err, &typed) {
		return http.StatusInternalServerError
	}
	if status, ok := faults[typed.Kind]; ok {
		return status
	}
	// A refused workspace is the request's fault, said in words.
	if slices.Contains(workspace.Kinds, typed.Kind) {
		return http.StatusBadRequest
	}
	switch typed.Kind {
	case errs.InvalidInput, errs.InvalidValue, errs.MissingArgument, errs.Usage:
		return http.StatusBadRequest
	case errs.Unauthorized:
		return http.StatusUnauthorized
	case errs.Forbidden:
		return http.StatusForbidden
	case errs.NotFound, errs.UnknownMethod:
		return http.StatusNotFound
	case errs.SchemaTooNew, errs.AlreadyExists:
		return http.StatusConflict
	case errs.Internal, errs.StoreFailure, errs.DatabaseDamaged, errs.NotAgentDeskDatabase:
		return http.StatusInternalServerError
	}
	return http.StatusUnprocessableEntity
}

// handleEvents streams broadcast events. The client's bus subscription is its queue: a client
// too slow to keep up is disconnected (the bus tells its handler so) rather than silently
// skipped; it reconnects and reloads state, so no event is lost unnoticed. Events queued while a
// frame was written go out together in the next one (see writeEvents).
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: originPatterns(s.guard)})
	if err != nil {
		return
	}
	defer conn.CloseNow()
	ctx := conn.CloseRead(r.Context())
	sub := s.opts.Subscribe(func(es []bus.Event) {
		if es[0].Name == bus.EventOverflow {
			return // handled below, without waiting for a write that may be stuck
		}
		if err := writeEvents(ctx, conn, es); err != nil {
			conn.CloseNow()
		}
	}, bus.Queue(s.queueLen()))
	select {
	case <-ctx.Done():
	case <-sub.Done(): // the bus closed: the app is shutting down
	case <-sub.Overflowed():
		// The close frame follows what the client has not read yet, if it ever reads again.
		conn.Close(websocket.StatusTryAgainLater, overflowReason)
	}
	sub.Close()
	conn.CloseNow()
	<-sub.Done()
}

func (s *Server) queueLen() int {
	if s.opts.ClientQueue > 0 {
		return s.opts.ClientQueue
	}
	return clientQueue
}

// writeEvents sends a batch of events in as few frames as fit in maxFrame each: a frame holds
// one event as a JSON object, or several as a JSON array of them, in order. A turn's burst of
// tool calls is then a handful of frames, not one per event: the browser pays a task, a message
// event and a parse per frame, which for a thousand calls cost more than drawing them.
func writeEvents(ctx context.Context, conn *websocket.Conn, es []bus.Event) error {
	payloads := make([][]byte, 0, len(es))
	for _, e := range es {
		p, err := json.Marshal(e)
		if err != nil {
			return err
		}
		payloads = append(payloads, p)
	}
	for len(payloads) > 0 {
		n, size := 1, len(payloads[0])
		for n < len(payloads) && size+1+len(payloads[n]) <= maxFrame {
			size += 1 + len(payloads[n])
			n++
		}
		if err := writeFrame(ctx, conn, payloads[:n]); err != nil {
			return err
		}
		payloads = payloads[n:]
	}
	return nil
}

func writeFrame(ctx context.Context, conn *websocket.Conn, payloads [][]byte) error {
	frame := payloads[0]
	if len(payloads) > 1 {
		frame = append(append([]byte{'['}, bytes.Join(payloads, []byte{','})...), ']')
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return conn.Write(ctx, websocket.MessageText, frame)
}

func originPatterns(g guard) []string {
	out := make([]string, 0, len(g.hosts))
	for h := range g.hosts {
		out = append(out, h)
	}
	return out
}

// hashedAssets is the folder of the bundler's output whose file names carry a hash of their
// content: a name never comes back with other bytes, so the browser may keep them, and a reload
// then neither downloads nor compiles the scripts again (the embedded files have no modification
// time to revalidate by).
const hashedAssets = "assets/"

// assetHandler serves the built frontend; unknown paths get index.html so client-side routes
// survive a reload.
func assetHandler(assets fs.FS) http.Handler {
	files := http.FileServerFS(assets)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Clean(r.URL.Path)[1:]
		if name != "" {
			if _, err := fs.Stat(assets, name); err == nil {
				if strings.HasPrefix(name, hashedAssets) {
					w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, assets, "index.html")
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, body ErrorBody) {
	writeJSON(w, status, map[string]ErrorBody{"error": body})
}
