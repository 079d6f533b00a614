package store

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// statement is one SQL statement the store ran, with its arguments.
type statement struct {
	sql  string
	vars []any
}

// traceStatements records every statement the store runs from now on, through every GORM
// path (queries, raw reads, writes, Exec), in the order they ran.
func traceStatements(t *testing.T, s *Store) func() []statement {
	t.Helper()
	var mu sync.Mutex
	var out []statement
	record := func(tx *gorm.DB) {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, statement{sql: tx.Statement.SQL.String(), vars: append([]any(nil), tx.Statement.Vars...)})
	}
	cb := s.db.Callback()
	for name, err := range map[string]error{
		"create": cb.Create().After("gorm:create").Register("trace:create", record),
		"query":  cb.Query().After("gorm:query").Register("trace:query", record),
		"update": cb.Update().After("gorm:update").Register("trace:update", record),
		"delete": cb.Delete().After("gorm:delete").Register("trace:delete", record),
		"row":    cb.Row().After("gorm:row").Register("trace:row", record),
		"raw":    cb.Raw().After("gorm:raw").Register("trace:raw", record),
	} {
		if err != nil {
			t.Fatalf("trace %s: %v", name, err)
		}
	}
	return func() []statement {
		mu.Lock()
		defer mu.Unlock()
		return out
	}
}

// fullScan matches a plan step that reads a whole table row by row, without an index.
var fullScan = regexp.MustCompile(`^SCAN (\w+)$`)

// growing are the tables that grow with use. The rules and the settings are the person's own
// few lines and are read whole by design (every rule is evaluated).
var growing = map[string]bool{"sessions": true, "events": true, "turns": true, "decisions": true, "grants": true,
	"queue_items": true, "agent_sessions": true}

// What the app does with a session, through the store's API: every statement this runs is
// checked below.
func exerciseEveryReadAndWrite(t *testing.T, s *Store) {
	t.Helper()
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	for i := 0; i < 30; i++ {
		s.CreateSession(NewSession{Title: fmt.Sprint("s", i), Workspace: fmt.Sprint("/w", i%3)})
	}
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Debug})
	s.SetPermission(a.ID, policy.Auto)
	started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "p", Preference: mode.Default, Save: true})
	if err != nil {
		t.Fatal(err)
	}
	s.AppendSteps(a.ID, eventlog.AssistantMessage{TurnID: started.Turn.ID, ToolCalls: []eventlog.CallRecord{{ID: "c1", Name: "read"}}},
		eventlog.ToolResult{TurnID: started.Turn.ID, CallID: "c1", Name: "read", Content: "x"})
	s.AddGrant(a.ID, policy.Grant{Kind: policy.KindEdit, Path: "/w/a.go"})
	s.Grants(a.ID)
	s.PolicyRules()
	s.GateInputs(a.ID)
	s.CreateDecision(DecisionRow{ID: "d1", SessionID: a.ID, TurnID: started.Turn.ID, Kind: "question"})
	s.PendingDecisions(a.ID)
	s.AllPending()
	s.Decision("d1")
	s.ResolveDecision("d1", DecisionAnswered, "{}")
	s.EnqueueSwitch(a.ID, mode.Preference{Interaction: mode.Chat})
	s.EnqueueMessage(a.ID, Enqueued{Message: eventlog.QueuedMessage{MessageID: "m1", Text: "later"}})
	s.Queue(a.ID)
	s.EndTurn(started.Turn.ID, TurnDone, "")
	s.ApplyBoundary(a.ID)
	s.LeavePlan(a.ID)
	s.ModeInForce(a.ID)
	s.GetSession(a.ID)
	s.RenameSession(a.ID, "renamed")
	first, _ := s.SessionsPage(SessionRange{Limit: 10})
	s.SessionsPage(SessionRange{Limit: 10, After: first.Next})
	s.SessionsPage(SessionRange{Limit: 10, Workspace: "/w1"})
	s.LogPage(a.ID, LogRange{Limit: 5})
	s.LogPage(a.ID, LogRange{Limit: 5, Before: 3})
	s.LogPage(a.ID, LogRange{Limit: 5, After: 1})
	s.LogAfter(a.ID, 2, 100)
	s.ResultsAfter(a.ID, 1, map[string]bool{"c1": true, "c9": true}, 100)
	s.TurnsByID(a.ID, []string{started.Turn.ID})
	s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "q", Preference: mode.Default})
	s.InterruptUnfinished()
	fork, _ := s.ForkSession(a.ID, "")
	s.ForkSessionBefore(a.ID, "", 3)
	var buf bytes.Buffer
	if err := s.ExportTo(&buf, fork.ID); err != nil {
		t.Fatal(err)
	}
	s.DeleteSession(fork.ID)
	if _, err := s.ImportSession(&buf); err != nil {
		t.Fatal(err)
	}
	s.DeleteSession(a.ID)
	if _, err := s.runMaintenance(repairs); err != nil { // what every open runs
		t.Fatal(err)
	}
}

// Every statement the app runs reads through an index: none scans a whole table, so what a
// person waits for does not grow with the sessions and events they have.
func TestEveryQueryUsesAnIndex(t *testing.T) {
	s, _ := openTemp(t)
	ran := traceStatements(t, s)
	exerciseEveryReadAndWrite(t, s)
	sqlDB, _ := s.db.DB()
	checked := map[string]bool{}
	for _, st := range ran() {
		if checked[st.sql] || !strings.ContainsAny(st.sql, " ") || strings.HasPrefix(st.sql, "PRAGMA") {
			continue
		}
		checked[st.sql] = true
		rows, err := sqlDB.Query("EXPLAIN QUERY PLAN "+st.sql, st.vars...)
		if err != nil {
			t.Fatalf("explain %q: %v", st.sql, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
			if m := fullScan.FindStringSubmatch(detail); m != nil && growing[m[1]] {
				t.Errorf("%s scans the whole table %s:\n  %s\n  plan: %v", firstWords(st.sql), m[1], st.sql, plan)
			}
		}
		rows.Close()
	}
	if len(checked) < 40 {
		t.Fatalf("only %d distinct statements were traced: the trace missed a path", len(checked))
	}
}

func firstWords(sql string) string {
	f := strings.Fields(sql)
	return strings.Join(f[:min(len(f), 3)], " ")
}
