package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/mcp/mcptest"
	"agentdesk/backend/tool"
)

// A call's progress notices reach the call's Progress, in order, with the total. The call
// holds after its notices (the SDK hands notices on apart from the result, so one sent just
// before a result may land after the call ended, and is dropped then).
func TestProgressReachesTheCall(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	got := make(chan tool.Progress, 8)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := th.lookup("mcp__notes__slow").Run(ctx, tool.Env{Progress: func(p tool.Progress) { got <- p }},
			json.RawMessage(`{"steps":4,"hold":true}`))
		done <- err
	}()
	for i := 1; i <= 4; i++ {
		select {
		case p := <-got:
			if p != (tool.Progress{Progress: float64(i), Total: 4, Message: "step " + itoa(i)}) {
				t.Fatalf("notice %d: %+v", i, p)
			}
		case err := <-done:
			t.Fatalf("the call ended before its notices: %v", err)
		case <-time.After(10 * time.Second):
			t.Fatalf("notice %d never came", i)
		}
	}
	cancel()
	<-done
}

// Cancelling a call (the turn was stopped) tells the server, which ends the call's work.
func TestCancellingACallTellsTheServer(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	slow := th.lookup("mcp__notes__slow")
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once sync.Once
	env := tool.Env{Progress: func(tool.Progress) { once.Do(func() { close(started) }) }}
	done := make(chan error, 1)
	go func() {
		_, err := slow.Run(ctx, env, json.RawMessage(`{"steps":1,"hold":true}`))
		done <- err
	}()
	<-started
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call: %v", err)
	}
	waitFor(t, "the server to see the cancellation", func() (bool, bool) {
		_, err := os.Stat(filepath.Join(th.workspace, mcptest.CancelledFile))
		return true, err == nil
	})
}

// A server's sampling request reaches the call that is running, named by server and tool, and
// the answer goes back; with no one to decide, or a denial, the server is told why.
func TestSamplingGoesThroughTheCall(t *testing.T) {
	th := newTestHost(t)
	th.addFixture("notes", false)
	var got tool.SamplingRequest
	allow := func(_ context.Context, r tool.SamplingRequest) (tool.SamplingResult, error) {
		got = r
		return tool.SamplingResult{Text: "forty-two", Model: "test-model", StopReason: "endTurn"}, nil
	}
	res, err := th.run("mcp__notes__sample", `{"prompt":"What is six times seven?"}`, tool.Env{Sample: allow})
	if err != nil || res.Output != "test-model answered: forty-two" {
		t.Fatalf("sample: %+v %v", res, err)
	}
	want := tool.SamplingRequest{Server: "notes", Tool: "sample", SystemPrompt: "Answer in one line.", MaxTokens: 100,
		Messages: []tool.SamplingMessage{{Role: "user", Text: "What is six times seven?"}}}
	if got.Server != want.Server || got.Tool != want.Tool || got.SystemPrompt != want.SystemPrompt ||
		got.MaxTokens != want.MaxTokens || len(got.Messages) != 1 || got.Messages[0] != want.Messages[0] {
		t.Fatalf("request: %+v", got)
	}
	deny := func(context.Context, tool.SamplingRequest) (tool.SamplingResult, error) {
		return tool.SamplingResult{}, errors.New("REJECTED_BY_USER: not now")
	}
	// Over the multi round-trip pattern a declined request fails the call with the reason; the
	// server is not taken for crashed.
	_, err = th.run("mcp__notes__sample", `{"prompt":"x"}`, tool.Env{Sample: deny})
	if e := errs.As(err); e.Kind != CallFailed || !strings.Contains(err.Error(), "not now") {
		t.Fatalf("denied: %v", err)
	}
	_, err = th.run("mcp__notes__sample", `{"prompt":"x"}`, tool.Env{})
	if e := errs.As(err); e.Kind != CallFailed || !strings.Contains(err.Error(), "declined the sampling request") {
		t.Fatalf("no one to decide: %v", err)
	}
	if res, err := th.run("mcp__notes__echo", `{"text":"still here"}`, tool.Env{}); err != nil || res.Output != "echo: still here" {
		t.Fatalf("the connection outlives a declined request: %+v %v", res, err)
	}
}
