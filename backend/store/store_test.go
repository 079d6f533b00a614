package store

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	_ "github.com/glebarez/go-sqlite"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dir
}

func TestOpenFreshSetsPragmasAndVersion(t *testing.T) {
	s, _ := openTemp(t)
	var mode string
	var fk, busy int
	s.db.Raw("PRAGMA journal_mode").Scan(&mode)
	s.db.Raw("PRAGMA foreign_keys").Scan(&fk)
	s.db.Raw("PRAGMA busy_timeout").Scan(&busy)
	if mode != "wal" || fk != 1 || busy < 1000 {
		t.Fatalf("pragmas: journal_mode=%q foreign_keys=%d busy_timeout=%d", mode, fk, busy)
	}
	v, err := s.SchemaVersion()
	if err != nil || v != SupportedSchema() {
		t.Fatalf("version %d, want %d (%v)", v, SupportedSchema(), err)
	}
	if s.Migrated.Backup != "" {
		t.Fatalf("a fresh database needs no backup, got %s", s.Migrated.Backup)
	}
}

func TestSessionsPersistAcrossReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.CreateSession(NewSession{Title: "First", Workspace: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RenameSession(a.ID, "  Renamed  "); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	got, err := s2.GetSession(a.ID)
	if err != nil || got.Title != "Renamed" || got.Workspace != "/w" {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
}

func TestSessionValidationAndNotFound(t *testing.T) {
	s, _ := openTemp(t)
	if _, err := s.CreateSession(NewSession{Title: " ", Workspace: "/w"}); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("blank title: %v", err)
	}
	if _, err := s.RenameSession("missing", "x"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("rename missing: %v", err)
	}
	if err := s.DeleteSession("missing"); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("delete missing: %v", err)
	}
	if _, err := s.AppendStep("missing", eventlog.ContextCleared{}); errs.KindOf(err) != errs.NotFound {
		t.Fatalf("append to missing: %v", err)
	}
}

