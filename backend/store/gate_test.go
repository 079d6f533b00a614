package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// The gate's one read gives what the three separate reads give: the session's permission as
// Session.Permission folds it, every rule in list order (a damaged effect still reads as deny),
// and the session's own grants in order, none of another session's.
func TestGateInputsReadWhatTheGateNeeds(t *testing.T) {
	s, _ := openTemp(t)
	a, b := newSession(t, s, "a"), newSession(t, s, "b")
	if _, err := s.SetPermission(a.ID, policy.Auto); err != nil {
		t.Fatal(err)
	}
	for _, r := range []policy.Rule{{Effect: policy.Deny, Path: "secrets/**"}, {Effect: policy.Allow, Kind: policy.KindBash,
		Command: "make"}, {Effect: policy.Deny, Kind: policy.KindBash, Command: "rm *"}} {
		if _, err := s.AddRule(r, "settings"); err != nil {
			t.Fatal(err)
		}
	}
	rows, _ := s.Rules()
	s.db.Exec("UPDATE rules SET effect = 'Allow' WHERE id = ?", rows[2].ID) // damaged: must read as deny
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindWrite, Path: "src/**"})
	s.AddGrant(b.ID, policy.Grant{Kind: policy.KindBash, Command: "npm test"})
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindBash, Command: "go test ./..."})

	in, err := s.GateInputs(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	rules, _ := s.PolicyRules()
	grants, _ := s.Grants(a.ID)
	if in.Permission != policy.Auto || !slices.Equal(in.Rules, rules) || !slices.Equal(in.Grants, grants) {
		t.Fatalf("gate inputs %+v\nwant permission auto, rules %+v, grants %+v", in, rules, grants)
	}
	if len(in.Rules) != 3 || in.Rules[2].Effect != policy.Deny || len(in.Grants) != 2 || in.Grants[1].Command != "go test ./..." {
		t.Fatalf("gate inputs %+v", in)
	}
	if in, _ := s.GateInputs(b.ID); len(in.Grants) != 1 || in.Grants[0].Command != "npm test" || in.Permission != policy.Ask {
		t.Fatalf("inputs of b: %+v", in)
	}
}

// An unknown stored permission reads as ask, as everywhere; a missing session is NOT_FOUND.
func TestGateInputsFailClosed(t *testing.T) {
	s, _ := openTemp(t)
	a := newSession(t, s, "a")
	s.db.Exec("UPDATE sessions SET permission_mode = 'yolo' WHERE id = ?", a.ID)
	if in, err := s.GateInputs(a.ID); err != nil || in.Permission != policy.Ask {
		t.Fatalf("unknown permission: %+v %v", in, err)
	}
	if _, err := s.GateInputs("missing"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing session: %v", err)
	}
}

// A cached read of the gate's inputs answers as a fresh read after every kind of change to
// them, whoever makes it (this store, another process on the folder, a hand-written
// statement), and reads them again only then: appending to the log, as every call does,
// changes nothing the gate reads and costs no read.
func TestGateCacheSeesEveryChangeAtTheNextCall(t *testing.T) {
	s, dir := openTemp(t)
	other, err := Open(dir) // another process on the same folder
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	a, b := newSession(t, s, "a"), newSession(t, s, "b")
	var c GateCache
	check := func(when string, reread bool) {
		t.Helper()
		before := c.reads
		got, err := s.GateInputsCached(&c, a.ID)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		want, _ := s.GateInputs(a.ID)
		if got.Permission != want.Permission || !slices.Equal(got.Rules, want.Rules) || !slices.Equal(got.Grants, want.Grants) {
			t.Fatalf("%s: cached %+v, fresh %+v", when, got, want)
		}
		if read := c.reads > before; read != reread {
			t.Fatalf("%s: read again %v, want %v", when, read, reread)
		}
	}
	check("first call", true)
	check("nothing changed", false)
	s.AppendSteps(a.ID, eventlog.ToolResult{TurnID: "t", CallID: "c", Name: "read", Content: "x"})
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Debug})
	check("an appended event and a mode change", false)

	rule, err := s.AddRule(policy.Rule{Effect: policy.Deny, Path: "secrets/**"}, "settings")
	if err != nil {
		t.Fatal(err)
	}
	check("a rule added here", true)
	other.db.Exec("UPDATE rules SET effect = 'allow' WHERE id = ?", rule.ID)
	check("a rule changed by hand in another process", true)
	if err := other.DeleteRule(rule.ID); err != nil {
		t.Fatal(err)
	}
	check("a rule deleted by another process", true)
	if _, err := other.SetPermission(a.ID, policy.Auto); err != nil {
		t.Fatal(err)
	}
	check("the permission set by another process", true)
	other.db.Exec("UPDATE sessions SET permission_mode = 'yolo' WHERE id = ?", a.ID)
	check("the permission damaged by hand", true)
	other.AddGrant(a.ID, policy.Grant{Kind: policy.KindBash, Command: "make"})
	check("a grant added by another process", true)
	other.db.Exec("UPDATE grants SET command = 'rm -rf /' WHERE session_id = ?", a.ID)
	check("a grant changed by hand", true)
	other.db.Exec("DELETE FROM grants WHERE session_id = ?", a.ID)
	check("a grant deleted by hand", true)
	other.AddGrant(b.ID, policy.Grant{Kind: policy.KindBash, Command: "make"})
	check("another session's grant (read again, to the same answer)", true)

	if in, _ := s.GateInputsCached(&c, b.ID); len(in.Grants) != 1 {
		t.Fatalf("the cache of a answered for b: %+v", in)
	}
	if err := other.DeleteSession(a.ID); err != nil {
		t.Fatal(err)
	}
	s.GateInputsCached(&c, a.ID)
	if _, err := s.GateInputsCached(&c, a.ID); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a session deleted by another process: %v", err)
	}
}

