package eventlog

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

// every is one event of each type, with every field set.
var every = []Event{
	UserMessage{TurnID: "t1", Text: "hi", Steer: true},
	AssistantMessage{TurnID: "t1", Text: "ok", ToolCalls: []CallRecord{{ID: "c1", Name: "read", Input: json.RawMessage(`{"path":"a"}`)}}},
	QueuedMessage{MessageID: "m1", Text: "later", Temporary: &mode.ModeSetPayload{InteractionMode: "smart", ExecutionOverride: "plan"}},
	ToolResult{TurnID: "t1", CallID: "c1", Name: "read", Content: "x", IsError: true, Verdict: "allow", Layer: "l", Code: "C", Approved: "allow_once"},
	DirectTool{CallID: "d1", Name: "glob", Input: json.RawMessage(`{"pattern":"*"}`), Output: "a", IsError: true, Code: "X"},
	ContextCleared{},
	NewModeSet(mode.Preference{Interaction: mode.Smart, Override: mode.Debug}),
	PermissionSet{PermissionMode: "auto"},
	Checkpoint{TurnID: "t1", CallID: "c1", CheckpointID: 4, Reason: "after_tool", Files: 3, From: 3,
		Changed: []FileChange{{Path: "a.txt", Action: "modify"}}, Error: "X"},
	Restore{CheckpointID: 4, TurnID: "t1", Scope: ScopeBoth, UndoID: 5, ResultID: 6,
		Changed: []FileChange{{Path: "a.txt", Action: "delete"}}, ForkID: "f", ForkOf: "s"},
	Review{TurnID: "t1", Path: "a.txt", Action: ReviewRevert, Hunks: []int{0, 2}, Reason: "no", Patch: "@@", UndoID: 7, ResultID: 8},
	ContextCompacted{TurnID: "t1", From: 1, Through: 9, Summary: "s", TokensBefore: 900, TokensAfter: 100, Window: 1000, Reason: CompactedOverflow},
	WorktreeCopied{Files: []string{".env"}, Skipped: []SkippedFile{{Path: "a", Reason: "link"}}, LeftOver: 2},
	WorktreeSetup{Command: "npm ci", Source: SetupFromRepository, ExitCode: 1, Output: "tail", DurationMS: 5, TimedOut: true},
}

func TestEveryTypeRoundTrips(t *testing.T) {
	var types []string
	for _, e := range every {
		raw, err := Encode(e)
		if err != nil {
			t.Fatal(err)
		}
		got := Decode(7, e.LogType(), raw)
		if !reflect.DeepEqual(got, e) {
			t.Errorf("%s: decoded %#v, want %#v", e.LogType(), got, e)
		}
		types = append(types, e.LogType())
	}
	slices.Sort(types)
	want := slices.Sorted(slices.Values(Types))
	if !slices.Equal(types, want) {
		t.Fatalf("the test covers %v, the log has %v", types, want)
	}
	for _, typ := range Types {
		if _, ok := decoders[typ]; !ok {
			t.Errorf("%s has no decoder", typ)
		}
	}
	if len(decoders) != len(Types) {
		t.Fatalf("%d decoders for %d types", len(decoders), len(Types))
	}
}

// Payloads as earlier releases stored them still read: DirectTool kept the camelCase of the
// DTO it used to be, with its sessionId.
func TestStoredShapesOfEarlierReleasesRead(t *testing.T) {
	got := Decode(3, TypeDirectTool, []byte(`{"sessionId":"s","callId":"d","name":"read","input":{},"output":"o","isError":false}`))
	if d, ok := got.(DirectTool); !ok || d.CallID != "d" || d.Output != "o" {
		t.Fatalf("got %#v", got)
	}
	q := Decode(4, TypeQueuedMessage, []byte(`{"message_id":"m","text":"x","temporary":{"interaction_mode":"read-only","execution_override":""}}`))
	if p := q.(QueuedMessage).TemporaryPreference(); p == nil || *p != (mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}) {
		t.Fatalf("a retired temporary spelling must fold: %#v", p)
	}
}

func TestWhatCannotBeReadIsUnreadableNamingWhy(t *testing.T) {
	cases := []struct{ typ, raw, why string }{
		{TypeUserMessage, `{"turn_id":`, "unexpected end"},
		{TypeUserMessage, `null`, "not a JSON object"},
		{TypeUserMessage, `"hello"`, "not a JSON object"},
		{TypeUserMessage, `{"text":"no turn"}`, "turn_id is missing"},
		{TypeUserMessage, `{"turn_id":"t","text":5}`, "cannot unmarshal number"},
		{TypeAssistantMessage, `{"turn_id":"t","tool_calls":[{"name":"read"}]}`, "tool_calls[0]"},
		{TypeToolResult, `{"turn_id":"t"}`, "call_id is missing"},
		{TypeQueuedMessage, `{"text":"x"}`, "message_id is missing"},
		{TypeDirectTool, `{"callId":"d"}`, "name is missing"},
		{TypePermissionSet, `{}`, "permission_mode is missing"},
		{TypeCheckpoint, `{"reason":"turn"}`, "checkpoint_id or error is missing"},
		{TypeCheckpoint, `{"checkpoint_id":1}`, "reason is missing"},
		{TypeRestore, `{"checkpoint_id":1,"scope":"all"}`, "scope must be"},
		{TypeRestore, `{"scope":"files"}`, "checkpoint_id is missing"},
		{TypeReview, `{"turn_id":"t","path":"a","action":"keep"}`, "action must be"},
		{TypeReview, `{"turn_id":"t","action":"accept"}`, "path is missing"},
		{TypeModeSet, `[1]`, "not a JSON object"},
		{TypeContextCompacted, `{"from":1,"through":4}`, "summary is missing"},
		{TypeContextCompacted, `{"from":5,"through":4,"summary":"s"}`, "must name a range"},
		{TypeContextCompacted, `{"summary":"s"}`, "must name a range"},
		{"note", `{}`, `unknown event type "note"`},
	}
	for _, c := range cases {
		got := Decode(42, c.typ, []byte(c.raw))
		u, ok := got.(Unreadable)
		if !ok || u.Seq != 42 || u.Type != c.typ || !strings.Contains(u.Reason, c.why) {
			t.Errorf("%s %s: got %#v, want Unreadable naming %q", c.typ, c.raw, got, c.why)
		}
		if err := Check(c.typ, []byte(c.raw)); err == nil {
			t.Errorf("%s %s: Check passed", c.typ, c.raw)
		}
	}
}

