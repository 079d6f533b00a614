package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

// rawConn opens a second connection to the store's file with no busy timeout, so a lock held
// by the store shows at once as SQLITE_BUSY.
func rawConn(t *testing.T, dir, params string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName)+"?_pragma=busy_timeout(0)"+params)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// The store's transactions take the write lock at BEGIN, before any statement: a transaction
// that has run nothing yet already keeps every other writer out. A deferred BEGIN (SQLite's
// default) would not, which is how a read-then-write transaction fails half way.
func TestEveryTransactionTakesTheWriteLockAtBegin(t *testing.T) {
	s, dir := openTemp(t)
	sqlDB, _ := s.db.DB()
	tx, err := sqlDB.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	other := rawConn(t, dir, "")
	_, err = other.Exec("BEGIN IMMEDIATE")
	if !isBusy(err) {
		t.Fatalf("another writer began while the store's empty transaction was open: %v", err)
	}
	if _, err := other.Exec("INSERT INTO settings(key, value, updated_at) VALUES ('k', 'v', '2025-01-01')"); !isBusy(err) {
		t.Fatalf("another connection wrote while the store's transaction was open: %v", err)
	}
	tx.Rollback()
	if _, err := other.Exec("BEGIN IMMEDIATE; ROLLBACK"); err != nil {
		t.Fatalf("after the rollback the lock is free: %v", err)
	}

	// The contrast: a deferred transaction that has run nothing holds no lock.
	deferred := rawConn(t, dir, "&_txlock=deferred")
	dtx, err := deferred.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer dtx.Rollback()
	if _, err := other.Exec("BEGIN IMMEDIATE; ROLLBACK"); err != nil {
		t.Fatalf("a deferred BEGIN should not have locked: %v", err)
	}
}

// A unit of work that meets a lock held past the busy timeout starts again, a bounded number
// of times, and succeeds once the lock is gone.
func TestABusyUnitOfWorkIsRetried(t *testing.T) {
	defer func(d time.Duration) { busyTimeout = d }(busyTimeout)
	busyTimeout = 30 * time.Millisecond
	s, dir := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	holder := rawConn(t, dir, "")
	if _, err := holder.Exec("BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(150*time.Millisecond, func() { holder.Exec("ROLLBACK") })
	start := time.Now()
	if _, err := s.AppendStep(a.ID, eventlog.ContextCleared{}); err != nil {
		t.Fatalf("the unit of work failed after %v: %v", time.Since(start), err)
	}
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Fatalf("the lock was not held as long as meant (%v): the test proves nothing", d)
	}

	if _, err := holder.Exec("BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer holder.Exec("ROLLBACK")
	if _, err := s.AppendStep(a.ID, eventlog.ContextCleared{}); errs.KindOf(err) != errs.StoreFailure || !isBusy(errors.Unwrap(err)) {
		t.Fatalf("a lock that never goes away ends the retries with the busy error: %v", err)
	}
}

func TestStartTurnRecordsTurnPreferenceAndMessageTogether(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	plan := mode.Preference{Interaction: mode.Smart, Override: mode.Plan}
	started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "draft it", Preference: plan, Save: true})
	if err != nil {
		t.Fatal(err)
	}
	if started.Turn.Seq != 1 || started.Decision.Mode != mode.ModePlan || started.Turn.Owner != s.owner {
		t.Fatalf("started %+v", started)
	}
	log, _ := s.Log(a.ID)
	if len(log) != 3 {
		t.Fatalf("log: %+v", log)
	}
	if m, ok := log[1].Payload.(eventlog.ModeSet); !ok || m.ExecutionOverride != "plan" {
		t.Fatalf("the saved preference comes first: %+v", log[1])
	}
	if m, ok := log[2].Payload.(eventlog.UserMessage); !ok || m.TurnID != started.Turn.ID || m.Text != "draft it" {
		t.Fatalf("the turn's message is in the log with it: %+v", log[2])
	}
	if _, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "x", Preference: plan, Save: true, Temporary: true}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("a temporary preference is never saved: %v", err)
	}
	if _, err := s.StartTurn(TurnStart{SessionID: "missing", Prompt: "x", Preference: mode.Default}); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing session: %v", err)
	}
	second, _ := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "again", Preference: plan})
	if second.Turn.Seq != 2 {
		t.Fatalf("turn numbers come from the session's counter: %d", second.Turn.Seq)
	}
}

