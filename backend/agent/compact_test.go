package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/provider"
	"agentdesk/backend/provider/anthropic"
	"agentdesk/backend/provider/ssetest"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// claude is a Messages API server, speaking its streaming format, that plays a coding agent:
// asked to "read X.txt" it calls read on X.txt, handed a result it says it read it, and asked
// for a summary (the compaction's request) it answers "SUMMARY-<n>". refuse makes it answer
// the next conversation requests with the API's refusal of a prompt that is too long.
type claude struct {
	srv *ssetest.Server

	mu        sync.Mutex
	summaries int
	refuse    int
}

func startClaude(t *testing.T) *claude {
	c := &claude{}
	c.srv = ssetest.Start(t, c.serve)
	return c
}

type wireRequest struct {
	System []struct {
		Text string `json:"text"`
	} `json:"system"`
	Tools    []json.RawMessage `json:"tools"`
	Messages []wireMessage     `json:"messages"`
}

type wireMessage struct {
	Role    string `json:"role"`
	Content []struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
	} `json:"content"`
}

func (c *claude) serve(s *ssetest.Stream) {
	n := c.srv.Requests() - 1
	var req wireRequest
	json.Unmarshal(c.srv.RawBody(n), &req)
	inTokens := len(c.srv.RawBody(n)) / 4
	c.mu.Lock()
	summary := len(req.System) > 0 && req.System[0].Text == summarySystem
	refuse := !summary && c.refuse > 0
	if refuse {
		c.refuse--
	}
	if summary {
		c.summaries++
	}
	count := c.summaries
	c.mu.Unlock()
	switch {
	case refuse:
		s.Error(400, `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 212000 tokens > 200000 maximum"},"request_id":"req_1"}`)
	case summary:
		textAnswer(s, inTokens, fmt.Sprintf("SUMMARY-%d", count))
	default:
		last := req.Messages[len(req.Messages)-1].Content
		if file, ok := strings.CutPrefix(last[len(last)-1].Text, "read "); ok && last[len(last)-1].Type == "text" {
			toolAnswer(s, inTokens, file)
			return
		}
		textAnswer(s, inTokens, "Read it.")
	}
}

func messageStart(s *ssetest.Stream, inTokens int) {
	s.Event("message_start", fmt.Sprintf(`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":%d,"output_tokens":1}}}`, inTokens))
}

func messageEnd(s *ssetest.Stream, reason string) {
	s.Event("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+reason+`","stop_sequence":null},"usage":{"output_tokens":12}}`)
	s.Event("message_stop", `{"type":"message_stop"}`)
}

func textAnswer(s *ssetest.Stream, inTokens int, text string) {
	s.Begin(200)
	messageStart(s, inTokens)
	s.Event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	delta, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": text}})
	s.Event("content_block_delta", string(delta))
	s.Event("content_block_stop", `{"type":"content_block_stop","index":0}`)
	messageEnd(s, "end_turn")
}

func toolAnswer(s *ssetest.Stream, inTokens int, file string) {
	s.Begin(200)
	messageStart(s, inTokens)
	id := "toolu_" + strings.TrimSuffix(file, ".txt")
	s.Event("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"`+id+`","name":"read","input":{}}}`)
	input, _ := json.Marshal(map[string]string{"path": file})
	delta, _ := json.Marshal(map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	s.Event("content_block_delta", string(delta))
	s.Event("content_block_stop", `{"type":"content_block_stop","index":0}`)
	messageEnd(s, "tool_use")
}

