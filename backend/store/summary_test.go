package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

// foldedFromLog is the mode in force as the fold of the whole log reads it: what the row's
// summary must always agree with.
func foldedFromLog(t *testing.T, s *Store, id string) mode.State {
	t.Helper()
	sess, err := s.GetSession(id)
	if err != nil {
		t.Fatal(err)
	}
	// The last mode.set entry wins outright, so the fold is the one found scanning back.
	evs, _ := s.Events(id)
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Type == eventlog.TypeModeSet {
			return eventlog.ModeInForce(sess.Preference().Preference, []byte(evs[i].Payload))
		}
	}
	return eventlog.ModeInForce(sess.Preference().Preference, nil)
}

func agreesWithLog(t *testing.T, s *Store, id, when string) mode.State {
	t.Helper()
	got, err := s.ModeInForce(id)
	if err != nil {
		t.Fatal(err)
	}
	if want := foldedFromLog(t, s, id); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%s: the row says %+v, the log folds to %+v", when, got, want)
	}
	return got
}

// The summaries in the session row change in the same unit of work as the event or turn that
// changes them, through every write path: so reading them is reading the log.
func TestTheRowSummarizesItsLogThroughEveryWritePath(t *testing.T) {
	s, _ := openTemp(t)
	plan := mode.Preference{Interaction: mode.Smart, Override: mode.Plan}
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	agreesWithLog(t, s, a.ID, "created")
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Debug})
	agreesWithLog(t, s, a.ID, "configured")
	started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "p", Preference: plan, Save: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := agreesWithLog(t, s, a.ID, "turn saved plan"); st.Preference != plan {
		t.Fatalf("in force %+v", st.Preference)
	}
	if row, _ := s.GetSession(a.ID); row.RunningTurn != started.Turn.ID {
		t.Fatalf("running turn %q, want %q", row.RunningTurn, started.Turn.ID)
	}
	fork, _ := s.ForkSession(a.ID, "")
	if fork.RunningTurn != "" {
		t.Fatalf("a fork runs none of its source's turns: %q", fork.RunningTurn)
	}
	agreesWithLog(t, s, fork.ID, "forked")
	s.LeavePlan(a.ID)
	agreesWithLog(t, s, a.ID, "left plan")
	if err := s.EndTurn(started.Turn.ID, TurnDone, ""); err != nil {
		t.Fatal(err)
	}
	if row, _ := s.GetSession(a.ID); row.RunningTurn != "" {
		t.Fatalf("an ended turn still runs: %q", row.RunningTurn)
	}
	before, err := s.ForkSessionBefore(a.ID, "", 3)
	if err != nil {
		t.Fatal(err)
	}
	agreesWithLog(t, s, before.ID, "forked before")

	exp, _ := s.ExportSession(a.ID)
	s.DeleteSession(a.ID)
	back, err := s.ImportExport(exp)
	if err != nil {
		t.Fatal(err)
	}
	agreesWithLog(t, s, back.ID, "imported")

	// A turn whose process is gone is interrupted at the next start, and its session runs none.
	dead, _ := s.StartTurn(TurnStart{SessionID: back.ID, Prompt: "p", Preference: mode.Default})
	s.db.Exec("UPDATE turns SET owner = '' WHERE id = ?", dead.Turn.ID)
	if n, _, err := s.InterruptUnfinished(); err != nil || n != 1 {
		t.Fatalf("interrupted %d, %v", n, err)
	}
	if row, _ := s.GetSession(back.ID); row.RunningTurn != "" {
		t.Fatalf("an interrupted turn still runs: %q", row.RunningTurn)
	}
}

