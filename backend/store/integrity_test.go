package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
}

// refusedUntouched opens dir, wants the kind, and checks the database file kept its bytes and
// gained no WAL.
func refusedUntouched(t *testing.T, dir string, want errs.Kind) *errs.Error {
	t.Helper()
	path := filepath.Join(dir, FileName)
	before := fileHash(t, path)
	_, err := Open(dir)
	if errs.KindOf(err) != want {
		t.Fatalf("want %s, got %v", want, err)
	}
	if fileHash(t, path) != before {
		t.Fatal("a refused file was modified")
	}
	if st, err := os.Stat(path + "-wal"); err == nil && st.Size() > 0 {
		t.Fatal("refusing it wrote a WAL")
	}
	return errs.As(err)
}

// A random file in the database's place is not an AgentDesk database: it is never read as one
// (today's message was "written by a newer AgentDesk (schema 1952999795)").
func TestARandomFileIsNotAnAgentDeskDatabase(t *testing.T) {
	cases := map[string]func() []byte{
		"random bytes": func() []byte { b := make([]byte, 64<<10); rand.Read(b); return b },
		"text":         func() []byte { return []byte(strings.Repeat("meeting notes\n", 500)) },
		"shorter than a header": func() []byte {
			return []byte("SQLite format 3\x00 but nothing more")
		},
		"SQLite magic, damaged header": func() []byte {
			b := make([]byte, 8192)
			rand.Read(b)
			copy(b, sqliteMagic)
			return b
		},
	}
	for name, content := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, FileName), content(), 0o600)
			e := refusedUntouched(t, dir, errs.NotAgentDeskDatabase)
			if e.Args["Path"] == nil || e.Args["Backups"] != filepath.Join(dir, BackupDir) {
				t.Fatalf("the error names the file and the backups: %+v", e.Args)
			}
		})
	}
}

func TestAnotherProgramsSQLiteFileIsNotOurs(t *testing.T) {
	cases := map[string]string{
		"tables without a version":  "CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('a')",
		"a version, no migrations":  "CREATE TABLE contacts(name TEXT); PRAGMA user_version = 3",
		"a newer version, no id":    "CREATE TABLE contacts(name TEXT); PRAGMA user_version = 1952999795",
		"another program's id":      "CREATE TABLE contacts(name TEXT); PRAGMA application_id = 1234",
		"another id, a low version": "CREATE TABLE sessions(id TEXT); PRAGMA user_version = 2; PRAGMA application_id = 99",
	}
	for name, script := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			raw, _ := sql.Open("sqlite", filepath.Join(dir, FileName))
			if _, err := raw.Exec(script); err != nil {
				t.Fatal(err)
			}
			raw.Close()
			refusedUntouched(t, dir, errs.NotAgentDeskDatabase)
		})
	}
}

// A newer schema that only the WAL holds (the header still says an older version) is refused,
// and neither the database nor its WAL is rewritten: no checkpoint merges them.
func TestANewerSchemaOnlyInTheWALIsRefusedWithoutRewriting(t *testing.T) {
	src := t.TempDir()
	s, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	s.CreateSession(NewSession{Title: "kept", Workspace: "/w"})
	s.Close()
	path := filepath.Join(src, FileName)
	live, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	live.SetMaxOpenConns(1)
	if _, err := live.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // the folder as a newer AgentDesk left it: the change still in its WAL
	copyFile(t, path, filepath.Join(dir, FileName))
	copyFile(t, path+"-wal", filepath.Join(dir, FileName+"-wal"))
	live.Close()

	db, wal := filepath.Join(dir, FileName), filepath.Join(dir, FileName+"-wal")
	header := make([]byte, 100)
	f, _ := os.Open(db)
	io.ReadFull(f, header)
	f.Close()
	if v := binary.BigEndian.Uint32(header[60:64]); v != uint32(SupportedSchema()) {
		t.Fatalf("the header must still say %d, says %d: the test would prove nothing", SupportedSchema(), v)
	}
	dbBefore, walBefore := fileHash(t, db), fileHash(t, wal)
	_, err = Open(dir)
	if e := errs.As(err); e.Kind != errs.SchemaTooNew || e.Args["Found"] != 99 {
		t.Fatalf("want SCHEMA_TOO_NEW naming 99, got %v", err)
	}
	if fileHash(t, db) != dbBefore || fileHash(t, wal) != walBefore {
		t.Fatal("refusing the newer schema rewrote the database or its WAL")
	}
}