func TestListOrdersByMostRecentlyUpdated(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	b, _ := s.CreateSession(NewSession{Title: "b", Workspace: "/w"})
	if _, err := s.AppendStep(a.ID, eventlog.ContextCleared{}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListSessions()
	if err != nil || len(list) != 2 || list[0].ID != a.ID || list[1].ID != b.ID {
		t.Fatalf("order: %+v %v", list, err)
	}
}

func TestEventsAreAppendOnlyAndGoWithTheirSession(t *testing.T) {
	s, _ := openTemp(t)
	a, _ := s.CreateSession(NewSession{Title: "a", Workspace: "/w"})
	for i := 0; i < 3; i++ {
		if _, err := s.AppendStep(a.ID, eventlog.UserMessage{TurnID: "t", Text: strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	evs, _ := s.Events(a.ID)
	if len(evs) != 4 || evs[0].Type != "mode.set" || evs[3].Seq != 4 || evs[1].Payload != `{"turn_id":"t","text":"0"}` {
		t.Fatalf("events: %+v", evs)
	}
	if err := s.db.Exec("UPDATE events SET type = 'x'").Error; err == nil {
		t.Fatal("an update of the event log must be refused")
	}
	if err := s.DeleteSession(a.ID); err != nil {
		t.Fatal(err)
	}
	var n int64
	s.db.Model(&Event{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d events outlived their session", n)
	}
}

func TestSettingsUpsert(t *testing.T) {
	s, _ := openTemp(t)
	if _, ok, _ := s.GetSetting("language"); ok {
		t.Fatal("unset setting reported as set")
	}
	s.SetSetting("language", "en")
	s.SetSetting("language", "zh-CN")
	v, ok, err := s.GetSetting("language")
	if v != "zh-CN" || !ok || err != nil {
		t.Fatalf("got %q %v %v", v, ok, err)
	}
}

func fileHash(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestNewerSchemaIsRefusedAndLeftUntouched(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(fmt.Sprintf("CREATE TABLE future(x); INSERT INTO future VALUES (1); PRAGMA user_version = 99; PRAGMA application_id = %d", ApplicationID)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before := fileHash(t, path)

	_, err = Open(dir)
	if errs.KindOf(err) != errs.SchemaTooNew {
		t.Fatalf("want SCHEMA_TOO_NEW, got %v", err)
	}
	if e := errs.As(err); e.Args["Found"] != 99 || e.Args["Supported"] != SupportedSchema() {
		t.Fatalf("the error must name both versions: %+v", e.Args)
	}
	if fileHash(t, path) != before {
		t.Fatal("a refused database was modified")
	}
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + side); err == nil {
			t.Fatalf("refusing created %s", side)
		}
	}
}

func TestMigrationBacksUpFirstAndPreservesData(t *testing.T) {
	dir := t.TempDir()
	old, err := open(dir, migrations[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	old.db.Exec(`INSERT INTO sessions (id, title, workspace, created_at, updated_at) VALUES ('s1', 'kept', '/w', '2025-01-01', '2025-01-01')`)
	old.db.Exec(`INSERT INTO events (session_id, seq, type, payload, created_at) VALUES ('s1', 1, 'note', '"hello"', '2025-01-01')`)
	old.Close()

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Migrated.From != 1 || s.Migrated.To != SupportedSchema() || s.Migrated.Backup == "" {
		t.Fatalf("report: %+v", s.Migrated)
	}
	got, err := s.GetSession("s1")
	evs, _ := s.Events("s1")
	if err != nil || got.Title != "kept" || len(evs) != 1 || evs[0].Payload != `"hello"` {
		t.Fatalf("data lost in migration: %+v %v %+v", got, err, evs)
	}
	if p, ok := got.Permission(); got.InteractionMode != "smart" || p != "ask" || !ok {
		t.Fatalf("a migrated session must read as Smart with ask: %+v", got)
	}
	backup, err := sql.Open("sqlite", s.Migrated.Backup)
	if err != nil {
		t.Fatal(err)
	}
	defer backup.Close()
	var version, sessions int
	backup.QueryRow("PRAGMA user_version").Scan(&version)
	backup.QueryRow("SELECT count(*) FROM sessions").Scan(&sessions)
	if version != 1 || sessions != 1 {
		t.Fatalf("backup holds version %d with %d sessions", version, sessions)
	}
	var applied int64
	s.db.Raw("SELECT count(*) FROM schema_migrations").Scan(&applied)
	if applied != int64(SupportedSchema()) {
		t.Fatalf("schema_migrations has %d rows, want %d", applied, SupportedSchema())
	}
}

func TestAFailedMigrationLeavesTheDatabaseAtItsVersion(t *testing.T) {
	dir := t.TempDir()
	old, _ := open(dir, migrations[:1], nil)
	old.Close()
	broken := append(append([]migration{}, migrations[:1]...), migration{name: "broken", up: func(tx *gorm.DB) error {
		if err := tx.Exec("ALTER TABLE sessions ADD COLUMN half INTEGER").Error; err != nil {
			return err
		}
		return tx.Exec("THIS IS NOT SQL").Error
	}})
	if _, err := open(dir, broken, nil); errs.KindOf(err) != errs.StoreFailure {
		t.Fatalf("want STORE_FAILURE, got %v", err)
	}
	s, err := open(dir, migrations[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _ := s.SchemaVersion(); v != 1 {
		t.Fatalf("version %d after a failed migration", v)
	}
	if err := s.db.Exec("SELECT half FROM sessions").Error; err == nil {
		t.Fatal("a failed migration left a half-applied column")
	}
}

func TestMaintenanceIsLoggedAndIdempotent(t *testing.T) {
	dir := t.TempDir()
	s, _ := Open(dir)
	a, _ := s.CreateSession(NewSession{Title: "legacy title", Workspace: "/w"})
	s.Close()

	retitle := Repair{Name: "retitle legacy", Run: func(tx *gorm.DB) ([]Change, error) {
		var rows []Session
		if err := tx.Where("title = ?", "legacy title").Find(&rows).Error; err != nil {
			return nil, err
		}
		var out []Change
		for _, r := range rows {
			if err := tx.Model(&Session{}).Where("id = ?", r.ID).Update("title", "modern title").Error; err != nil {
				return nil, err
			}
			out = append(out, Change{Table: "sessions", RowID: r.ID, Column: "title", Old: r.Title, New: "modern title"})
		}
		return out, nil
	}}
	first, err := open(dir, migrations, []Repair{retitle})
	if err != nil {
		t.Fatal(err)
	}
	if first.Maintenance.Changed != 1 || first.Maintenance.Changes[0].RowID != a.ID {
		t.Fatalf("first open: %+v", first.Maintenance)
	}
	first.Close()
	second, err := open(dir, migrations, []Repair{retitle})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if second.Maintenance.Changed != 0 {
		t.Fatalf("second open changed %d rows", second.Maintenance.Changed)
	}
	log, _ := second.MaintenanceLog()
	if len(log) != 1 || log[0].Old != "legacy title" || log[0].New != "modern title" {
		t.Fatalf("log: %+v", log)
	}
}

// runningTurn starts a turn in plain Smart and returns its row.
func runningTurn(t *testing.T, s *Store, sessionID, prompt string) Turn {
	t.Helper()
	started, err := s.StartTurn(TurnStart{SessionID: sessionID, Prompt: prompt, Preference: mode.Default})
	if err != nil {
		t.Fatal(err)
	}
	return started.Turn
}
