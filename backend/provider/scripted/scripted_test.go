package scripted

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

const script = `{"responses":[
  {"text":"Let me look at the files.","tool_calls":[{"name":"bash","input":{"command":"echo hi"}},{"name":"read","input":{"path":"a.txt"}}]},
  {"text":"Done."},
  {"tool_calls":[{"id":"custom","name":"glob","input":{"pattern":"*.go"}}]}
]}`

func load(t *testing.T, text string) *Provider {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type events struct{ list []llm.Event }

func (e *events) emit(ev llm.Event) { e.list = append(e.list, ev) }

func TestResponsesReplayInOrder(t *testing.T) {
	p := load(t, script)
	var first events
	resp, err := p.Stream(context.Background(), llm.Request{}, first.emit)
	if err != nil {
		t.Fatal(err)
	}
	var text []string
	var calls []*llm.ToolCall
	for _, ev := range first.list {
		switch ev.Kind {
		case llm.EventTextDelta:
			if calls != nil {
				t.Fatal("text after a tool call")
			}
			text = append(text, ev.Text)
		case llm.EventToolCall:
			calls = append(calls, ev.Call)
		}
	}
	if len(text) < 2 || strings.Join(text, "") != "Let me look at the files." || resp.Text != "Let me look at the files." {
		t.Fatalf("deltas %q, text %q", text, resp.Text)
	}
	if len(calls) != 2 || calls[0].ID != "call_1" || calls[1].ID != "call_2" || calls[0].Name != "bash" ||
		string(calls[0].Input) != `{"command":"echo hi"}` || resp.StopReason != llm.StopToolUse || len(resp.ToolCalls) != 2 {
		t.Fatalf("calls %+v, response %+v", calls, resp)
	}
	second, _ := p.Stream(context.Background(), llm.Request{}, nil)
	third, _ := p.Stream(context.Background(), llm.Request{}, nil)
	if second.Text != "Done." || second.StopReason != llm.StopEndTurn || len(second.ToolCalls) != 0 {
		t.Fatalf("second: %+v", second)
	}
	if third.ToolCalls[0].ID != "custom" || third.Text != "" {
		t.Fatalf("third: %+v", third)
	}
}

func TestExhaustedScriptNamesTheFileAndCount(t *testing.T) {
	p, err := FromBytes("demo.json", []byte(`{"responses":[{"text":"only one"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stream(context.Background(), llm.Request{}, nil); err != nil {
		t.Fatal(err)
	}
	_, err = p.Stream(context.Background(), llm.Request{}, nil)
	e := errs.As(err)
	if e.Kind != llm.ScriptExhausted || e.Args["File"] != "demo.json" || e.Args["Count"] != 1 {
		t.Fatalf("err: %v", err)
	}
}

func TestCancelDuringDelayReturnsPromptly(t *testing.T) {
	p := load(t, `{"responses":[{"text":"late","delay_ms":10000}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	started := time.Now()
	var got events
	_, err := p.Stream(ctx, llm.Request{}, got.emit)
	if !errors.Is(err, context.Canceled) || len(got.list) != 0 {
		t.Fatalf("err %v, events %+v", err, got.list)
	}
	if d := time.Since(started); d > time.Second {
		t.Fatalf("cancel took %v", d)
	}
}

func TestDelayThenRespond(t *testing.T) {
	p := load(t, `{"responses":[{"text":"ok","delay_ms":30}]}`)
	started := time.Now()
	resp, err := p.Stream(context.Background(), llm.Request{}, nil)
	if err != nil || resp.Text != "ok" || time.Since(started) < 30*time.Millisecond {
		t.Fatalf("resp %+v, err %v after %v", resp, err, time.Since(started))
	}
}

// 1,000 bytes at 10,000 bytes a second take a tenth of a second, in many deltas, the first at
// once: not one burst after a wait.
func TestPacedTextStreamsAtItsRate(t *testing.T) {
	p := load(t, `{"responses":[{"text":"`+strings.Repeat("word ", 200)+`","bytes_per_s":10000}]}`)
	var got events
	var firstAt time.Duration
	started := time.Now()
	resp, err := p.Stream(context.Background(), llm.Request{}, func(e llm.Event) {
		if len(got.list) == 0 {
			firstAt = time.Since(started)
		}
		got.emit(e)
	})
	took := time.Since(started)
	if err != nil || len(resp.Text) != 1000 || len(got.list) != 200 {
		t.Fatalf("resp %d bytes, %d events, err %v", len(resp.Text), len(got.list), err)
	}
	if took < 95*time.Millisecond || firstAt > 50*time.Millisecond {
		t.Fatalf("took %v, first delta after %v", took, firstAt)
	}
}

func TestCancelWhilePacedReturnsPromptly(t *testing.T) {
	p := load(t, `{"responses":[{"text":"`+strings.Repeat("word ", 200)+`","bytes_per_s":10}]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	started := time.Now()
	resp, err := p.Stream(ctx, llm.Request{}, nil)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(started) > time.Second || len(resp.Text) >= 1000 {
		t.Fatalf("err %v after %v, %d bytes", err, time.Since(started), len(resp.Text))
	}
}

func TestErrorResponseFailsAsAProviderError(t *testing.T) {
	p := load(t, `{"responses":[{"text":"partial answer","error":"upstream overloaded"},{"text":"next"}]}`)
	var got events
	resp, err := p.Stream(context.Background(), llm.Request{}, got.emit)
	e := errs.As(err)
	if e.Kind != llm.StreamFailed || e.Args["Provider"] != Name || e.Args["Message"] != "upstream overloaded" {
		t.Fatalf("err: %v", err)
	}
	if resp.Text != "partial answer" || len(got.list) == 0 {
		t.Fatalf("the text before the error should still stream: %+v", resp)
	}
	if next, err := p.Stream(context.Background(), llm.Request{}, nil); err != nil || next.Text != "next" {
		t.Fatalf("next: %+v %v", next, err)
	}
}

func TestMalformedScriptsNameTheFile(t *testing.T) {
	for name, text := range map[string]string{
		"not json":           `{"responses":[`,
		"no responses":       `{"answers":[]}`,
		"responses missing":  `{}`,
		"unknown field":      `{"responses":[{"txt":"typo"}]}`,
		"tool call, no name": `{"responses":[{"tool_calls":[{"input":{}}]}]}`,
		"input not object":   `{"responses":[{"tool_calls":[{"name":"bash","input":"ls"}]}]}`,
		"negative delay":     `{"responses":[{"text":"x","delay_ms":-1}]}`,
		"negative pace":      `{"responses":[{"text":"x","bytes_per_s":-1}]}`,
		"trailing data":      `{"responses":[]} {}`,
	} {
		_, err := FromBytes("bad.json", []byte(text))
		e := errs.As(err)
		if e.Kind != llm.ScriptInvalid || e.Args["File"] != "bad.json" || e.Args["Detail"] == "" {
			t.Errorf("%s: err %v", name, err)
		}
	}
	missing := filepath.Join(t.TempDir(), "missing.json")
	if _, err := Load(missing); errs.KindOf(err) != llm.ScriptInvalid || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}

// Concurrent callers each get a different response, and every response is used exactly once.
func TestConcurrentCallersShareOneScript(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"responses":[`)
	const n = 50
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"text":"r` + string(rune('A'+i%26)) + string(rune('a'+i/26)) + `"}`)
	}
	b.WriteString(`]}`)
	p, err := FromBytes("many", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			resp, err := p.Stream(context.Background(), llm.Request{}, nil)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			seen[resp.Text] = true
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(seen) != n || p.Used() != n {
		t.Fatalf("%d distinct responses, %d used", len(seen), p.Used())
	}
}

func TestWordsJoinBackToTheText(t *testing.T) {
	for _, text := range []string{"", "one", "two words", "  leading and trailing  ", "line\nbreak\tand tab", "中文没有空格"} {
		if got := strings.Join(words(text), ""); got != text {
			t.Errorf("words(%q) joined = %q", text, got)
		}
	}
	if got := words("a b  c"); len(got) != 3 || got[1] != "b  " {
		t.Errorf("words = %q", got)
	}
}
