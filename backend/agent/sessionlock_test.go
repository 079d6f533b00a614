package agent

import (
	"context"
	"database/sql"
	"testing"
	"time"

	_ "github.com/glebarez/go-sqlite"
)

// The runtime's lock covers memory only: while one session's send waits for the store's write
// lock, whether another session runs a turn is answered at once, and so is a cancel.
func TestTheRuntimeLockIsNeverHeldAcrossTheStore(t *testing.T) {
	h := newHarness(t, script(`{"text":"a"}`), harnessOpts{})
	other := h.newSession(harnessOpts{})
	ctx := context.Background()
	raw, err := sql.Open("sqlite", h.st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	writer, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if _, err := writer.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	before := h.st.Units()
	sent := make(chan error, 1)
	go func() {
		_, err := h.rt.Send(Input{SessionID: h.session, Text: "one"})
		sent <- err
	}()
	for deadline := time.Now().Add(10 * time.Second); h.st.Units() == before; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the send never reached the store")
		}
	}
	answered := make(chan struct{})
	go func() {
		h.rt.Running(other)
		h.rt.Cancel(other)
		close(answered)
	}()
	select {
	case <-answered:
	case <-time.After(2 * time.Second):
		t.Error("the runtime's lock is held while a send waits for the store")
	}
	if _, err := writer.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	<-answered
	h.wait()
}