// An existing folder moves to the gate's change counter with its data: sessions, events,
// rules and grants read as before, and a change made after the move moves the counter.
func TestTheGateCounterMigrationKeepsTheData(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:10], nil)
	if err != nil {
		t.Fatal(err)
	}
	a := newSession(t, old, "a")
	old.AppendSteps(a.ID, eventlog.ToolResult{TurnID: "t", CallID: "c", Name: "read", Content: "x"})
	insertOldRuleAndGrant(t, old, a.ID)
	old.SetPermission(a.ID, policy.Auto)
	events, _ := old.Events(a.ID)
	rules, _ := old.PolicyRules()
	grants, _ := old.Grants(a.ID)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated.From != 10 || s.Migrated.To != SupportedSchema() || s.Migrated.Backup == "" {
		t.Fatalf("migrated %+v", s.Migrated)
	}
	after, err := s.GateInputs(a.ID)
	if err != nil || after.Permission != policy.Auto || len(rules) != 1 || !slices.Equal(after.Rules, rules) ||
		len(grants) != 1 || !slices.Equal(after.Grants, grants) {
		t.Fatalf("after the move %+v %v, before %+v %+v", after, err, rules, grants)
	}
	if evs, _ := s.Events(a.ID); len(evs) != 3 || !slices.Equal(evs, events) {
		t.Fatalf("events %+v, before %+v", evs, events)
	}
	var c GateCache
	s.GateInputsCached(&c, a.ID)
	s.AddRule(policy.Rule{Effect: policy.Deny, Path: "*.key"}, "settings")
	if in, _ := s.GateInputsCached(&c, a.ID); len(in.Rules) != 2 || c.reads != 2 {
		t.Fatalf("a rule added after the move: %+v (%d reads)", in, c.reads)
	}
}

// A folder of events numbered with AUTOINCREMENT moves to plain row ids with every event as it
// was (row id, session, number, type, payload, time); the log stays append-only and goes with
// its session; a new event is numbered after the last one, in its log and in the table, also
// after the newest rows were deleted; and the file is sound.
func TestEventsRenumberedWithoutAutoincrementKeepTheirLogs(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:11], nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := newSession(t, old, "a"), newSession(t, old, "b")
	for i := range 3 {
		old.AppendSteps(a.ID, eventlog.ToolResult{TurnID: "t", CallID: fmt.Sprint("c", i), Name: "read", Content: "x"})
		old.AppendSteps(b.ID, eventlog.ToolResult{TurnID: "t", CallID: fmt.Sprint("c", i), Name: "read", Content: "y"})
	}
	var before []Event
	old.db.Order("id").Find(&before)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var after []Event
	s.db.Order("id").Find(&after)
	if len(after) != 8 || !slices.Equal(after, before) {
		t.Fatalf("events after the move %+v\nbefore %+v", after, before)
	}
	var ddl string
	s.db.Raw("SELECT sql FROM sqlite_schema WHERE name = 'events'").Scan(&ddl)
	var sequences int64
	s.db.Raw("SELECT count(*) FROM sqlite_sequence WHERE name = 'events'").Scan(&sequences)
	if strings.Contains(ddl, "AUTOINCREMENT") || sequences != 0 {
		t.Fatalf("still numbered by AUTOINCREMENT: %s (%d)", ddl, sequences)
	}
	if err := s.db.Exec("UPDATE events SET payload = '{}' WHERE session_id = ?", a.ID).Error; err == nil {
		t.Fatal("the log must stay append-only")
	}
	if err := s.DeleteSession(b.ID); err != nil { // b holds the newest rows
		t.Fatal(err)
	}
	var largest int64
	s.db.Raw("SELECT max(id) FROM events").Scan(&largest)
	if evs, _ := s.Events(b.ID); len(evs) != 0 {
		t.Fatalf("b's events outlived it: %d", len(evs))
	}
	evs, err := s.AppendSteps(a.ID, eventlog.ToolResult{TurnID: "t", CallID: "c9", Name: "read", Content: "z"})
	if err != nil || evs[0].Seq != 5 {
		t.Fatalf("appended %+v %v", evs, err)
	}
	var newest Event
	s.db.Order("id DESC").First(&newest)
	if newest.SessionID != a.ID || newest.Seq != 5 || newest.ID <= largest {
		t.Fatalf("the new event %+v is not the newest row (largest id before it %d)", newest, largest)
	}
	s.db.Raw("SELECT count(*) FROM sqlite_sequence WHERE name = 'events'").Scan(&sequences)
	if sequences != 0 {
		t.Fatal("an append after the move still counted in sqlite_sequence: a connection kept the old definition")
	}
	if log, _ := s.Log(a.ID); len(log) != 5 {
		t.Fatalf("a's log reads %d entries", len(log))
	}
	if problems, err := s.IntegrityCheck(context.Background()); err != nil || len(problems) > 0 {
		t.Fatalf("integrity %v %v", problems, err)
	}
}
