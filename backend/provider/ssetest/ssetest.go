// Package ssetest is a test HTTP server that speaks server-sent events the way the model
// vendors do, and remembers what it was sent.
package ssetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Server is an httptest server with a capture of every request.
type Server struct {
	*httptest.Server

	mu      sync.Mutex
	bodies  [][]byte
	headers []http.Header
	done    chan struct{} // closed when the test ends, releasing hung handlers
}

// Stream writes events to a client.
type Stream struct {
	w    http.ResponseWriter
	r    *http.Request
	done chan struct{}
}

// Start serves handle for every request; the server closes when the test ends.
func Start(t *testing.T, handle func(s *Stream)) *Server {
	t.Helper()
	srv := &Server{done: make(chan struct{})}
	srv.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		srv.mu.Lock()
		srv.bodies = append(srv.bodies, body)
		srv.headers = append(srv.headers, r.Header.Clone())
		srv.mu.Unlock()
		handle(&Stream{w: w, r: r, done: srv.done})
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(srv.done) }) // runs first: cleanups run last-in, first-out
	return srv
}

// Body decodes the body of request i.
func (s *Server) Body(t *testing.T, i int) map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if i >= len(s.bodies) {
		t.Fatalf("only %d requests arrived, want request %d", len(s.bodies), i)
	}
	var m map[string]any
	if err := json.Unmarshal(s.bodies[i], &m); err != nil {
		t.Fatalf("request %d is not JSON: %v\n%s", i, err, s.bodies[i])
	}
	return m
}

// RawBody is the body of request i as it arrived.
func (s *Server) RawBody(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

// Header returns the headers of request i.
func (s *Server) Header(i int) http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[i]
}

// Requests is how many requests arrived.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.bodies)
}

// Begin sends the status and the event-stream content type.
func (s *Stream) Begin(status int) {
	s.w.Header().Set("Content-Type", "text/event-stream")
	s.w.WriteHeader(status)
}

// Error answers with an error status and a JSON body.
func (s *Stream) Error(status int, body string) {
	s.w.Header().Set("Content-Type", "application/json")
	s.w.WriteHeader(status)
	io.WriteString(s.w, body)
}

// Event sends one named event (Anthropic's framing) and flushes it.
func (s *Stream) Event(name, data string) {
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data)
	s.w.(http.Flusher).Flush()
}

// Data sends one unnamed event (OpenAI's framing) and flushes it.
func (s *Stream) Data(data string) {
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	s.w.(http.Flusher).Flush()
}

// Hang keeps the response open until the client goes away (or the test ends), like a model
// that stalls mid-answer.
func (s *Stream) Hang() {
	select {
	case <-s.r.Context().Done():
	case <-s.done:
	}
}
