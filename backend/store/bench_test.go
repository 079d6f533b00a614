package store

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkQuickCheck measures PRAGMA quick_check, the check every open runs within
// QuickCheckBudget, over a 32 MB database: its MB/s is how big a file the budget covers.
func BenchmarkQuickCheck(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	sess, _ := s.CreateSession(NewSession{Title: "big", Workspace: "/w"})
	body := `{"turn_id":"t","call_id":"c","content":"` + strings.Repeat("x", 8000) + `"}`
	sqlDB, _ := s.db.DB()
	tx, _ := sqlDB.Begin()
	for i := 0; i < 4000; i++ {
		tx.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES (?, ?, 'tool.result', ?, '2025-01-01')`,
			sess.ID, i+10, body)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	s.Close()
	path := filepath.Join(dir, FileName)
	st, _ := os.Stat(path)
	db, _ := sql.Open("sqlite", "file:"+path+"?mode=ro")
	defer db.Close()
	b.SetBytes(st.Size())
	b.ResetTimer()
	for b.Loop() {
		if rep, err := quickCheck(db); err != nil || !rep.Checked || len(rep.Problems) > 0 {
			b.Fatalf("%+v %v", rep, err)
		}
	}
}