// failOn makes every insert into table fail, so an operation breaks half way.
func failOn(t *testing.T, s *Store, table string) {
	t.Helper()
	if err := s.db.Exec("CREATE TRIGGER fail_" + table + " BEFORE INSERT ON " + table +
		" BEGIN SELECT RAISE(ABORT, 'injected failure'); END").Error; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.db.Exec("DROP TRIGGER IF EXISTS fail_" + table) })
}

func TestTheBoundaryIsOneOperation(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	chat := mode.Preference{Interaction: mode.Chat}
	debug := mode.Preference{Interaction: mode.Smart, Override: mode.Debug}
	s.EnqueueSwitch(a.ID, chat)
	s.EnqueueMessage(a.ID, Enqueued{Switch: &debug, Message: eventlog.QueuedMessage{MessageID: "m1", Text: "why does it crash"}})
	s.EnqueueMessage(a.ID, Enqueued{Message: eventlog.QueuedMessage{MessageID: "m2", Text: "then this"}})
	before, _ := s.Events(a.ID)

	failOn(t, s, "turns")
	if _, err := s.ApplyBoundary(a.ID); errs.KindOf(err) != errs.StoreFailure {
		t.Fatalf("the failure to start the turn is returned: %v", err)
	}
	after, _ := s.Events(a.ID)
	q, _ := s.Queue(a.ID)
	if len(after) != len(before) || q.Len() != 4 {
		t.Fatalf("a failed boundary left %d new events and %d queued items", len(after)-len(before), q.Len())
	}
	if st, _ := s.ModeInForce(a.ID); st.Preference != mode.Default {
		t.Fatalf("a failed boundary applied a switch: %+v", st.Preference)
	}
	s.db.Exec("DROP TRIGGER fail_turns")

	b, err := s.ApplyBoundary(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Applied) != 2 || b.Applied[0] != chat || b.Applied[1] != debug || b.Turn == nil || b.Queue.Len() != 1 {
		t.Fatalf("boundary: %+v", b)
	}
	if b.Turn.Turn.Prompt != "why does it crash" || b.Turn.Decision.Mode != mode.ModeDebug || b.Turn.Turn.Temporary {
		t.Fatalf("the queued message runs under the mode then in force: %+v", b.Turn)
	}
	if st, _ := s.ModeInForce(a.ID); st.Preference != debug {
		t.Fatalf("mode in force %+v", st.Preference)
	}
}

func TestATemporaryQueuedMessageRunsUnderItsOverrideOnly(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	tmp := mode.ModeSetPayload(eventlog.NewModeSet(mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}))
	s.EnqueueMessage(a.ID, Enqueued{Message: eventlog.QueuedMessage{MessageID: "m", Text: "look", Temporary: &tmp}})
	b, err := s.ApplyBoundary(a.ID)
	if err != nil || b.Turn == nil || !b.Turn.Turn.Temporary || b.Turn.Decision.Mode != mode.ModeAnalyze {
		t.Fatalf("boundary %+v %v", b.Turn, err)
	}
	if st, _ := s.ModeInForce(a.ID); st.Preference != mode.Default {
		t.Fatalf("a temporary override was saved: %+v", st.Preference)
	}
}

// A queued message whose log entry cannot be read cannot run: it leaves the queue, the switches
// before it still apply, and the boundary says which message was lost.
func TestAQueuedMessageThatCannotBeReadIsReportedNotSkipped(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	chat := mode.Preference{Interaction: mode.Chat}
	s.EnqueueMessage(a.ID, Enqueued{Switch: &chat, Message: eventlog.QueuedMessage{MessageID: "m1", Text: "x"}})
	s.db.Exec("DROP TRIGGER events_append_only")
	s.db.Exec(`UPDATE events SET payload = '{"message_id": 5}' WHERE type = 'message.queued'`)
	b, err := s.ApplyBoundary(a.ID)
	if err != nil || b.Lost != "m1" || b.Turn != nil || len(b.Applied) != 1 || b.Queue.Len() != 0 {
		t.Fatalf("boundary %+v %v", b, err)
	}
}

