package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// outbox sends notifications to the client in the order they were queued, on one goroutine,
// so a bus subscriber never blocks and a prompt's answer can wait until everything the turn
// said before it has been written.
type outbox struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []func()
	closed bool
}

func newOutbox() *outbox {
	o := &outbox{}
	o.cond = sync.NewCond(&o.mu)
	return o
}

func (o *outbox) push(fn func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.items = append(o.items, fn)
	o.cond.Signal()
}

// flush waits until everything queued before it has been sent.
func (o *outbox) flush() {
	done := make(chan struct{})
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.items = append(o.items, func() { close(done) })
	o.cond.Signal()
	o.mu.Unlock()
	<-done
}

func (o *outbox) run() {
	for {
		o.mu.Lock()
		for len(o.items) == 0 && !o.closed {
			o.cond.Wait()
		}
		if len(o.items) == 0 {
			o.mu.Unlock()
			return
		}
		fn := o.items[0]
		o.items = o.items[1:]
		o.mu.Unlock()
		fn()
	}
}

// close runs what is queued, then stops.
func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Broadcast()
	o.mu.Unlock()
}

// replies lets a handler act after its own reply is on the wire: session/set_mode replies,
// then sends current_mode_update. The SDK does not give handlers their request id, so the
// incoming side notes the ids of the methods that need it, per session in arrival order, and
// the outgoing side runs the hook once the response with that id has been written.
type replies struct {
	mu      sync.Mutex
	pending map[string][]string // method + " " + session id -> request ids, in arrival order
	hooks   map[string]func()   // request id -> what to do after its response
}

func newReplies() *replies {
	return &replies{pending: map[string][]string{}, hooks: map[string]func(){}}
}

// hookedMethods are the requests whose handlers act after replying.
var hookedMethods = map[string]bool{"session/set_mode": true, "session/set_config_option": true}

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID string `json:"sessionId"`
	} `json:"params"`
}

func idKey(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// reader passes the client's messages through, noting the ids of hooked requests.
func (r *replies) reader(in io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), 10*1024*1024)
		for sc.Scan() {
			line := sc.Bytes()
			var e envelope
			if json.Unmarshal(line, &e) == nil && hookedMethods[e.Method] && len(e.ID) > 0 {
				k := e.Method + " " + e.Params.SessionID
				r.mu.Lock()
				r.pending[k] = append(r.pending[k], idKey(e.ID))
				r.mu.Unlock()
			}
			if _, err := pw.Write(append(append([]byte(nil), line...), '\n')); err != nil {
				return
			}
		}
		pw.CloseWithError(sc.Err())
	}()
	return pr
}

// after registers fn to run once the reply to the oldest unanswered method request of the
// session is written. It reports false when there is no such request (fn is then not kept).
func (r *replies) after(method, sessionID string, fn func()) bool {
	k := method + " " + sessionID
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := r.pending[k]
	if len(ids) == 0 {
		return false
	}
	r.hooks[ids[0]] = fn
	if r.pending[k] = ids[1:]; len(r.pending[k]) == 0 {
		delete(r.pending, k)
	}
	return true
}

// forget drops the oldest noted request of a session whose handler failed.
func (r *replies) forget(method, sessionID string) {
	r.after(method, sessionID, nil)
}

// writer writes the agent's messages and runs the hook of a response just written.
type replyWriter struct {
	w io.Writer
	r *replies
}

func (r *replies) writer(w io.Writer) io.Writer { return &replyWriter{w: w, r: r} }

func (rw *replyWriter) Write(p []byte) (int, error) {
	n, err := rw.w.Write(p)
	var e envelope
	if err != nil || json.Unmarshal(p, &e) != nil || e.Method != "" || len(e.ID) == 0 {
		return n, err
	}
	k := idKey(e.ID)
	rw.r.mu.Lock()
	fn, ok := rw.r.hooks[k]
	delete(rw.r.hooks, k)
	rw.r.mu.Unlock()
	if ok && fn != nil {
		fn()
	}
	return n, err
}