// pageInfo reads where a built database keeps its tables and indexes.
type pageInfo struct {
	size  int
	roots map[string]int
}

func readPages(t *testing.T, path string) pageInfo {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	info := pageInfo{roots: map[string]int{}}
	db.QueryRow("PRAGMA page_size").Scan(&info.size)
	rows, err := db.Query("SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var root int
		rows.Scan(&name, &root)
		info.roots[name] = root
	}
	return info
}

// builtDatabase is a closed, checkpointed data folder with sessions, a long log (so the events
// table is a tree of several levels), payloads larger than a page (overflow chains), turns and
// decisions. It contains no free pages, so every page belongs to something.
func builtDatabase(t *testing.T) (string, pageInfo) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("output line\n", 2000)
	for i := 0; i < 8; i++ {
		sess, _ := s.CreateSession(NewSession{Title: fmt.Sprintf("s%d", i), Workspace: "/w"})
		turn := runningTurn(t, s, sess.ID, "go")
		for j := 0; j < 60; j++ {
			s.AppendStep(sess.ID, eventlog.UserMessage{TurnID: turn.ID, Text: fmt.Sprintf("step %d", j), Steer: true})
		}
		s.AppendStep(sess.ID, eventlog.ToolResult{TurnID: turn.ID, CallID: "c", Name: "bash", Content: big})
		s.EndTurn(turn.ID, TurnDone, "")
	}
	s.Close()
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Fatal("the built database must be checkpointed")
	}
	return dir, readPages(t, path)
}

// firstOverflowPage finds a page of an overflow chain that another overflow page follows: not a
// b-tree page (types 2, 5, 10, 13) and with a next pointer.
func firstOverflowPage(t *testing.T, path string, size int) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	for p := 2; p*size <= len(b); p++ {
		page := b[(p-1)*size : p*size]
		switch page[0] {
		case 2, 5, 10, 13:
			continue
		}
		if binary.BigEndian.Uint32(page[:4]) != 0 {
			return p
		}
	}
	t.Fatal("no overflow chain in the built database")
	return 0
}

// rightmostChild is the last child of an interior b-tree page.
func rightmostChild(t *testing.T, path string, page, size int) int {
	t.Helper()
	b, _ := os.ReadFile(path)
	p := b[(page-1)*size:]
	if p[0] != 5 && p[0] != 2 {
		t.Fatalf("page %d is not interior (type %d): build a bigger table", page, p[0])
	}
	return int(binary.BigEndian.Uint32(p[8:12]))
}

func zero(t *testing.T, path string, from, n int) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(make([]byte, n), int64(from)); err != nil {
		t.Fatal(err)
	}
}

// damageCase zeroes one part of a built database.
type damageCase struct {
	name    string
	damage  func(t *testing.T, path string, info pageInfo)
	refused errs.Kind // the open is refused with this kind; "" when it opens read-only
}

func pageAt(info pageInfo, page int) (int, int) { return (page - 1) * info.size, info.size }

