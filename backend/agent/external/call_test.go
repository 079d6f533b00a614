package external

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMergeKeepsWhatTheFirstReportLacked(t *testing.T) {
	first := ToolCall{ID: "c", Title: "bash", Kind: "execute", Input: json.RawMessage(`{"cwd":"/ws"}`)}
	perm := ToolCall{ID: "c", Input: json.RawMessage(`{"command":"rm -rf build"}`), Locations: []string{"/ws/build"}}
	got := first.Merge(perm)
	var in map[string]string
	json.Unmarshal(got.Input, &in)
	if got.Title != "bash" || got.Kind != "execute" || in["cwd"] != "/ws" || in["command"] != "rm -rf build" || len(got.Locations) != 1 {
		t.Fatalf("merged: %+v %s", got, got.Input)
	}
	if again := got.Merge(ToolCall{Input: json.RawMessage(`{}`)}); string(again.Input) != string(got.Input) {
		t.Fatalf("an empty later input forgets nothing: %s", again.Input)
	}
}

func TestShortTitleAndDescription(t *testing.T) {
	if got := (ToolCall{Title: "Write a.go\nwith a long body"}).ShortTitle(); got != "Write a.go …" {
		t.Errorf("one line: %q", got)
	}
	if got := (ToolCall{Kind: "edit"}).ShortTitle(); got != "edit" {
		t.Errorf("the kind when untitled: %q", got)
	}
	if got := (ToolCall{Title: strings.Repeat("x", 200)}).ShortTitle(); len([]rune(got)) != titleLen {
		t.Errorf("clipped: %d", len([]rune(got)))
	}
	old := "a\nb\n"
	d := (ToolCall{Diffs: []Diff{{Path: "src/x.txt", OldText: &old, NewText: "a\nc\n"}}}).Describe()
	if !strings.Contains(d, "--- a/src/x.txt") || !strings.Contains(d, "-b") || !strings.Contains(d, "+c") {
		t.Errorf("a diff: %q", d)
	}
	if d := (ToolCall{Diffs: []Diff{{Path: "new.txt", NewText: "hi\n"}}}).Describe(); !strings.Contains(d, "--- /dev/null") || !strings.Contains(d, "+hi") {
		t.Errorf("a new file: %q", d)
	}
	none := ""
	d = (ToolCall{Diffs: []Diff{{Path: "/ws/hello.txt", OldText: &none, NewText: "hello"}}}).Describe()
	if want := "--- /dev/null\n+++ /ws/hello.txt\n@@ -0,0 +1 @@\n+hello"; d != want {
		t.Errorf("an empty old text is a new file, an absolute path stays as is:\n%s\nwant\n%s", d, want)
	}
}

func TestCommandOfEachAgentsShape(t *testing.T) {
	cases := []struct{ agent, input, want string }{
		{"opencode", `{"command":"go test ./...","description":"Run tests","cwd":"/ws"}`, "go test ./..."},
		{"claude-code-acp", `{"command":"ls -la","description":"List files"}`, "ls -la"},
		{"codex-acp argv", `{"command":["bash","-lc","rm -rf build"],"cwd":"/ws"}`, "rm -rf build"},
		{"codex-acp plain argv", `{"command":["git","status"],"workdir":"/ws"}`, "git status"},
		{"cmd", `{"cmd":"make","cwd":"/ws"}`, "make"},
		{"commands of argvs", `{"commands":[["npm","install"],["npm","test"]]}`, "npm install\nnpm test"},
		{"commands of strings", `{"commands":["a","b"]}`, "a b"},
		{"terminal/create", `{"command":"npm","args":["run","build"],"cwd":"/ws"}`, "npm run build"},
		{"none", `{"cwd":"/ws"}`, ""},
	}
	for _, c := range cases {
		if got := (ToolCall{Input: json.RawMessage(c.input)}).Command(); got != c.want {
			t.Errorf("%s: %q, want %q", c.agent, got, c.want)
		}
	}
}

func TestDescribeNeverShowsOnlyWhereACallRuns(t *testing.T) {
	c := ToolCall{Title: "bash", Kind: "execute", Input: json.RawMessage(`{"cwd":"/ws","timeout":30}`)}
	if got := c.Describe(); got != "bash" {
		t.Errorf("a call that says only where it runs: %q", got)
	}
	c.Input = json.RawMessage(`{"cwd":"/ws","pattern":"needle"}`)
	if got := c.Describe(); got != `{"pattern":"needle"}` {
		t.Errorf("what it says beyond that: %q", got)
	}
}
