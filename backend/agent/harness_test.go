package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// harness runs real turns: a real SQLite store, the real gate and tools, the decision
// registry, and the scripted provider behind the recorder, whose file shows what the model got.
type harness struct {
	t         testing.TB
	st        *store.Store
	bus       *bus.Bus
	rt        *Runtime
	reg       *decision.Registry
	session   string
	workspace string
	record    string

	mu     sync.Mutex
	events []bus.Event
	answer func(d decision.Decision) *decision.Resolution
}

type harnessOpts struct {
	interaction, override, permission string
	timeout                           time.Duration
	// published, when set, sees every broadcast of the runtime and the registry as it is made,
	// before the bus has it.
	published func(name string, data any)
}

func newHarness(t testing.TB, script string, o harnessOpts) *harness {
	t.Helper()
	dataDir := t.TempDir()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, st: st, workspace: t.TempDir(), record: filepath.Join(t.TempDir(), "record.json")}
	b := bus.New()
	h.bus = b
	b.Subscribe(h.observe)
	timeout := o.timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	publish := b.Publish
	if o.published != nil {
		publish = func(name string, data any) { o.published(name, data); b.Publish(name, data) }
	}
	h.reg = decision.New(st, publish, decision.Options{Timeout: func() time.Duration { return timeout }})
	prov, err := scripted.FromBytes("test script", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := provider.Record(prov, h.record)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	h.rt = New(Options{Store: st, Publish: publish, Decisions: h.reg, Tools: tool.NewRegistry(), Provider: Fixed(rec), Messages: msgs, DataDir: dataDir})
	h.session = h.newSession(o)
	t.Cleanup(h.close) // before the store closes: cleanups run last in, first out
	return h
}

func (h *harness) newSession(o harnessOpts) string {
	in := session.CreateInput{Title: "t", Workspace: h.workspace}
	if o.interaction != "" {
		in.Mode.InteractionMode = &o.interaction
	}
	if o.override != "" {
		in.Mode.ExecutionOverride = &o.override
	}
	perm := "ask"
	if o.permission != "" {
		perm = o.permission
	}
	in.Permission = &perm
	v, err := (&session.Service{Store: h.st}).Create(in)
	if err != nil {
		h.t.Fatal(err)
	}
	return v.ID
}

// observe records every broadcast and answers decisions the way the test says, from another
// goroutine, as a person in another window would.
func (h *harness) observe(e bus.Event) {
	h.mu.Lock()
	h.events = append(h.events, e)
	answer := h.answer
	h.mu.Unlock()
	if e.Name != decision.EventAsked || answer == nil {
		return
	}
	d := e.Data.(decision.Decision)
	if res := answer(d); res != nil {
		go h.reg.Resolve(d.ID, *res)
	}
}

func (h *harness) onDecision(fn func(d decision.Decision) *decision.Resolution) {
	h.mu.Lock()
	h.answer = fn
	h.mu.Unlock()
}

// send runs one message to the end of its turn (and any queued turns after it).
func (h *harness) send(text string, m mode.FollowUpInput) Ack {
	h.t.Helper()
	ack, err := h.rt.Send(Input{SessionID: h.session, Text: text, Mode: m})
	if err != nil {
		h.t.Fatalf("send %q: %v", text, err)
	}
	h.wait()
	return ack
}

func (h *harness) wait() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.rt.Wait(ctx, h.session); err != nil {
		h.t.Fatalf("turn did not end: %v", err)
	}
}

// close shuts the runtime down the way the app does, then the bus.
func (h *harness) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := h.rt.Shutdown(ctx); err != nil {
		h.t.Errorf("shutdown: %v", err)
	}
	if err := h.bus.Close(ctx); err != nil {
		h.t.Errorf("bus close: %v", err)
	}
}

// named lists the events of that name the subscriber has handled, after it has caught up.
func (h *harness) named(name string) []bus.Event {
	h.bus.Sync(context.Background())
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []bus.Event
	for _, e := range h.events {
		if e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

func (h *harness) turns() []store.Turn {
	turns, err := h.st.Turns(h.session)
	if err != nil {
		h.t.Fatal(err)
	}
	return turns
}

func (h *harness) pref() mode.Preference {
	st, err := h.st.ModeInForce(h.session)
	if err != nil {
		h.t.Fatal(err)
	}
	return st.Preference
}

// recorded is the --record file: every request the provider received.
type recorded struct {
	Requests []struct {
		System   string `json:"system"`
		Messages []struct {
			Role        string `json:"role"`
			Text        string `json:"text"`
			ToolResults []struct {
				CallID  string `json:"call_id"`
				Content string `json:"content"`
				IsError bool   `json:"is_error"`
			} `json:"tool_results"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	} `json:"requests"`
}

func (h *harness) recorded() recorded {
	h.t.Helper()
	raw, err := os.ReadFile(h.record)
	if err != nil {
		h.t.Fatal(err)
	}
	var r recorded
	if err := json.Unmarshal(raw, &r); err != nil {
		h.t.Fatalf("record: %v\n%s", err, raw)
	}
	return r
}

// resultsSeen lists the tool results the model received in request i.
func (r recorded) resultsSeen(i int) []string {
	var out []string
	for _, m := range r.Requests[i].Messages {
		for _, tr := range m.ToolResults {
			out = append(out, tr.Content)
		}
	}
	return out
}

func script(responses ...string) string {
	out := `{"responses":[`
	for i, r := range responses {
		if i > 0 {
			out += ","
		}
		out += r
	}
	return out + "]}"
}

func str(s string) *string { return &s }
