package mcp

import (
	"context"
	"encoding/json"
	"testing"

	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// BenchmarkOfferedNoServers is what every model request pays for MCP when none is configured.
func BenchmarkOfferedNoServers(b *testing.B) {
	st, err := store.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h := NewHost(st, Options{})
	defer h.Close(context.Background())
	ws := b.TempDir()
	for b.Loop() {
		h.Offered(context.Background(), "s1", ws)
	}
}

// BenchmarkStdioCall is one call to a running stdio server: the listing read again, the pins
// checked, the call and its result (the fixture's echo).
func BenchmarkStdioCall(b *testing.B) {
	dir := b.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	h := NewHost(st, Options{DataDir: dir})
	defer h.Close(context.Background())
	ws := b.TempDir()
	v, err := h.Add(Config{Name: "notes", Transport: Stdio, Command: fixture}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := h.Enable(context.Background(), v.ID, ws); err != nil {
		b.Fatal(err)
	}
	t, err := h.Lookup(context.Background(), "s1", ws, "mcp__notes__echo")
	if err != nil || t == nil {
		b.Fatal("no echo", err)
	}
	input := json.RawMessage(`{"text":"x"}`)
	for b.Loop() {
		if _, err := t.Run(context.Background(), tool.Env{}, input); err != nil {
			b.Fatal(err)
		}
	}
}