// damageCases are the single-page corruptions every check must notice: the header, the
// schema's pages, a table's root and a leaf, an index, another table, an overflow page.
var damageCases = []damageCase{
	{"header", func(t *testing.T, p string, _ pageInfo) { zero(t, p, 0, 100) }, errs.NotAgentDeskDatabase},
	{"schema root", func(t *testing.T, p string, i pageInfo) { zero(t, p, 100, i.size-100) }, ""},
	{"schema leaf", func(t *testing.T, p string, i pageInfo) {
		b, _ := os.ReadFile(p)
		if b[100] != 5 {
			t.Fatalf("the schema fits on page 1 (type %d): no leaf to damage", b[100])
		}
		off, n := pageAt(i, int(binary.BigEndian.Uint32(b[108:112])))
		zero(t, p, off, n)
	}, ""},
	{"events table root", func(t *testing.T, p string, i pageInfo) {
		zero(t, p, (i.roots["events"]-1)*i.size, i.size)
	}, ""},
	{"events table leaf", func(t *testing.T, p string, i pageInfo) {
		off, n := pageAt(i, rightmostChild(t, p, i.roots["events"], i.size))
		zero(t, p, off, n)
	}, ""},
	{"events index", func(t *testing.T, p string, i pageInfo) {
		zero(t, p, (i.roots["sqlite_autoindex_events_1"]-1)*i.size, i.size)
	}, ""},
	{"sessions table", func(t *testing.T, p string, i pageInfo) {
		zero(t, p, (i.roots["sessions"]-1)*i.size, i.size)
	}, ""},
	{"overflow page", func(t *testing.T, p string, i pageInfo) {
		off, n := pageAt(i, firstOverflowPage(t, p, i.size))
		zero(t, p, off, n)
	}, ""},
}

// With one page zeroed, the open notices it (the header checks, or quick_check), the file opens
// read-only or not at all, integrity_check names the damage, and nothing is written into it.
func TestEveryZeroedPageIsNoticedAndNothingIsWritten(t *testing.T) {
	for _, c := range damageCases {
		t.Run(c.name, func(t *testing.T) {
			dir, info := builtDatabase(t)
			path := filepath.Join(dir, FileName)
			c.damage(t, path, info)
			if c.refused != "" {
				refusedUntouched(t, dir, c.refused)
				return
			}
			before := fileHash(t, path)
			s, err := Open(dir)
			if err != nil {
				t.Fatalf("a damaged database opens read-only: %v", err)
			}
			if s.Damage() == nil || len(s.Integrity.Problems) == 0 {
				t.Fatalf("the open did not notice: %+v", s.Integrity)
			}
			if e := s.Damage(); e.Args["Backups"] == nil || e.Args["Problem"] == "" {
				t.Fatalf("the message must say what and where to restore from: %+v", e.Args)
			}
			problems, err := s.IntegrityCheck(context.Background())
			if err != nil || len(problems) == 0 {
				t.Fatalf("integrity_check found nothing: %v %v", problems, err)
			}
			if _, err := s.CreateSession(NewSession{Title: "x", Workspace: "/w"}); errs.KindOf(err) != errs.DatabaseDamaged {
				t.Fatalf("a write into the damaged file: %v", err)
			}
			if err := s.SetSetting("k", "v"); errs.KindOf(err) != errs.DatabaseDamaged {
				t.Fatalf("a setting written into the damaged file: %v", err)
			}
			s.Close()
			if fileHash(t, path) != before {
				t.Fatal("the damaged file was written to")
			}
		})
	}
}

// Damage met while working (past an open that could not see it) makes the store read-only at
// once.
func TestDamageFoundWhileWorkingStopsTheWrites(t *testing.T) {
	dir, info := builtDatabase(t)
	defer func(d time.Duration) { QuickCheckBudget = d }(QuickCheckBudget)
	QuickCheckBudget = time.Nanosecond // the open cannot check: as for a file too big to check in time
	os.Remove(filepath.Join(dir, FileName+checkedSuffix))
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Integrity.Checked || s.Damage() != nil {
		t.Fatalf("an unchecked open: %+v", s.Integrity)
	}
	sessions, _ := s.ListSessions()
	zero(t, filepath.Join(dir, FileName), (info.roots["events"]-1)*info.size, info.size)
	if _, err := s.AppendStep(sessions[0].ID, eventlog.ContextCleared{}); errs.KindOf(err) != errs.DatabaseDamaged {
		t.Fatalf("the write that met the damage: %v", err)
	}
	if _, err := s.CreateSession(NewSession{Title: "x", Workspace: "/w"}); errs.KindOf(err) != errs.DatabaseDamaged {
		t.Fatalf("a write after the damage was seen: %v", err)
	}
}

