package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A cancel stops integrity_check where it is, and the store goes on working. The driver
// interrupts SQLite only while a statement runs inside Exec, and a check does its reading in
// the first step of its rows: a check read as rows went on to its end, whatever ctx said.
func TestIntegrityCheckStopsWhenCancelled(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fillEvents(t, s, 6000)
	start := time.Now()
	if problems, err := s.IntegrityCheck(context.Background()); err != nil || len(problems) > 0 {
		t.Fatalf("the full check: %v %v", problems, err)
	}
	full := time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), full/10)
	defer cancel()
	start = time.Now()
	_, err = s.IntegrityCheck(ctx)
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a cancelled check must say so, got %v", err)
	}
	// A check of a few milliseconds (a build without -race) is within the scheduler's noise.
	if full >= 100*time.Millisecond && took > full/2 {
		t.Fatalf("the cancelled check went on: %v of a full %v", took, full)
	}
	if problems, err := s.IntegrityCheck(context.Background()); err != nil || len(problems) > 0 {
		t.Fatalf("the check after a cancelled one: %v %v", problems, err)
	}
	if _, err := s.UnreadableEvents(ctx, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("decoding the history with a cancelled ctx: %v", err)
	}
}

// Decoding the history tells how far it got, batch by batch, up to the count of entries.
func TestUnreadableEventsTellsHowManyItDecoded(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fillEvents(t, s, 2500) // and the session's first entry
	total, err := s.EventCount(context.Background())
	var told []int
	bad, err2 := s.UnreadableEvents(context.Background(), func(n int) { told = append(told, n) })
	if err != nil || err2 != nil || total != 2501 || len(bad) != 0 {
		t.Fatalf("count %d %v, unreadable %v %v", total, err, bad, err2)
	}
	if fmt.Sprint(told) != "[1000 2000 2501]" {
		t.Fatalf("told %v", told)
	}
}

// fillEvents writes n log entries of a few hundred bytes into one session, the shape that
// makes integrity_check long: its cost is mostly the index entries of each row.
func fillEvents(t *testing.T, s *Store, n int) {
	t.Helper()
	sess, err := s.CreateSession(NewSession{Title: "big", Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := s.db.DB()
	payload := `{"turn_id":"t","call_id":"c","name":"bash","content":"` + strings.Repeat("output line\\n", 25) + `"}`
	_, err = sqlDB.Exec(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ?)
		INSERT INTO events (session_id, seq, type, payload, created_at)
		SELECT ?, x+10, 'tool.result', ?, '2025-01-01' FROM c`, n, sess.ID, payload)
	if err != nil {
		t.Fatal(err)
	}
}