// request decodes what the server received as request i.
func (c *claude) request(t *testing.T, i int) wireRequest {
	t.Helper()
	var r wireRequest
	if err := json.Unmarshal(c.srv.RawBody(i), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func (c *claude) isSummary(t *testing.T, i int) bool {
	r := c.request(t, i)
	return len(r.System) > 0 && r.System[0].Text == summarySystem
}

// text is everything request i says, as one string.
func (r wireRequest) text() string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, p := range m.Content {
			b.WriteString(p.Text)
			b.Write(p.Content)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// wellFormed fails unless every tool_result answers a tool_use of the message right before it.
func (r wireRequest) wellFormed(t *testing.T, i int) {
	t.Helper()
	for j, m := range r.Messages {
		for _, p := range m.Content {
			if p.Type != "tool_result" {
				continue
			}
			found := false
			if j > 0 {
				for _, q := range r.Messages[j-1].Content {
					found = found || (q.Type == "tool_use" && q.ID == p.ToolUseID)
				}
			}
			if !found {
				t.Fatalf("request %d: the result of %s has no call before it: %s", i, p.ToolUseID, r.text())
			}
		}
	}
}

// newVendorHarness is a harness over a real provider, on the data folder dataDir.
func newVendorHarness(t *testing.T, dataDir, workspace string, prov provider.Provider, session string) *harness {
	t.Helper()
	st, err := store.Open(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &harness{t: t, st: st, workspace: workspace, record: filepath.Join(dataDir, "record.json")}
	h.bus = bus.New()
	h.bus.Subscribe(h.observe)
	h.reg = decision.New(st, h.bus.Publish, decision.Options{Timeout: func() time.Duration { return time.Minute }})
	rec, err := provider.Record(prov, h.record)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	h.rt = New(Options{Store: st, Publish: h.bus.Publish, Decisions: h.reg, Tools: tool.NewRegistry(), Provider: Fixed(rec), Messages: msgs, DataDir: dataDir})
	h.session = session
	if session == "" {
		h.session = h.newSession(harnessOpts{override: "execute"})
	}
	t.Cleanup(h.close)
	return h
}

// baseTokens estimates what every request of an execute turn holds before its messages.
func baseTokens(workspace string) int {
	req := provider.Request{System: systemPrompt(workspace, mode.ModeExecute)}
	for _, d := range tool.NewRegistry().Defs(mode.ProfileOf(mode.ModeExecute).Tools) {
		req.Tools = append(req.Tools, provider.ToolDef{Name: d.Name, Description: d.Description, InputSchema: d.InputSchema})
	}
	return requestTokens(req)
}

// fileTokens is the size of each file the agent reads, in estimated tokens.
const fileTokens = 1000

// overflowingOnTheFourth is a session over the real Anthropic stream, in a workspace of four
// files, with a window that holds three of them read and not the fourth.
func overflowingOnTheFourth(t *testing.T) (h *harness, api *claude, prov provider.Provider, window int) {
	dataDir, ws := t.TempDir(), t.TempDir()
	writeFiles(t, ws, "a", "b", "c", "d")
	window = int(float64(baseTokens(ws)+3*fileTokens+fileTokens/2) / compactAt)
	api = startClaude(t)
	prov = anthropic.New(anthropic.Options{Key: "sk-ant-test", BaseURL: api.srv.URL, ContextWindow: window})
	return newVendorHarness(t, dataDir, ws, prov, ""), api, prov, window
}

// dataDir is the folder the harness's store opened: its record sits at the top.
func (h *harness) dataDir() string { return filepath.Dir(h.record) }

func writeFiles(t *testing.T, dir string, names ...string) {
	for _, n := range names {
		line := strings.Repeat(strings.ToUpper(strings.Repeat(n, 4))+" ", 15) + "\n" // 76 bytes
		body := strings.Repeat(line, fileTokens*bytesPerToken/len(line))
		if err := os.WriteFile(filepath.Join(dir, n+".txt"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func compactions(t *testing.T, st *store.Store, session string) (out []eventlog.ContextCompacted, seqs []int64) {
	t.Helper()
	log, err := st.Log(session)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range log {
		if c, ok := r.Payload.(eventlog.ContextCompacted); ok {
			out, seqs = append(out, c), append(seqs, r.Seq)
		}
	}
	return out, seqs
}

// lastCallBefore is the id of the last call whose result the log has before entry seq.
func lastCallBefore(t *testing.T, st *store.Store, session string, seq int64) string {
	log, _ := st.Log(session)
	id := ""
	for _, r := range log {
		if res, ok := r.Payload.(eventlog.ToolResult); ok && r.Seq < seq {
			id = res.CallID
		}
	}
	return id
}

// firstMessage is the number of the log's first message (entry 1 is the session's mode).
func firstMessage(t *testing.T, st *store.Store, session string) int64 {
	log, _ := st.Log(session)
	for _, r := range log {
		if _, ok := r.Payload.(eventlog.UserMessage); ok {
			return r.Seq
		}
	}
	t.Fatal("no message in the log")
	return 0
}

// A session driven past a small window through the real Anthropic stream is compacted, not
// failed: the oldest part goes to the model in a summary request, the summary is recorded, the
// next request carries it and the recent turns verbatim (no call parted from its result), the
// history rebuilt from the reopened store reads the same, and a fork from before the compaction
// has the original words.
func TestALongSessionIsCompactedThroughTheProvider(t *testing.T) {
	h, api, _, window := overflowingOnTheFourth(t)
	for _, f := range []string{"a", "b", "c", "d"} {
		h.send("read "+f+".txt", mode.FollowUpInput{})
	}
	for _, turn := range h.turns() {
		if turn.Status != store.TurnDone {
			t.Fatalf("turn %q ended %s: %s", turn.Prompt, turn.Status, turn.Error)
		}
	}
	got, seqs := compactions(t, h.st, h.session)
	if len(got) != 1 {
		t.Fatalf("%d compactions, want 1: %+v", len(got), got)
	}
	c := got[0]
	if c.Summary != "SUMMARY-1" || c.From != firstMessage(t, h.st, h.session) || c.Through >= seqs[0] || c.Window != window ||
		c.Reason != eventlog.CompactedThreshold || c.TokensAfter >= c.TokensBefore || c.TokensBefore <= int(compactAt*float64(window)) {
		t.Fatalf("the compaction recorded: %+v at %d", c, seqs[0])
	}
	if n := len(h.named(EventCompacted)); n != 1 {
		t.Fatalf("%d session.compacted broadcasts", n)
	}

	// The summary request: the oldest part, as text, without tools; not the newest turn.
	sum := -1
	for i := 0; i < api.srv.Requests(); i++ {
		if api.isSummary(t, i) {
			sum = i
		}
	}
	if sum < 0 {
		t.Fatal("no summary request reached the server")
	}
	sreq := api.request(t, sum)
	if len(sreq.Tools) != 0 || len(sreq.Messages) != 1 || !strings.Contains(sreq.text(), "AAAA") || strings.Contains(sreq.text(), "DDDD") ||
		!strings.Contains(sreq.text(), "<conversation>") {
		t.Fatalf("summary request: %d tools, %d messages:\n%.600s", len(sreq.Tools), len(sreq.Messages), sreq.text())
	}

	// The request after it: the summary first, then the recent part word for word.
	next := api.request(t, sum+1)
	next.wellFormed(t, sum+1)
	first := next.Messages[0]
	if first.Role != "user" || !strings.HasPrefix(first.Content[0].Text, summaryIntro+"SUMMARY-1") {
		t.Fatalf("the next request opens with %+v", first)
	}
	recent := strings.ToUpper(strings.Repeat(strings.TrimPrefix(lastCallBefore(t, h.st, h.session, seqs[0]), "toolu_"), 4))
	if strings.Contains(next.text(), "AAAA") || !strings.Contains(next.text(), recent) {
		t.Fatalf("the next request must hold the latest result (%s) and not the first (AAAA):\n%.300s", recent, next.text())
	}
	final := api.request(t, api.srv.Requests()-1)
	if strings.Contains(final.text(), "AAAA") || !strings.Contains(final.text(), "DDDD") || !strings.Contains(final.text(), "read d.txt") {
		t.Fatalf("the last request:\n%.300s", final.text())
	}
	for i := 0; i < api.srv.Requests(); i++ {
		api.request(t, i).wellFormed(t, i)
	}

	// Rebuilt from the log: what the model was last sent is what the log reads now.
	reopened, err := store.Open(h.dataDir())
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	log, _ := reopened.Log(h.session)
	rebuilt := buildHistory(log)
	rec := h.recorded()
	last := rec.Requests[len(rec.Requests)-1].Messages
	if len(rebuilt) != len(last)+1 || rebuilt[0].Text != last[0].Text || rebuilt[len(last)-1].ToolResults[0].Content != last[len(last)-1].ToolResults[0].Content {
		t.Fatalf("rebuilt %d messages, the model was last sent %d (+ its answer)", len(rebuilt), len(last))
	}

	// Forked from before the compaction: the original history, verbatim.
	fork, err := reopened.ForkSessionBefore(h.session, "", seqs[0])
	if err != nil {
		t.Fatal(err)
	}
	flog, _ := reopened.Log(fork.ID)
	forked := buildHistory(flog)
	if want := buildHistory(log[:len(flog)]); !reflect.DeepEqual(forked, want) || strings.Contains(forked[0].Text, summaryIntro) {
		t.Fatalf("the fork's history is not the original")
	}
	if !strings.Contains(forked[2].ToolResults[0].Content, "AAAA") {
		t.Fatalf("the fork lost the first file: %+v", forked[:3])
	}
}

// A turn that starts after a restart reads the summary from the log.
func TestACompactedHistorySurvivesARestart(t *testing.T) {
	h, api, prov, _ := overflowingOnTheFourth(t)
	for _, f := range []string{"a", "b", "c"} {
		h.send("read "+f+".txt", mode.FollowUpInput{})
	}
	h.send("read d.txt", mode.FollowUpInput{})
	if got, _ := compactions(t, h.st, h.session); len(got) != 1 {
		t.Fatalf("%d compactions", len(got))
	}
	before := api.srv.Requests()

	// Another store and runtime on the same folder, as after a restart of the app.
	again := newVendorHarness(t, h.dataDir(), h.workspace, prov, h.session)
	again.send("what did you read?", mode.FollowUpInput{})
	first := api.request(t, before)
	if !strings.HasPrefix(first.Messages[0].Content[0].Text, summaryIntro+"SUMMARY-1") || strings.Contains(first.text(), "AAAA") {
		t.Fatalf("after the restart the model was sent:\n%.1000s", first.text())
	}
}

// The model refusing a request the estimate let through compacts the history and sends it once
// more; refusing again fails the turn with CONTEXT_TOO_LONG.
func TestAnOverflowRefusalCompactsAndRetriesOnce(t *testing.T) {
	dataDir := t.TempDir()
	ws := t.TempDir()
	api := startClaude(t)
	prov := anthropic.New(anthropic.Options{Key: "sk-ant-test", BaseURL: api.srv.URL})
	h := newVendorHarness(t, dataDir, ws, prov, "")
	writeFiles(t, h.workspace, "a", "b")
	h.send("read a.txt", mode.FollowUpInput{})
	api.mu.Lock()
	api.refuse = 1
	api.mu.Unlock()
	h.send("read b.txt", mode.FollowUpInput{})
	turns := h.turns()
	if turns[1].Status != store.TurnDone {
		t.Fatalf("the retried turn ended %s: %s", turns[1].Status, turns[1].Error)
	}
	got, _ := compactions(t, h.st, h.session)
	if len(got) != 1 || got[0].Reason != eventlog.CompactedOverflow || got[0].Window != 200_000 {
		t.Fatalf("compactions: %+v", got)
	}
	// refused, summary, the same step again with the summary
	n := api.srv.Requests()
	var refusedAt int
	for i := 0; i < n; i++ {
		if api.isSummary(t, i) {
			refusedAt = i - 1
		}
	}
	retry := api.request(t, refusedAt+2)
	if !strings.HasPrefix(retry.Messages[0].Content[0].Text, summaryIntro) || !strings.Contains(retry.text(), "read b.txt") {
		t.Fatalf("the retry was:\n%.1000s", retry.text())
	}

	api.mu.Lock()
	api.refuse = 2
	api.mu.Unlock()
	h.send("read a.txt", mode.FollowUpInput{})
	last := h.turns()[2]
	if last.Status != store.TurnFailed || !strings.HasPrefix(last.Error, string(ContextTooLong)+":") {
		t.Fatalf("a second refusal must fail the turn with %s: %s %q", ContextTooLong, last.Status, last.Error)
	}
	ended := h.named(EventTurnEnded)
	if v := fmt.Sprintf("%+v", ended[len(ended)-1].Data); !strings.Contains(v, string(ContextTooLong)) {
		t.Fatalf("turn.ended does not name the kind: %s", v)
	}
}

// A history with nothing to cut (one message) cannot be compacted: the turn fails, typed.
func TestNothingToCompactFailsTyped(t *testing.T) {
	api := startClaude(t)
	dataDir, ws := t.TempDir(), t.TempDir()
	prov := anthropic.New(anthropic.Options{Key: "sk-ant-test", BaseURL: api.srv.URL, ContextWindow: 1000})
	h := newVendorHarness(t, dataDir, ws, prov, "")
	h.send("read x.txt", mode.FollowUpInput{})
	turn := h.turns()[0]
	if turn.Status != store.TurnFailed || !strings.HasPrefix(turn.Error, string(ContextTooLong)+":") || api.srv.Requests() != 0 {
		t.Fatalf("turn %s %q after %d requests", turn.Status, turn.Error, api.srv.Requests())
	}
}

func TestCompactionKindsHaveMessages(t *testing.T) {
	for _, m := range i18n.Missing("error."+string(ContextTooLong), "error."+string(SummaryEmpty), "error."+string(provider.ContextOverflow)) {
		t.Errorf("no message for %s", m)
	}
}

// The summary request quotes the history as text: long parts cut head and tail, parts split
// to the budget, at most maxSummaryParts of them with the first kept and the gap said.
func TestTheSummaryRequestIsBounded(t *testing.T) {
	long := strings.Repeat("x", 3*maxPart)
	msgs := []provider.Message{
		{Role: provider.RoleUser, Text: "the task"},
		{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "read", Input: json.RawMessage(`{"path":"a"}`)}}},
		{Role: provider.RoleUser, ToolResults: []provider.ToolResult{{CallID: "c1", Name: "read", Content: long, IsError: true}}},
	}
	text := renderMessage(msgs[2])
	if len(text) > maxPart+200 || !strings.Contains(text, "bytes left out") || !strings.Contains(text, "[tool error of read c1]") {
		t.Fatalf("a long result renders as %d bytes:\n%.200s", len(text), text)
	}
	var many []provider.Message
	for i := range 40 {
		many = append(many, provider.Message{Role: provider.RoleUser, Text: fmt.Sprintf("message %d %s", i, strings.Repeat("y", 400))})
	}
	parts := boundParts(splitTranscript(many, 150))
	if len(parts) != maxSummaryParts || !strings.Contains(parts[0], "message 0 ") || !strings.Contains(parts[0], "more parts") ||
		!strings.Contains(parts[len(parts)-1], "message 39 ") {
		t.Fatalf("%d parts: %.100q … %.100q", len(parts), parts[0], parts[len(parts)-1])
	}
}

// The history cut never parts a call from its result, and a rebuild of the cut from the log
// gives the same messages as the live history.
func TestACutNeverPartsACallFromItsResult(t *testing.T) {
	log := eventlog.Read([]eventlog.Entry{
		entry(1, eventlog.UserMessage{TurnID: "t", Text: "go"}),
		entry(2, eventlog.AssistantMessage{TurnID: "t", ToolCalls: []eventlog.CallRecord{{ID: "c1", Name: "read", Input: json.RawMessage(`{}`)}}}),
		entry(3, eventlog.ToolResult{TurnID: "t", CallID: "c1", Name: "read", Content: strings.Repeat("r", 4000)}),
		entry(4, eventlog.AssistantMessage{TurnID: "t", ToolCalls: []eventlog.CallRecord{{ID: "c2", Name: "read", Input: json.RawMessage(`{}`)}}}),
		entry(5, eventlog.ToolResult{TurnID: "t", CallID: "c2", Name: "read", Content: strings.Repeat("s", 400)}),
	})
	h := &history{open: map[string]string{}}
	h.walk(log)
	for keep := 0; keep < 2000; keep += 50 {
		c, ok := h.plan(keep)
		if !ok {
			t.Fatalf("keep %d: no cut", keep)
		}
		if m := h.msgs[c.At]; m.Role == provider.RoleUser && len(m.ToolResults) > 0 {
			t.Fatalf("keep %d: cut before a result", keep)
		}
	}
	c, _ := h.plan(200)
	if c.At != 3 || c.From != 1 || c.Through != 3 {
		t.Fatalf("cut %+v, want before the second call", c)
	}
	withSummary := append(log, eventlog.Read([]eventlog.Entry{entry(6, eventlog.ContextCompacted{From: c.From, Through: c.Through, Summary: "S"})})...)
	got := buildHistory(withSummary)
	if len(got) != 3 || got[0].Text != summaryIntro+"S" || got[1].ToolCalls[0].ID != "c2" || got[2].ToolResults[0].CallID != "c2" {
		t.Fatalf("after the cut: %+v", got)
	}
	h.ContextCompacted(eventlog.ContextCompacted{From: c.From, Through: c.Through, Summary: "S"})
	if !reflect.DeepEqual(h.msgs, got) {
		t.Fatal("the live history and the rebuild differ")
	}
	if _, ok := (&history{msgs: got[:1], origin: []int64{3}}).plan(0); ok {
		t.Fatal("a lone summary has nothing to cut")
	}
}
