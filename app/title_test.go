package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTitleFromTheFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"Fix the login bug":                   "Fix the login bug",
		"\n\n  Fix   the\tlogin bug \nmore":   "Fix the login bug",
		"/clear":                              "",
		"修复登录错误":                              "修复登录错误",
		strings.Repeat("word ", 20) + "final": "word word word word word word word word word word word word…",
	} {
		if got := titleFrom(in); got != want {
			t.Errorf("titleFrom(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 12: a session is titled from its first message; a title the person chose stays.
func TestSessionsAreTitledFromTheirFirstMessage(t *testing.T) {
	svc := newServices(t)
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`{"responses":[{"text":"a"},{"text":"b"},{"text":"c"}]}`), 0o600)
	svc.override, _ = newScripted(script)
	untitled, _ := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	named, _ := (&Sessions{svc}).Create(CreateSessionRequest{Title: "My title", Workspace: svc.Info.DefaultWorkspace})
	send := func(id, text string) {
		t.Helper()
		if _, err := (&Composer{svc}).Send(SendRequest{SessionID: id, Text: text}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		svc.Runtime.Wait(ctx, id)
	}
	send(untitled.ID, "Add a --verbose flag to the CLI\nand document it")
	send(untitled.ID, "Now something else")
	send(named.ID, "Fix it")
	list, _ := (&Sessions{svc}).list(t)
	titles := map[string]string{}
	for _, s := range list {
		titles[s.ID] = s.Title
	}
	if titles[untitled.ID] != "Add a --verbose flag to the CLI" || titles[named.ID] != "My title" {
		t.Fatalf("titles %v", titles)
	}
}
