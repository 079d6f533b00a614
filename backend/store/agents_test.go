package store

import (
	"reflect"
	"testing"

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
