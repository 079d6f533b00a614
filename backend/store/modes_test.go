package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

func ptr[T any](v T) *T { return &v }

// R-AUTH: an explicit permission stays in its session; the default applies at create time and
// only SetDefaultPermission writes it.
func TestExplicitPermissionNeverBecomesTheDefault(t *testing.T) {
	s, _ := openTemp(t)
	def, _ := s.GetDefaultPermission()
	if def.Mode != policy.Ask || def.Raw != "" {
		t.Fatalf("fresh default: %+v", def)
	}
	full, err := s.CreateSession(NewSession{Title: "a", Workspace: "/w", Permission: ptr(policy.Full)})
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := s.CreateSession(NewSession{Title: "b", Workspace: "/w"})
	if full.PermissionMode != "full" || plain.PermissionMode != "ask" {
		t.Fatalf("sessions: %q %q", full.PermissionMode, plain.PermissionMode)
	}
	if def, _ := s.GetDefaultPermission(); def.Mode != policy.Ask {
		t.Fatalf("the default moved to %q", def.Mode)
	}
	if _, err := s.SetPermission(plain.ID, policy.Auto); err != nil {
		t.Fatal(err)
	}
	if def, _ := s.GetDefaultPermission(); def.Mode != policy.Ask {
		t.Fatalf("a session change wrote the default: %q", def.Mode)
	}
	s.SetDefaultPermission(policy.Auto)
	later, _ := s.CreateSession(NewSession{Title: "c", Workspace: "/w"})
	if later.PermissionMode != "auto" {
		t.Fatalf("the default is applied at create time: %q", later.PermissionMode)
	}
}

func TestWritesRejectAnythingButCanonicalValues(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	bad := []error{
		func() error { _, err := s.SetPermission(a.ID, "bypass"); return err }(),
		func() error { return s.SetDefaultPermission("acceptEdits") }(),
		func() error { _, err := s.Configure(a.ID, mode.Preference{Interaction: "agent"}); return err }(),
		func() error {
			_, err := s.CreateSession(NewSession{Title: "x", Workspace: "/w", Permission: ptr(policy.PermissionMode("yolo"))})
			return err
		}(),
	}
	for i, err := range bad {
		if errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("write %d: want INVALID_VALUE, got %v", i, err)
		}
	}
	_, err := s.Configure(a.ID, mode.Preference{Interaction: mode.Chat, Override: mode.Plan})
	if errs.KindOf(err) != mode.ChatWithOverride {
		t.Errorf("chat with an override: %v", err)
	}
	if got, _ := s.GetSession(a.ID); got.InteractionMode != "smart" || got.PermissionMode != "ask" {
		t.Fatalf("a rejected write changed the session: %+v", got)
	}
}

func TestModeInForceIsTheFoldAndForksShareIt(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	s.Configure(a.ID, mode.Preference{Interaction: mode.Chat})
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Plan})
	st, err := s.ModeInForce(a.ID)
	if err != nil || st.Preference != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) || !st.FromLog {
		t.Fatalf("fold: %+v %v", st, err)
	}
	fork, err := s.ForkSession(a.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	forked, _ := s.ModeInForce(fork.ID)
	if forked.Preference != st.Preference || fork.Title != "a" || fork.ID == a.ID {
		t.Fatalf("fork: %+v %+v", fork, forked)
	}
	src, _ := s.Events(a.ID)
	dst, _ := s.Events(fork.ID)
	if len(src) != len(dst) || len(dst) != 3 {
		t.Fatalf("fork copied %d of %d events", len(dst), len(src))
	}
}