func TestEnqueueAndUnqueueAreOperationsOnRows(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	chat := mode.Preference{Interaction: mode.Chat}
	q, err := s.EnqueueMessage(a.ID, Enqueued{Switch: &chat, Message: eventlog.QueuedMessage{MessageID: "m1", Text: "x"}})
	if err != nil || q.Len() != 2 {
		t.Fatalf("%d %v", q.Len(), err)
	}
	failOn(t, s, "queue_items")
	if _, err := s.EnqueueMessage(a.ID, Enqueued{Message: eventlog.QueuedMessage{MessageID: "m2", Text: "y"}}); err == nil {
		t.Fatal("the injected failure must surface")
	}
	if log, _ := s.Log(a.ID); len(log) != 2 {
		t.Fatalf("a failed enqueue left its message in the log: %d entries", len(log))
	}
	s.db.Exec("DROP TRIGGER fail_queue_items")
	if _, err := s.UnqueueSwitch(a.ID, 1); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("a message cannot be unqueued: %v", err)
	}
	if q, err := s.UnqueueSwitch(a.ID, 0); err != nil || q.Len() != 1 || q.Items()[0].MessageID != "m1" {
		t.Fatalf("unqueue: %+v %v", q.Items(), err)
	}
	if _, err := s.EnqueueSwitch("missing", chat); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("missing session: %v", err)
	}
}

// A session on an external agent is created with its agent in one transaction: a failure
// leaves no session at all, where the old code had to delete it again.
func TestASessionIsCreatedWithItsAgentOrNotAtAll(t *testing.T) {
	s, _ := openTemp(t)
	failOn(t, s, "events")
	if _, err := s.CreateSession(NewSession{Title: "ext", Workspace: "/w", ExternalAgent: "goose acp"}); err == nil {
		t.Fatal("the injected failure must surface")
	}
	if n := sessionCount(t, s); n != 0 {
		t.Fatalf("%d half-made sessions", n)
	}
	s.db.Exec("DROP TRIGGER fail_events")
	got, err := s.CreateSession(NewSession{Title: "ext", Workspace: "/w", ExternalAgent: "  goose acp "})
	if err != nil || got.ExternalAgent != "goose acp" || got.EventSeq != 1 {
		t.Fatalf("%+v %v", got, err)
	}
}

func TestLeavePlanReturnsToTheLastPreferenceThatWasNotPlan(t *testing.T) {
	s, _ := openTemp(t)
	debug := mode.Preference{Interaction: mode.Smart, Override: mode.Debug}
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w", Preference: &debug})
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Plan})
	prev, err := s.LeavePlan(a.ID)
	if err != nil || prev != debug {
		t.Fatalf("%+v %v", prev, err)
	}
	if st, _ := s.ModeInForce(a.ID); st.Preference != debug {
		t.Fatalf("in force %+v", st.Preference)
	}
	// The log says why the mode changed, so the transcript can tell the person.
	log, _ := s.Log(a.ID)
	if last, ok := log[len(log)-1].Payload.(eventlog.ModeSet); !ok || last.Reason != mode.ReasonPlanApproved || last.ExecutionOverride != "debug" {
		t.Fatalf("last entry: %+v", log[len(log)-1].Payload)
	}
}

