package store

import (
	"reflect"
	"testing"
	"time"

	"agentdesk/backend/errs"
)

func TestExternalAgentsSetting(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got, err := s.ExternalAgents(); err != nil || len(got) != 0 || got == nil {
		t.Fatalf("a fresh data folder lists no agents, as an empty list: %#v %v", got, err)
	}
	if err := s.SetExternalAgents([]string{" gemini --experimental-acp ", "goose acp", "goose acp"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.ExternalAgents()
	if want := []string{"gemini --experimental-acp", "goose acp"}; err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("trimmed and kept once: %#v %v", got, err)
	}
	if err := s.SetExternalAgents([]string{"ok", "  "}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("an empty command line is refused: %v", err)
	}
	if got, _ := s.ExternalAgents(); len(got) != 2 {
		t.Fatalf("a refused list changes nothing: %#v", got)
	}
}

func TestSessionExternalAgent(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.CreateSession(NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if cmd, err := s.ExternalAgent(sess.ID); err != nil || cmd != "" {
		t.Fatalf("a new session runs built in: %q %v", cmd, err)
	}
	row, err := s.SetExternalAgent(sess.ID, " goose acp ")
	if err != nil || row.ExternalAgent != "goose acp" {
		t.Fatalf("set: %+v %v", row, err)
	}
	if cmd, _ := s.ExternalAgent(sess.ID); cmd != "goose acp" {
		t.Fatalf("read back %q", cmd)
	}
	if _, err := s.SetExternalAgent("missing", "x"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a missing session: %v", err)
	}
	if _, err := s.ExternalAgent("missing"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a missing session: %v", err)
	}
}

func TestAgentSessionIsRememberedPerCommand(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sess, err := s.CreateSession(NewSession{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if id, err := s.AgentSession(sess.ID, "opencode acp"); err != nil || id != "" {
		t.Fatalf("none yet: %q %v", id, err)
	}
	if err := s.SetAgentSession(sess.ID, " opencode acp ", "ses_1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAgentSession(sess.ID, "opencode acp", "ses_2"); err != nil {
		t.Fatal(err)
	}
	if id, _ := s.AgentSession(sess.ID, "opencode acp"); id != "ses_2" {
		t.Fatalf("the latest id is kept: %q", id)
	}
	if id, _ := s.AgentSession(sess.ID, "goose acp"); id != "" {
		t.Fatalf("another agent's id is never handed out: %q", id)
	}
	s.AddAgentNote(sess.ID, "first")
	s.AddAgentNote(sess.ID, "second")
	if notes, err := s.TakeAgentNotes(sess.ID); err != nil || len(notes) != 2 || notes[1] != "second" {
		t.Fatalf("notes in order: %q %v", notes, err)
	}
	if notes, _ := s.TakeAgentNotes(sess.ID); len(notes) != 0 {
		t.Fatalf("taken once: %q", notes)
	}
	if err := s.SetAgentSession("missing", "x", "y"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a missing session: %v", err)
	}
	if err := s.DeleteSession(sess.ID); err != nil {
		t.Fatal(err)
	}
	var n int64
	s.db.Table("agent_sessions").Count(&n)
	if n != 0 {
		t.Fatalf("the id goes with its session: %d rows", n)
	}
}

func TestExternalStartTimeoutSetting(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.ExternalStartTimeout(); got != 120*time.Second {
		t.Fatalf("default: %s", got)
	}
	if d, err := s.SetExternalStartTimeout(" 3m "); err != nil || d != 3*time.Minute || s.ExternalStartTimeout() != 3*time.Minute {
		t.Fatalf("set 3m: %s %v", d, err)
	}
	for _, bad := range []string{"1s", "2h", "soon", ""} {
		if _, err := s.SetExternalStartTimeout(bad); errs.KindOf(err) != errs.InvalidValue {
			t.Fatalf("%q: %v", bad, err)
		}
	}
	if got := s.ExternalStartTimeout(); got != 3*time.Minute {
		t.Fatalf("a refused value changes nothing: %s", got)
	}
	s.SetSetting(SettingExternalStartTimeout, "garbage")
	if got := s.ExternalStartTimeout(); got != DefaultExternalStartTimeout {
		t.Fatalf("damage reads as the default: %s", got)
	}
}