// recorder is a Visitor that writes down what it was handed.
type recorder struct{ seen []string }

func (r *recorder) UserMessage(m UserMessage)           { r.seen = append(r.seen, "user:"+m.Text) }
func (r *recorder) AssistantMessage(m AssistantMessage) { r.seen = append(r.seen, "assistant:"+m.Text) }
func (r *recorder) QueuedMessage(m QueuedMessage)       { r.seen = append(r.seen, "queued:"+m.MessageID) }
func (r *recorder) ToolResult(m ToolResult)             { r.seen = append(r.seen, "result:"+m.CallID) }
func (r *recorder) DirectTool(m DirectTool)             { r.seen = append(r.seen, "direct:"+m.CallID) }
func (r *recorder) ContextCleared(ContextCleared)       { r.seen = append(r.seen, "cleared") }
func (r *recorder) ModeSet(m ModeSet)                   { r.seen = append(r.seen, "mode:"+m.ExecutionOverride) }
func (r *recorder) PermissionSet(m PermissionSet)       { r.seen = append(r.seen, "perm:"+m.PermissionMode) }
func (r *recorder) Checkpoint(m Checkpoint)             { r.seen = append(r.seen, "checkpoint:"+m.Reason) }
func (r *recorder) Restore(m Restore)                   { r.seen = append(r.seen, "restore:"+m.Scope) }
func (r *recorder) Review(m Review)                     { r.seen = append(r.seen, "review:"+m.Action) }
func (r *recorder) Unreadable(u Unreadable)             { r.seen = append(r.seen, "unreadable:"+u.Type) }
func (r *recorder) WorktreeCopied(m WorktreeCopied)     { r.seen = append(r.seen, "copied:"+m.Files[0]) }
func (r *recorder) WorktreeSetup(m WorktreeSetup)       { r.seen = append(r.seen, "setup:"+m.Command) }
func (r *recorder) ContextCompacted(m ContextCompacted) {
	r.seen = append(r.seen, fmt.Sprintf("compacted:%d-%d", m.From, m.Through))
}

func TestWalkHandsEveryEntryInOrderIncludingTheUnreadable(t *testing.T) {
	var entries []Entry
	for i, e := range every {
		raw, _ := Encode(e)
		entries = append(entries, Entry{Seq: int64(i + 1), Type: e.LogType(), Payload: raw})
	}
	entries = append(entries, Entry{Seq: 99, Type: TypeToolResult, Payload: []byte("{broken")})
	var r recorder
	log := Read(entries)
	Walk(log, &r)
	want := []string{"user:hi", "assistant:ok", "queued:m1", "result:c1", "direct:d1", "cleared", "mode:debug", "perm:auto",
		"checkpoint:after_tool", "restore:both", "review:revert", "compacted:1-9", "copied:.env", "setup:npm ci",
		"unreadable:tool.result"}
	if !slices.Equal(r.seen, want) {
		t.Fatalf("walked %v, want %v", r.seen, want)
	}
	if p := Problems(log); len(p) != 1 || p[0].Seq != 99 {
		t.Fatalf("problems: %+v", p)
	}
}

// The mode in force is folded by FoldModes over the mode.set entries (R-PLAN-1), each read by
// this package's decoder: a readable one as its preference, retired spellings folded and unknown
// values failing closed; one the decoder marks unreadable as the read-only surface, reporting the
// whole payload, never skipped.
func TestModeSetReadsAsTheModeFoldReadsIt(t *testing.T) {
	analyze := mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}
	cases := []struct {
		raw          string
		want         mode.Preference
		unrecognized string // the field reported, "" for none
	}{
		{`{"interaction_mode":"smart","execution_override":"plan"}`, mode.Preference{Interaction: mode.Smart, Override: mode.Plan}, ""},
		{`{"interaction_mode":"chat"}`, mode.Preference{Interaction: mode.Chat}, ""},
		{`{"interaction_mode":"read-only"}`, analyze, ""},
		{`{"interaction_mode":"yolo"}`, analyze, "interaction_mode"},
		{`{"interaction_mode":"chat","execution_override":"debug"}`, mode.Preference{Interaction: mode.Chat}, "execution_override"},
		{`{}`, analyze, "interaction_mode"},
		{`{"interaction_mode":`, analyze, "payload"},
		{`{"interaction_mode":7}`, analyze, "payload"},
	}
	for _, c := range cases {
		_, unreadable := Decode(1, TypeModeSet, []byte(c.raw)).(Unreadable)
		got := ReadModeSet([]byte(c.raw))
		field := ""
		if len(got.Unrecognized) > 0 {
			field = got.Unrecognized[0].Field
		}
		if got.Preference != c.want || field != c.unrecognized || unreadable != (field == "payload") {
			t.Errorf("%s: read %+v (unreadable in the log: %v)", c.raw, got, unreadable)
		}
	}
}
