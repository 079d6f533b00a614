package external

import (
	"agentdesk/backend/policy"
	"encoding/json"
	"reflect"
	"testing"
)

func TestGateCallsFromACPKinds(t *testing.T) {
	in := func(s string) json.RawMessage { return json.RawMessage(s) }
	for _, c := range []struct {
		name string
		call ToolCall
		want []policy.Call
	}{
		{"a read names its location", ToolCall{Kind: "read", Locations: []string{"/ws/a.go"}},
			[]policy.Call{{Kind: policy.KindRead, Path: "/ws/a.go"}}},
		{"an edit names its diff's file", ToolCall{Kind: "edit", Diffs: []Diff{{Path: "/ws/b.go"}}},
			[]policy.Call{{Kind: policy.KindEdit, Path: "/ws/b.go"}}},
		{"an edit's input path counts", ToolCall{Kind: "edit", Input: in(`{"filePath":"/ws/c.go"}`)},
			[]policy.Call{{Kind: policy.KindEdit, Path: "/ws/c.go"}}},
		{"a delete changes its file", ToolCall{Kind: "delete", Locations: []string{"/ws/old"}},
			[]policy.Call{{Kind: policy.KindWrite, Path: "/ws/old"}}},
		{"a move changes both files", ToolCall{Kind: "move", Input: in(`{"source":"/ws/a","destination":"/ws/b"}`)},
			[]policy.Call{{Kind: policy.KindWrite, Path: "/ws/a"}, {Kind: policy.KindWrite, Path: "/ws/b"}}},
		{"an execute carries its command", ToolCall{Kind: "execute", Input: in(`{"command":"go test ./..."}`)},
			[]policy.Call{{Kind: policy.KindBash, Command: "go test ./..."}}},
		{"an execute's argv is joined", ToolCall{Kind: "execute", Input: in(`{"command":["ls","-la"]}`)},
			[]policy.Call{{Kind: policy.KindBash, Command: "ls -la"}}},
		{"an execute without its command cannot be judged", ToolCall{Kind: "execute", Input: in(`{"cwd":"/ws"}`)},
			[]policy.Call{{Kind: policy.KindOther}}},
		{"a fetch reaches the network", ToolCall{Kind: "fetch", Input: in(`{"url":"https://x"}`)},
			[]policy.Call{{Kind: policy.KindFetch}}},
		{"a read without a path cannot be judged", ToolCall{Kind: "read"}, []policy.Call{{Kind: policy.KindOther}}},
		{"a search may be anything", ToolCall{Kind: "search", Locations: []string{"/ws"}}, []policy.Call{{Kind: policy.KindOther}}},
		{"think is unknown to the gate", ToolCall{Kind: "think"}, []policy.Call{{Kind: policy.KindOther}}},
		{"a missing kind is unknown", ToolCall{}, []policy.Call{{Kind: policy.KindOther}}},
		{"a kind from a later protocol is unknown", ToolCall{Kind: "teleport"}, []policy.Call{{Kind: policy.KindOther}}},
	} {
		if got := c.call.GateCalls(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestOptionMapping(t *testing.T) {
	opts := []Option{{ID: "a1", Kind: "allow_once"}, {ID: "aa", Kind: "allow_always"}, {ID: "ra", Kind: "reject_always"}}
	if got := AllowOption(opts); got != "a1" {
		t.Errorf("every allow is the agent's allow_once: %q", got)
	}
	if got := RejectOption(opts); got != "ra" {
		t.Errorf("a rejection is the nearest reject: %q", got)
	}
	if got := AllowOption(opts[1:]); got != "aa" {
		t.Errorf("an agent without allow_once gets its allow_always: %q", got)
	}
	if got := AllowOnceOption(opts[1:]); got != "" {
		t.Errorf("an allow the agent would remember is not given without asking: %q", got)
	}
	if got := RejectOption(nil); got != "" {
		t.Errorf("nothing offered, nothing chosen: %q", got)
	}
}
