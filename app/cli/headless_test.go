package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/host"
	"agentdesk/backend/i18n"
	"agentdesk/backend/provider"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// deafModel does not hear a cancellation: its answer waits for release alone, so its turn
// outlives any close deadline.
type deafModel struct {
	entered, release chan struct{}
	once             sync.Once
}

func (d *deafModel) Name() string { return "deaf" }

func (d *deafModel) Stream(context.Context, provider.Request, func(provider.Event)) (provider.Response, error) {
	d.once.Do(func() { close(d.entered) })
	<-d.release
	return provider.Response{Text: "late"}, nil
}

// A command's store belongs to its host once handed over: when a turn still runs at the close
// deadline, the host leaves the store open under it, and the command must not close it either,
// or the turn's end is lost.
func TestACommandLeavesTheStoreOpenUnderATurnThatOutlivesTheClose(t *testing.T) {
	grace := closeGrace
	closeGrace = 50 * time.Millisecond
	t.Cleanup(func() { closeGrace = grace })
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	v, err := (&session.Service{Store: st}).Create(session.CreateInput{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	var logw bytes.Buffer
	c := &Context{Env: Env{Stderr: &logw, Getenv: func(string) string { return "" }}, msgs: msgs, lang: "en", DataDir: dir}
	model := &deafModel{entered: make(chan struct{}), release: make(chan struct{})}
	var h *host.Host
	c.withHost(st, agent.Fixed(model), &logw, func(got *host.Host) int {
		h = got
		if _, err := h.Runtime.Send(agent.Input{SessionID: v.ID, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		<-model.entered
		return ExitOK
	})
	if !strings.Contains(logw.String(), "left open") {
		t.Fatalf("the close should have found the turn running: %q", logw.String())
	}
	close(model.release)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Runtime.Wait(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	turns, err := st.Turns(v.ID)
	if err != nil || len(turns) != 1 || turns[0].Status == store.TurnRunning {
		t.Fatalf("the turn's end was not recorded: %+v %v", turns, err)
	}
	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