func TestQuickCheckAtOpenIsReported(t *testing.T) {
	dir, _ := builtDatabase(t)
	os.Remove(filepath.Join(dir, FileName+checkedSuffix)) // as after a crash: nothing vouches for the file
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !s.Integrity.Checked || len(s.Integrity.Problems) != 0 || s.Integrity.Took <= 0 {
		t.Fatalf("integrity at open: %+v", s.Integrity)
	}
}

// A file a sound store closed is not read again at the next open while nothing changed it (a
// year of sessions is a gigabyte, seconds of quick_check); any write, and any change from
// outside, brings the check back, and damage is found as before.
func TestAnUnchangedFileIsNotCheckedAgain(t *testing.T) {
	dir, info := builtDatabase(t)
	path := filepath.Join(dir, FileName)
	reopen := func() *Store {
		t.Helper()
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := reopen()
	if !s.Integrity.Checked || !s.Integrity.Unchanged || s.Integrity.Took != 0 {
		t.Fatalf("a file left as it was closed was read again: %+v", s.Integrity)
	}
	s.CreateSession(NewSession{Title: "more", Workspace: "/w"})
	s.Close()
	if s = reopen(); !s.Integrity.Unchanged {
		t.Fatalf("what a sound store wrote and closed is vouched for too: %+v", s.Integrity)
	}
	s.Close()
	zero(t, path, (info.roots["sessions"]-1)*info.size, info.size) // from outside: the time changes
	s = reopen()
	defer s.Close()
	if s.Integrity.Unchanged || s.Damage() == nil {
		t.Fatalf("damage after the last close must be found: %+v", s.Integrity)
	}
	s.Close()
	if s = reopen(); s.Damage() == nil {
		t.Fatal("a damaged file must never be vouched for")
	}
}

// A backup killed half way leaves a partial file (and, from earlier releases, an empty .bak and
// its journal); the next start removes them, and never a whole backup or a live process's.
func TestStalePartialBackupsAreRemovedAtStart(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, BackupDir)
	os.MkdirAll(backups, 0o700)
	write := func(name string, size int) string {
		p := filepath.Join(backups, name)
		os.WriteFile(p, make([]byte, size), 0o600)
		return p
	}
	whole := write("agentdesk.db.v3.20250101T000000.000000000.bak", 4096)
	live := write(fmt.Sprintf("agentdesk.db.v4.20250102T000000.000000000.bak%s%d", partialMark, os.Getpid()), 10)
	stale := []string{
		write("agentdesk.db.v4.20250103T000000.000000000.bak"+partialMark+"999999999", 10),
		write("agentdesk.db.v4.20250103T000000.000000000.bak"+partialMark+"999999999-journal", 0),
		write("agentdesk.db.v5.20250104T000000.000000000.bak", 0),
		write("agentdesk.db.v5.20250105T000000.000000000.bak", 8192),
		write("agentdesk.db.v5.20250105T000000.000000000.bak-journal", 512),
	}
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was left", filepath.Base(p))
		}
	}
	for _, p := range []string{whole, live} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
	if len(s.StaleBackups) != len(stale) {
		t.Fatalf("reported %v", s.StaleBackups)
	}
	if got := lastBackup(s.Path()); got != whole {
		t.Fatalf("the last whole backup is %s, got %s", whole, got)
	}
}

// A migration's backup is written to a partial name and renamed only when whole.
func TestAMigrationBackupIsWholeOrAbsent(t *testing.T) {
	dir := t.TempDir()
	old, _ := open(dir, migrations[:1], nil)
	old.Close()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	entries, _ := os.ReadDir(filepath.Join(dir, BackupDir))
	if len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".bak") || s.Migrated.Backup != filepath.Join(dir, BackupDir, entries[0].Name()) {
		t.Fatalf("backups: %v (%s)", entries, s.Migrated.Backup)
	}
}