// A mode.set that cannot be read decides the mode in force as the read-only surface, from the
// row exactly as from the log.
func TestAnUnreadableLastModeSetReadsFailClosedFromTheRow(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:8], nil)
	if err != nil {
		t.Fatal(err)
	}
	now := "2025-01-01 00:00:00+00:00"
	for _, id := range []string{"bad", "empty", "none", "running"} {
		old.db.Exec(`INSERT INTO sessions (id, title, workspace, interaction_mode, created_at, updated_at) VALUES (?, ?, '/w', 'smart', ?, ?)`, id, id, now, now)
	}
	old.db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES ('bad', 1, 'mode.set', '{"interaction_mode":"chat"}', ?)`, now)
	old.db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES ('bad', 2, 'mode.set', '{"interaction_mode":"yolo"}', ?)`, now)
	old.db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES ('empty', 1, 'mode.set', '', ?)`, now)
	old.db.Exec(`INSERT INTO turns (id, session_id, seq, prompt, interaction_mode, execution_override, execution_mode, reason_key, status, created_at)
		VALUES ('t1', 'running', 1, 'p', 'smart', '', 'execute', 'k', 'running', ?)`, now)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"bad", "empty"} {
		st := agreesWithLog(t, s, id, id)
		if st.Preference.Override != mode.Analyze || len(st.Unrecognized) == 0 {
			t.Fatalf("%s: an unreadable switch must read as the read-only surface: %+v", id, st)
		}
	}
	if st := agreesWithLog(t, s, "none", "none"); st.FromLog {
		t.Fatalf("no mode.set: the columns stand: %+v", st)
	}
	if row, _ := s.GetSession("running"); row.RunningTurn != "t1" {
		t.Fatalf("the migration fills the running turn: %q", row.RunningTurn)
	}
}

// The list pages by keyset: every session once, in order, whatever the page size; a session
// that becomes active meanwhile moves to the top without shifting the pages after the cursor.
func TestSessionPagesCoverTheListOnceInOrder(t *testing.T) {
	s, _ := openTemp(t)
	var ids []string
	for i := 0; i < 7; i++ {
		v, _ := s.CreateSession(NewSession{Title: fmt.Sprint(i), Workspace: "/w"})
		ids = append(ids, v.ID)
	}
	all, _ := s.ListSessions()
	first, err := s.SessionsPage(SessionRange{Limit: 3})
	if err != nil || len(first.Sessions) != 3 || first.Next == "" {
		t.Fatalf("first page %+v %v", first, err)
	}
	s.AppendStep(first.Sessions[0].ID, eventlog.ContextCleared{}) // already seen: no effect on what follows
	s.AppendStep(all[5].ID, eventlog.ContextCleared{})            // not seen yet: moves above the cursor
	var seen []string
	for _, v := range first.Sessions {
		seen = append(seen, v.ID)
	}
	// A page row holds every column of the session, as GetSession reads it (a column added to
	// Session and not to the page's scan fails here).
	s.StartTurn(TurnStart{SessionID: first.Sessions[1].ID, Prompt: "p", Preference: mode.Default})
	again, _ := s.SessionsPage(SessionRange{Limit: 3})
	for _, v := range again.Sessions {
		if got, _ := s.GetSession(v.ID); !reflect.DeepEqual(got, v) {
			t.Fatalf("a page row differs from the session:\n%+v\n%+v", v, got)
		}
	}
	if reflect.TypeFor[Session]().NumField() != 13 {
		t.Fatalf("Session has %d fields: read the new ones in scanSessions, then update this count", reflect.TypeFor[Session]().NumField())
	}
	for next := first.Next; next != ""; {
		p, err := s.SessionsPage(SessionRange{Limit: 3, After: next})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range p.Sessions {
			seen = append(seen, v.ID)
		}
		next = p.Next
	}
	want := []string{all[0].ID, all[1].ID, all[2].ID, all[3].ID, all[4].ID, all[6].ID}
	if strings.Join(seen, ",") != strings.Join(want, ",") {
		t.Fatalf("pages %v, want %v", seen, want)
	}
	for _, bad := range []string{"x", "2025-01-01T00:00:00Z~", "yesterday~" + ids[0]} {
		if _, err := s.SessionsPage(SessionRange{Limit: 3, After: bad}); errs.KindOf(err) != InvalidCursor {
			t.Errorf("cursor %q: %v", bad, err)
		}
	}
	if _, err := s.SessionsPage(SessionRange{Limit: 0}); errs.KindOf(err) != errs.InvalidValue {
		t.Errorf("limit 0: %v", err)
	}
	other, _ := s.CreateSession(NewSession{Title: "o", Workspace: "/other"})
	if p, _ := s.SessionsPage(SessionRange{Limit: 10, Workspace: "/other"}); len(p.Sessions) != 1 || p.Sessions[0].ID != other.ID {
		t.Fatalf("one folder's sessions: %+v", p.Sessions)
	}
}

// A page of the log is read by keyset on the event number, backwards from the newest or forwards
// after a known entry; a call's result recorded after the page is found by its type.
func TestLogPagesAndLaterResults(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	var steps []eventlog.Event
	for i := 0; i < 9; i++ {
		steps = append(steps, eventlog.AssistantMessage{TurnID: "t", ToolCalls: []eventlog.CallRecord{{ID: fmt.Sprint("c", i), Name: "read", Input: json.RawMessage(`{}`)}}},
			eventlog.ToolResult{TurnID: "t", CallID: fmt.Sprint("c", i), Name: "read", Content: fmt.Sprint("r", i)})
	}
	if _, err := s.AppendSteps(a.ID, steps...); err != nil {
		t.Fatal(err)
	}
	last, _ := s.LogPage(a.ID, LogRange{Limit: 4})
	if len(last.Records) != 4 || last.Records[0].Seq != 16 || last.Records[3].Seq != 19 || !last.More {
		t.Fatalf("newest page %+v", last)
	}
	older, _ := s.LogPage(a.ID, LogRange{Limit: 100, Before: 16})
	if len(older.Records) != 15 || older.Records[0].Seq != 1 || older.More {
		t.Fatalf("older page: %d records from %d, more %v", len(older.Records), older.Records[0].Seq, older.More)
	}
	after, _ := s.LogPage(a.ID, LogRange{Limit: 2, After: 16})
	if len(after.Records) != 2 || after.Records[0].Seq != 17 || !after.More {
		t.Fatalf("page after %+v", after)
	}
	got, err := s.ResultsAfter(a.ID, 2, map[string]bool{"c5": true, "c8": true, "nope": true}, 100)
	if err != nil || len(got) != 2 || got[0].Content != "r5" || got[1].Content != "r8" {
		t.Fatalf("later results %+v %v", got, err)
	}
	if _, err := s.LogPage("missing", LogRange{Limit: 4}); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing session: %v", err)
	}
}

// The export is written as a stream and reads back byte for byte as json.Encoder would have
// written the whole document; a session of any size comes back (one INSERT of every event
// failed at 6,554 with "too many SQL variables").
func TestExportStreamsAndAnySizeImportsBack(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "big", Workspace: "/w"})
	batch := make([]eventlog.Event, 1000)
	for i := range batch {
		batch[i] = eventlog.AssistantMessage{TurnID: "t", Text: fmt.Sprint("step ", i)}
	}
	for i := 0; i < 10; i++ {
		if _, err := s.AppendSteps(a.ID, batch...); err != nil {
			t.Fatal(err)
		}
	}
	started, _ := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "p", Preference: mode.Default})
	s.EndTurn(started.Turn.ID, TurnDone, "")
	var streamed bytes.Buffer
	if err := s.ExportTo(&streamed, a.ID); err != nil {
		t.Fatal(err)
	}
	exp, err := ParseExport(streamed.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	enc := json.NewEncoder(&whole)
	enc.SetIndent("", "  ")
	enc.Encode(exp)
	if streamed.String() != whole.String() {
		t.Fatalf("the streamed export differs from the whole document (%d vs %d bytes)", streamed.Len(), whole.Len())
	}
	if len(exp.Events) != 10_002 {
		t.Fatalf("exported %d events", len(exp.Events))
	}
	s.DeleteSession(a.ID)
	back, err := s.ImportSession(bytes.NewReader(streamed.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if back.EventSeq != 10_002 || back.TurnSeq != 1 {
		t.Fatalf("counters %d %d", back.EventSeq, back.TurnSeq)
	}
	again, _ := s.ExportSession(back.ID)
	if len(again.Events) != len(exp.Events) || again.Events[9000].Seq != 9001 || string(again.Events[9000].Payload) != string(exp.Events[9000].Payload) {
		t.Fatal("the imported log differs from the exported one")
	}
	agreesWithLog(t, s, back.ID, "imported")
}

// A bad value deep in a streamed file refuses the whole import and names where it is.
func TestAStreamedImportIsAllOrNothing(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	batch := make([]eventlog.Event, 700)
	for i := range batch {
		batch[i] = eventlog.ContextCleared{}
	}
	s.AppendSteps(a.ID, batch...)
	var buf bytes.Buffer
	s.ExportTo(&buf, a.ID)
	s.DeleteSession(a.ID)
	body := buf.String()
	at := strings.LastIndex(body, `"type": "context.cleared"`)
	bad := body[:at] + `"type": "shell.exec"` + body[at+len(`"type": "context.cleared"`):]
	_, err := s.ImportSession(strings.NewReader(bad))
	if e := errs.As(err); e.Kind != errs.InvalidValue || e.Args["Field"] != "events[700].type" {
		t.Fatalf("a bad last event: %v", err)
	}
	for name, doc := range map[string]string{
		"truncated":     body[:len(body)/2],
		"trailing data": body + "{}",
		"no session":    `{"format":"agentdesk.session.v1","events":[]}`,
		"wrong format":  strings.Replace(body, ExportFormat, "agentdesk.session.v0", 1),
	} {
		if _, err := s.ImportSession(strings.NewReader(doc)); err == nil {
			t.Errorf("%s: imported", name)
		}
	}
	if n := sessionCount(t, s); n != 0 {
		t.Fatalf("refused imports left %d sessions", n)
	}
}