func TestQueueSurvivesReopen(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	chat := mode.Preference{Interaction: mode.Chat}
	if _, err := s.EnqueueMessage(a.ID, Enqueued{Switch: &chat, Message: eventlog.QueuedMessage{MessageID: "m1", Text: "later"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnqueueSwitch(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Plan}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, _ := Open(dir)
	defer s2.Close()
	got, err := s2.Queue(a.ID)
	if err != nil || got.Len() != 3 {
		t.Fatalf("queue after reopen: %d %v", got.Len(), err)
	}
	b, rest := got.Drain()
	if len(b.Switches) != 1 || b.Switches[0].Interaction != mode.Chat || b.MessageID != "m1" || rest.Len() != 1 {
		t.Fatalf("drain: %+v rest %d", b, rest.Len())
	}
}

func TestTurnsRecordTheResolvedModeAndReason(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	d := mode.Route("design a caching layer for the API")
	started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "design a caching layer for the API", Preference: mode.Default})
	if err != nil {
		t.Fatal(err)
	}
	turn := started.Turn
	if started.Decision.Mode != d.Mode || started.Workspace != "/w" {
		t.Fatalf("started %+v, want the router's %+v", started, d)
	}
	if err := s.EndTurn(turn.ID, TurnDone, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.EndTurn(turn.ID, TurnFailed, "late"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("an ended turn must not end twice: %v", err)
	}
	turns, _ := s.Turns(a.ID)
	if len(turns) != 1 || turns[0].ExecutionMode != string(d.Mode) || turns[0].ReasonKey != d.ReasonKey || turns[0].Status != TurnDone {
		t.Fatalf("turns: %+v", turns)
	}
}

// A bare "carry on" keeps the mode the session's previous turn resolved to; with no previous
// turn there is nothing to carry on, and any other message is routed afresh.
func TestCarryOnKeepsThePreviousTurnsMode(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	turn := func(prompt string) mode.Decision {
		t.Helper()
		started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: prompt, Preference: mode.Default})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.EndTurn(started.Turn.ID, TurnDone, ""); err != nil {
			t.Fatal(err)
		}
		return started.Decision
	}
	if d := turn("Carry on"); d.Mode != mode.ModeChat || d.ReasonKey != "route.reason.continue_none" {
		t.Fatalf("carry on as the first turn: %+v", d)
	}
	if d := turn("Fix the crash on startup"); d.Mode != mode.ModeDebug {
		t.Fatalf("fix: %+v", d)
	}
	if d := turn("继续"); d.Mode != mode.ModeDebug || d.ReasonKey != "route.reason.continue" {
		t.Fatalf("carry on after a debug turn: %+v", d)
	}
	if d := turn("Add a --json flag"); d.Mode != mode.ModeExecute {
		t.Fatalf("a new request is routed afresh: %+v", d)
	}
}

