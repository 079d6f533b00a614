package tool

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/display"
	"agentdesk/backend/mode"
)

// Issue 12: what the model reads stays English; the person reads the same result as a locale
// key with its arguments, standing for the part of the output the tool itself wrote.
func TestResultsSayToThePersonWhatTheySayToTheModel(t *testing.T) {
	dir := workspace(t, map[string]string{"a.txt": "one\ntwo\n"})
	env := Env{Workspace: dir}
	check := func(name string, res Result, key string, args map[string]any, head, tail int) {
		t.Helper()
		d := res.Display
		if d == nil || d.Key != key || d.Head != head || d.Tail != tail {
			t.Fatalf("%s: display %+v for %q", name, d, res.Output)
		}
		for k, v := range args {
			if d.Args[k] != v {
				t.Errorf("%s: arg %s = %v, want %v", name, k, d.Args[k], v)
			}
		}
	}
	check("write new", mustRun(t, mode.ToolWrite, env, `{"path":"b.txt","content":"hey"}`), "tool.result.write.created",
		map[string]any{"Path": "b.txt", "Bytes": 3}, 0, 0)
	check("write again", mustRun(t, mode.ToolWrite, env, `{"path":"b.txt","content":"hi"}`), "tool.result.write.replaced", nil, 0, 0)
	check("edit", mustRun(t, mode.ToolEdit, env, `{"path":"a.txt","old_string":"two","new_string":"2"}`), "tool.result.edit.done",
		map[string]any{"Line": 2}, 0, 0)
	check("glob none", mustRun(t, mode.ToolGlob, env, `{"pattern":"*.go"}`), "tool.result.glob.none", nil, 0, 0)
	check("grep none", mustRun(t, mode.ToolGrep, env, `{"pattern":"zzz"}`), "tool.result.grep.none", nil, 0, 0)
	check("read partial", mustRun(t, mode.ToolRead, env, `{"path":"a.txt","limit":1}`), "tool.result.read.partial",
		map[string]any{"From": 1, "To": 1, "Lines": 2}, 1, 0)
	if res := mustRun(t, mode.ToolRead, env, `{"path":"a.txt"}`); res.Display != nil {
		t.Fatalf("a whole file is data only: %+v", res.Display)
	}

	bash := mustRun(t, mode.ToolBash, env, `{"command":"echo hi; exit 3"}`)
	check("bash exit", bash, "tool.result.bash.exit", map[string]any{"Code": 3}, 0, 1)
	check("bash silent", mustRun(t, mode.ToolBash, env, `{"command":"true"}`), "tool.result.bash.exitNoOutput", map[string]any{"Code": 0}, 0, 2)

	ask := func(a Answer) Env {
		return Env{Ask: func(context.Context, Question) (Answer, error) { return a, nil }}
	}
	answered := mustRun(t, mode.ToolAskUser, ask(Answer{Values: []string{"Hi there"}}), `{"question":"?","options":["Hi there","Hello"]}`)
	check("answered", answered, "tool.result.ask.answered", map[string]any{"Answer": "Hi there"}, 0, 0)
	if !answered.Answered || answered.Output != "The person answered:\nHi there" {
		t.Fatalf("answered: %+v", answered)
	}
	why := display.Say("error.DECISION_TIMED_OUT")
	declined := mustRun(t, mode.ToolAskUser, ask(Answer{Declined: true, Reason: "DECISION_TIMED_OUT: x", Why: why}), `{"question":"?"}`)
	check("declined", declined, "tool.result.ask.declined", map[string]any{"Why": why}, 0, 0)
	if declined.Answered || !declined.IsError {
		t.Fatalf("a declined question is no answer: %+v", declined)
	}

	var plan string
	keep := mustRun(t, mode.ToolExitPlanMode, reviewWith(PlanReview{Feedback: "smaller steps"}, &plan), `{"plan":"# P"}`)
	check("keep planning", keep, "tool.result.plan.keepPlanning", map[string]any{"Feedback": "smaller steps"}, 0, 0)
	if !keep.IsError || !keep.Answered || keep.Output != "smaller steps" {
		t.Fatalf("keep planning is the person's answer, and a failed call to the model: %+v", keep)
	}
}

// Issue 12: an approval for a write or an edit shows the real change: the file before and after.
func TestWritesAndEditsPreviewTheirChange(t *testing.T) {
	dir := workspace(t, map[string]string{"a.go": "package a\n\nfunc A() int { return 1 }\n"})
	env := Env{Workspace: dir}
	pv := func(name mode.Tool, input string) *display.Change {
		t.Helper()
		c, err := get(t, name).(Previewer).Preview(env, []byte(input))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	edit := pv(mode.ToolEdit, `{"path":"a.go","old_string":"return 1","new_string":"return 2"}`)
	if edit == nil || edit.Created || edit.Before != "package a\n\nfunc A() int { return 1 }\n" || edit.After != "package a\n\nfunc A() int { return 2 }\n" {
		t.Fatalf("edit: %+v", edit)
	}
	created := pv(mode.ToolWrite, `{"path":"new/b.txt","content":"hi\n"}`)
	if created == nil || !created.Created || created.Before != "" || created.After != "hi\n" {
		t.Fatalf("new file: %+v", created)
	}
	replaced := pv(mode.ToolWrite, `{"path":"a.go","content":"package a\n"}`)
	if replaced == nil || replaced.Created || replaced.Before == "" {
		t.Fatalf("replace: %+v", replaced)
	}
	if none := pv(mode.ToolEdit, `{"path":"a.go","old_string":"absent","new_string":"x"}`); none != nil {
		t.Fatalf("an edit that cannot apply has no preview: %+v", none)
	}
	if bin := pv(mode.ToolWrite, `{"path":"c.bin","content":"a\u0000b"}`); bin == nil || bin.Omitted != "binary" || bin.After != "" {
		t.Fatalf("binary: %+v", bin)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(data) != "package a\n\nfunc A() int { return 1 }\n" {
		t.Fatalf("a preview changed the file: %q", data)
	}
}