// Migration 7 moves each queue from its JSON column into rows, in order, verbatim; what it cannot
// read stays in the column and is recorded in the maintenance log. Event and turn counters start
// from what the log already holds.
func TestQueuesMoveFromTheirColumnIntoRows(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:6], nil)
	if err != nil {
		t.Fatal(err)
	}
	now := "2025-01-01T00:00:00Z"
	for _, id := range []string{"good", "bad"} {
		old.db.Exec(`INSERT INTO sessions (id, title, workspace, created_at, updated_at) VALUES (?, ?, '/w', ?, ?)`, id, id, now, now)
	}
	for seq := 1; seq <= 3; seq++ {
		old.db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES ('good', ?, 'context.cleared', '{}', ?)`, seq, now)
	}
	old.db.Exec(`INSERT INTO turns (id, session_id, seq, prompt, interaction_mode, execution_override, execution_mode, reason_key, status, created_at)
		VALUES ('t9', 'good', 9, 'p', 'smart', '', 'execute', 'k', 'done', ?)`, now)
	queue := `{"items":[{"switch":{"interaction_mode":"agent","execution_override":""}},{"message_id":"m1"},{"switch":{"interaction_mode":"smart","execution_override":"plan"}}]}`
	old.db.Exec(`UPDATE sessions SET mode_queue = ? WHERE id = 'good'`, queue)
	old.db.Exec(`UPDATE sessions SET mode_queue = '{"items":[{' WHERE id = 'bad'`)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q, _ := s.Queue("good")
	items := q.Items()
	if len(items) != 3 || items[0].Switch == nil || *items[0].Switch != mode.Default || items[1].MessageID != "m1" ||
		*items[2].Switch != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) {
		t.Fatalf("moved queue: %+v", items)
	}
	var raw string
	s.db.Raw("SELECT interaction_mode FROM queue_items ORDER BY id LIMIT 1").Scan(&raw)
	if raw != "agent" {
		t.Fatalf("a stored value moves verbatim and folds when read, got %q", raw)
	}
	if q, _ := s.Queue("bad"); q.Len() != 0 {
		t.Fatalf("an unreadable queue invented %d items", q.Len())
	}
	var kept string
	s.db.Raw("SELECT mode_queue FROM sessions WHERE id = 'bad'").Scan(&kept)
	log, _ := s.MaintenanceLog()
	if kept != `{"items":[{` || len(log) != 1 || log[0].RowID != "bad" || log[0].Old != kept {
		t.Fatalf("the unreadable queue must stay and be recorded: %q %+v", kept, log)
	}
	ev, _ := s.AppendStep("good", eventlog.ContextCleared{})
	started, _ := s.StartTurn(TurnStart{SessionID: "good", Prompt: "next", Preference: mode.Default})
	if ev.Seq != 4 || started.Turn.Seq != 10 {
		t.Fatalf("counters continue the log: event %d, turn %d", ev.Seq, started.Turn.Seq)
	}
	var app int
	s.db.Raw("PRAGMA application_id").Scan(&app)
	if app != ApplicationID {
		t.Fatalf("application id %#x", app)
	}
}

func TestForkCopiesTheQueueAndContinuesTheNumbers(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	chat := mode.Preference{Interaction: mode.Chat}
	s.EnqueueMessage(a.ID, Enqueued{Switch: &chat, Message: eventlog.QueuedMessage{MessageID: "m1", Text: "x"}})
	f, err := s.ForkSession(a.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	q, _ := s.Queue(f.ID)
	if q.Len() != 2 {
		t.Fatalf("fork queue %d", q.Len())
	}
	ev, _ := s.AppendStep(f.ID, eventlog.ContextCleared{})
	if ev.Seq != 3 {
		t.Fatalf("fork numbering %d", ev.Seq)
	}
	b, err := s.ApplyBoundary(f.ID)
	if err != nil || b.Turn == nil || b.Turn.Turn.Prompt != "x" {
		t.Fatalf("the fork's queued message runs in the fork: %+v %v", b.Turn, err)
	}
}

func TestImportRefusesAPayloadNoReaderCouldShow(t *testing.T) {
	s, _ := openTemp(t)
	exp := exportWithTurn(t, s)
	exp.Events = append(exp.Events, ExportedEvent{Seq: 99, Type: eventlog.TypeToolResult, Payload: json.RawMessage(`{"turn_id":"t"}`)})
	if _, err := s.ImportExport(exp); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("want INVALID_INPUT, got %v", err)
	}
	exp.Events = exp.Events[:len(exp.Events)-1]
	got, err := s.ImportExport(exp)
	if err != nil || got.EventSeq != int64(len(exp.Events)) || got.TurnSeq != 1 {
		t.Fatalf("%+v %v", got, err)
	}
}