// The legacy database is written with raw SQL, as an old release would have left it.
func TestBootMaintenanceFoldsRetiredSpellingsOnceAndKeepsEvents(t *testing.T) {
	dir := t.TempDir()
	fresh, _ := Open(dir)
	fresh.Close()
	raw, err := sql.Open("sqlite", filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct{ id, interaction, override, permission string }{
		{"agent-execute", "agent", "", "execute"},
		{"readonly-accept", "read-only", "", "acceptEdits"},
		{"plan-bypass", "plan", "", "bypassPermissions"},
		{"chat-default", "chat", "", "default"},
		{"garbage", "yolo", "", "root"},
		{"ambiguous", "plan", "debug", "accept_edits"},
		{"canonical", "smart", "verified", "full"},
	}
	for _, r := range rows {
		if _, err := raw.Exec(`INSERT INTO sessions (id, title, workspace, interaction_mode, execution_override, permission_mode, created_at, updated_at)
			VALUES (?, ?, '/w', ?, ?, ?, '2025-01-01', '2025-01-01')`, r.id, r.id, r.interaction, r.override, r.permission); err != nil {
			t.Fatal(err)
		}
		for seq := 1; seq <= 3; seq++ {
			raw.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES (?, ?, 'note', '{}', '2025-01-01')`, r.id, seq)
		}
	}
	raw.Exec(`INSERT INTO settings (key, value, updated_at) VALUES ('chat_defaults.permission_mode', 'bypass', '2025-01-01')`)
	raw.Close()

	first, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range first.Maintenance.Changes {
		got[c.RowID+"."+c.Column] = c.Old + "->" + c.New
	}
	want := map[string]string{
		"agent-execute.interaction_mode":      "agent->smart",
		"agent-execute.permission_mode":       "execute->ask",
		"readonly-accept.interaction_mode":    "read-only->smart",
		"readonly-accept.execution_override":  "->analyze",
		"readonly-accept.permission_mode":     "acceptEdits->auto",
		"plan-bypass.interaction_mode":        "plan->smart",
		"plan-bypass.execution_override":      "->plan",
		"plan-bypass.permission_mode":         "bypassPermissions->full",
		"chat-default.permission_mode":        "default->ask",
		"ambiguous.permission_mode":           "accept_edits->auto",
		"chat_defaults.permission_mode.value": "bypass->full",
	}
	if len(got) != len(want) || first.Maintenance.Changed != len(want) {
		t.Fatalf("changes: %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %q, want %q", k, got[k], v)
		}
	}
	garbage, _ := first.GetSession("garbage")
	ambiguous, _ := first.GetSession("ambiguous")
	if garbage.InteractionMode != "yolo" || garbage.PermissionMode != "root" || ambiguous.InteractionMode != "plan" {
		t.Fatal("unknown and ambiguous values must stay as stored")
	}
	if d := garbage.Preference(); d.Recognized() || d.Preference != (mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}) {
		t.Fatalf("garbage must read as Smart · Analyze, unrecognized: %+v", d)
	}
	if p, ok := garbage.Permission(); p != policy.Ask || ok {
		t.Fatalf("garbage permission must read as ask, unrecognized: %q %v", p, ok)
	}
	first.Close()

	second, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if second.Maintenance.Changed != 0 {
		t.Fatalf("the second open changed %d values: %+v", second.Maintenance.Changed, second.Maintenance.Changes)
	}
	var events int64
	second.db.Model(&Event{}).Count(&events)
	if events != int64(3*len(rows)) {
		t.Fatalf("%d events after maintenance, want %d", events, 3*len(rows))
	}
	log, _ := second.MaintenanceLog()
	if len(log) != len(want) {
		t.Fatalf("maintenance_log has %d rows, want %d", len(log), len(want))
	}
}

func TestExportImportRoundTripAndAllOrNothing(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w", Permission: ptr(policy.Auto)})
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Plan})
	exp, err := s.ExportSession(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(exp)
	if _, err := s.ImportSession(bytes.NewReader(body)); errs.KindOf(err) != errs.AlreadyExists {
		t.Fatalf("importing over an existing id: %v", err)
	}
	s.DeleteSession(a.ID)
	back, err := s.ImportSession(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.ModeInForce(back.ID)
	if back.PermissionMode != "auto" || st.Preference.Override != mode.Plan {
		t.Fatalf("round trip: %+v %+v", back, st)
	}

	retired := strings.NewReplacer(`"interaction_mode":"smart"`, `"interaction_mode":"agent"`, `"permission_mode":"auto"`, `"permission_mode":"accept-edits"`,
		`"id":"`+a.ID+`"`, `"id":"legacy"`).Replace(string(body))
	got, err := s.ImportSession(strings.NewReader(retired))
	if err != nil || got.InteractionMode != "smart" || got.PermissionMode != "auto" {
		t.Fatalf("retired spellings must fold on import: %+v %v", got, err)
	}

	for name, doc := range map[string]string{
		"unknown permission": strings.Replace(retired, `"id":"legacy"`, `"id":"x1"`, 1) + "",
		"unknown mode":       strings.NewReplacer(`"id":"legacy"`, `"id":"x2"`, `"interaction_mode":"agent"`, `"interaction_mode":"yolo"`).Replace(retired),
		"bad event":          strings.NewReplacer(`"id":"legacy"`, `"id":"x3"`, `"type":"mode.set"`, `"type":""`).Replace(retired),
	} {
		if name == "unknown permission" {
			doc = strings.Replace(doc, `"permission_mode":"accept-edits"`, `"permission_mode":"sudo"`, 1)
		}
		if _, err := s.ImportSession(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: imported", name)
		}
	}
	list, _ := s.ListSessions()
	if len(list) != 2 {
		t.Fatalf("a rejected import left %d sessions", len(list))
	}
}
