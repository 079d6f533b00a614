package decision

import (
	"context"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/store"
)

// rig is a registry over a real SQLite file and a real bus, with every event recorded.
type rig struct {
	st  *store.Store
	reg *Registry
	bus *bus.Bus
	rec *recorder
}

type recorder struct {
	bus    *bus.Bus // synced before reading: delivery runs on the subscriber's goroutine
	mu     sync.Mutex
	events []bus.Event
}

func (rc *recorder) add(e bus.Event) {
	rc.mu.Lock()
	rc.events = append(rc.events, e)
	rc.mu.Unlock()
}

func (rc *recorder) all() []bus.Event {
	if rc.bus != nil {
		rc.bus.Sync(context.Background())
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]bus.Event(nil), rc.events...)
}

// named returns the recorded events called name whose decision id is id ("" for any).
func (rc *recorder) named(name, id string) []bus.Event {
	var out []bus.Event
	for _, e := range rc.all() {
		if e.Name == name && (id == "" || eventID(e) == id) {
			out = append(out, e)
		}
	}
	return out
}

func eventID(e bus.Event) string {
	switch d := e.Data.(type) {
	case Decision:
		return d.ID
	case Resolved:
		return d.ID
	}
	return ""
}

func newRig(t testing.TB, opts Options) *rig {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	b := bus.New()
	rc := &recorder{bus: b}
	b.Subscribe(rc.add)
	t.Cleanup(func() { b.Close(context.Background()) })
	if opts.OnError == nil {
		opts.OnError = func(err error) { t.Errorf("registry error: %v", err) }
	}
	return &rig{st: st, reg: New(st, b.Publish, opts), bus: b, rec: rc}
}

func (g *rig) session(t testing.TB, title string) string {
	t.Helper()
	s, err := g.st.CreateSession(store.NewSession{Title: title, Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID
}

// asked is an Ask running in the background.
type asked struct {
	d   Decision
	res Resolution
	err error
	end chan struct{}
}

func (g *rig) ask(ctx context.Context, req Request) *asked {
	a := &asked{end: make(chan struct{})}
	go func() {
		defer close(a.end)
		a.d, a.res, a.err = g.reg.Ask(ctx, req)
	}()
	return a
}

func (a *asked) wait(t testing.TB) (Decision, Resolution) {
	t.Helper()
	select {
	case <-a.end:
	case <-time.After(10 * time.Second):
		t.Fatal("Ask did not return")
	}
	if a.err != nil {
		t.Fatalf("ask: %v", a.err)
	}
	return a.d, a.res
}

// waitPending blocks until the session has n pending decisions and returns them.
func (g *rig) waitPending(t testing.TB, sessionID string, n int) []Decision {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if p := g.reg.Pending(sessionID); len(p) == n {
			return p
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("session never had %d pending decisions: %v", n, g.reg.Pending(sessionID))
	return nil
}

func question(sessionID, text string) Request {
	return Request{SessionID: sessionID, TurnID: "turn-1", Kind: KindQuestion,
		Payload: map[string]any{"question": text, "options": []string{"yes", "no"}}}
}
