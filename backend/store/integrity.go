package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"agentdesk/backend/errs"
)

// ApplicationID marks an AgentDesk database in its header (PRAGMA application_id, "AGDS");
// migration 7 writes it. Files from before carry 0 and are told apart by their schema.
const ApplicationID = 0x41474453

// QuickCheckBudget bounds the integrity check at every open: a time, not a size, so a slow disk
// is bounded too. PRAGMA quick_check reads every page, at 190 to 370 MB/s on the 2-core machine
// this was measured on (BenchmarkQuickCheck), so the budget covers files of at least 380 MB,
// far beyond a typical data folder, which checks in milliseconds. SQLite is interrupted when the
// budget runs out: the file is opened unchecked, reported so (Integrity.Checked), and left to
// `agentdesk doctor`, which runs the full integrity_check without a bound.
var QuickCheckBudget = 2 * time.Second

// Integrity is what the checks at open found.
type Integrity struct {
	// Checked is false when quick_check could not finish within its budget.
	Checked bool `json:"checked"`
	// Unchanged says the file is the one a sound store left at its last close, byte for byte
	// by size and time: it was not read again (Checked stays true).
	Unchanged bool          `json:"unchanged,omitempty"`
	Problems  []string      `json:"problems"`
	Took      time.Duration `json:"took_ns"`
}

const sqliteMagic = "SQLite format 3\x00"

// inspect looks at an existing database without writing anything, to the file or its WAL: the
// header first, then a read-only connection (which sees what the WAL holds, and never
// checkpoints it) for the schema version, the owner of the file and a bounded quick_check.
func inspect(path string, supported int) (Integrity, error) {
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || err == nil && st.Size() == 0 {
		return Integrity{Checked: true, Problems: []string{}}, nil
	}
	if err != nil {
		return Integrity{}, errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	if err := checkHeader(path, supported); err != nil {
		return Integrity{}, err
	}
	return probe(path, supported)
}

// checkHeader reads the 100-byte header: a file that is not SQLite's, or is SQLite's but
// another program's, is not an AgentDesk database; one from a newer AgentDesk is refused before
// SQLite ever opens it.
func checkHeader(path string, supported int) error {
	f, err := os.Open(path)
	if err != nil {
		return errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	defer f.Close()
	h := make([]byte, 100)
	if _, err := io.ReadFull(f, h); err != nil {
		return notAgentDesk(path, "shorter than a database header")
	}
	if string(h[:16]) != sqliteMagic {
		return notAgentDesk(path, "no SQLite header")
	}
	if !validPageSize(binary.BigEndian.Uint16(h[16:18])) || h[21] != 64 || h[22] != 32 || h[23] != 32 {
		return notAgentDesk(path, "the SQLite header is damaged")
	}
	app, version := binary.BigEndian.Uint32(h[68:72]), int(binary.BigEndian.Uint32(h[60:64]))
	return checkOwner(path, app, version, supported)
}

func validPageSize(v uint16) bool {
	return v == 1 || v >= 512 && v <= 32768 && v&(v-1) == 0
}

// checkOwner tells an AgentDesk database from another program's by its application id, and a
// newer AgentDesk's by its version. Every version that writes a schema newer than this build's
// also writes the id, so a newer version without it is not ours.
func checkOwner(path string, app uint32, version, supported int) error {
	switch {
	case app != 0 && app != ApplicationID:
		return notAgentDesk(path, fmt.Sprintf("application id %#x", app))
	case version > supported && app == 0:
		return notAgentDesk(path, fmt.Sprintf("user version %d without AgentDesk's application id", version))
	case version > supported:
		return errs.New(errs.SchemaTooNew, "Path", path, "Found", version, "Supported", supported)
	}
	return nil
}

// probe opens the file read-only: SQLite neither writes to it nor merges its WAL, so a refused
// file is left exactly as it was.
func probe(path string, supported int) (Integrity, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		return Integrity{}, errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	// One read transaction: the version, the id and the tables come from one snapshot, never
	// from either side of another process's migration committing in between (which read as
	// tables without a version: not AgentDesk's).
	snap, err := db.Begin()
	if err != nil {
		return Integrity{}, unreadable(path, err)
	}
	defer snap.Rollback()
	var version int
	var app uint32
	if err := snap.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return Integrity{}, unreadable(path, err)
	}
	if err := snap.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		return Integrity{}, unreadable(path, err)
	}
	if err := checkOwner(path, app, version, supported); err != nil {
		return Integrity{}, err
	}
	if err := checkSchemaIsOurs(snap, path, app, version); err != nil {
		return Integrity{}, err
	}
	snap.Rollback()
	return checkUnlessUnchanged(db, path)
}

// checkUnlessUnchanged runs the quick check unless the file is byte for byte the one the last
// clean check passed: the same size and modification time, and no write-ahead log holding
// pages not yet in it. A year of sessions is a gigabyte, which the check reads in seconds at
// every open; a file nothing wrote to since it passed has nothing new to find (the unbounded
// integrity_check of `agentdesk doctor` still reads every page). A store that was found sound
// (a clean check, at open or by doctor) records at Close the file it leaves (recordSound).
func checkUnlessUnchanged(db *sql.DB, path string) (Integrity, error) {
	if id := fileIdentity(path); id != "" {
		if seen, err := os.ReadFile(path + checkedSuffix); err == nil && string(seen) == id {
			return Integrity{Checked: true, Unchanged: true, Problems: []string{}}, nil
		}
	}
	return quickCheck(db)
}

// recordSound records the database file as it is now, closed, as sound: a cache for the next
// open, whose failure to write costs that open its check only.
func recordSound(path string) {
	if id := fileIdentity(path); id != "" {
		os.WriteFile(path+checkedSuffix, []byte(id), 0o600)
	}
}

// checkedSuffix names the file that records the database file the last clean check passed.
const checkedSuffix = ".checked"

// fileIdentity is the database file's size and modification time, or "" when its write-ahead
// log holds pages (the file alone is not the database then).
func fileIdentity(path string) string {
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 || err != nil && !errors.Is(err, os.ErrNotExist) {
		return ""
	}
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d", st.Size(), st.ModTime().UnixNano())
}

// checkSchemaIsOurs refuses another program's SQLite file that carries no application id: one
// with tables but no version, or a version but no migration record.
func checkSchemaIsOurs(db interface {
	QueryRow(string, ...any) *sql.Row
}, path string, app uint32, version int) error {
	if app == ApplicationID {
		return nil
	}
	var tables, migrations int
	err := db.QueryRow(`SELECT count(*), count(CASE WHEN name = 'schema_migrations' THEN 1 END)
		FROM sqlite_schema WHERE type = 'table'`).Scan(&tables, &migrations)
	if err != nil {
		return unreadable(path, err)
	}
	if version == 0 && tables > 0 || version > 0 && migrations == 0 {
		return notAgentDesk(path, "its tables are not AgentDesk's")
	}
	return nil
}

// quickCheck runs PRAGMA quick_check within QuickCheckBudget; SQLite is interrupted when the
// budget runs out, and the file counts as unchecked, not as damaged.
func quickCheck(db *sql.DB) (Integrity, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), QuickCheckBudget)
	defer cancel()
	problems, err := checkRows(ctx, db, "quick_check")
	rep := Integrity{Checked: err == nil, Problems: problems, Took: time.Since(start)}
	if err != nil && ctx.Err() == nil {
		if isDamage(err) {
			rep.Checked, rep.Problems = true, []string{err.Error()}
			return rep, nil
		}
		return rep, errs.Wrap(errs.StoreFailure, err)
	}
	return rep, nil
}

// checkRows runs quick_check or integrity_check and returns its findings; "ok" is none.
//
// The pragma fills a temporary table inside an Exec, and the findings are read from that table:
// the driver interrupts SQLite when ctx ends only while Exec (or the preparation of a Query)
// runs, never while rows.Next steps a statement, and a check does all its reading in its first
// step. Read as rows, a cancelled check went on to its end. The check names the main database
// (with SQLite's default limit of 100 findings): unnamed, it checks the temporary one too,
// whose table, half made while the check runs, reads as a page never used.
func checkRows(ctx context.Context, db *sql.DB, pragma string) ([]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return []string{}, err
	}
	defer conn.Close()
	const table = "temp.agentdesk_check"
	if _, err := conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+table); err != nil {
		return []string{}, err
	}
	defer conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+table)
	if _, err := conn.ExecContext(ctx, "CREATE TABLE "+table+" AS SELECT * FROM pragma_"+pragma+"(100, 'main')"); err != nil {
		if ctx.Err() != nil {
			return []string{}, ctx.Err()
		}
		return []string{}, err
	}
	rows, err := conn.QueryContext(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		return []string{}, err
	}
	defer rows.Close()
	problems := []string{}
	for rows.Next() {
		var row string
		if err := rows.Scan(&row); err != nil {
			return problems, err
		}
		// A row may hold several findings, one a line, under a "*** in database main ***" title.
		for _, line := range strings.Split(row, "\n") {
			if line = strings.TrimSpace(line); line != "ok" && line != "" && !strings.HasPrefix(line, "*** ") {
				problems = append(problems, line)
			}
		}
	}
	return problems, rows.Err()
}

// IntegrityCheck runs the full PRAGMA integrity_check (every page, every index against its
// table), without a time bound: `agentdesk doctor` calls it. SQLite is interrupted when ctx
// ends, and the error is ctx's.
func (s *Store) IntegrityCheck(ctx context.Context) ([]string, error) {
	sqlDB, err := s.db.DB()
	if err != nil {
		return nil, storeErr(err)
	}
	problems, err := checkRows(ctx, sqlDB, "integrity_check")
	if err != nil && ctx.Err() != nil {
		return problems, ctx.Err()
	}
	if isDamage(err) {
		return append(problems, err.Error()), nil
	}
	if err == nil && len(problems) == 0 {
		s.sound.Store(true)
	}
	return problems, storeErr(err)
}

func unreadable(path string, err error) error {
	if isDamage(err) {
		return damagedErr(path, err.Error())
	}
	return errs.Wrap(errs.StoreFailure, err, "Path", path)
}

// notAgentDesk refuses a file that is not an AgentDesk database; why is kept as the cause.
func notAgentDesk(path, why string) error {
	e := errs.New(errs.NotAgentDeskDatabase, backupArgs(path, "Path", path)...)
	e.Err = errors.New(why)
	return e
}

// damagedErr is what every write of a damaged database returns: what SQLite found, and the
// newest backup to restore.
func damagedErr(path, problem string) *errs.Error {
	first, _, _ := strings.Cut(problem, "\n")
	return errs.New(errs.DatabaseDamaged, backupArgs(path, "Path", path, "Problem", first)...)
}

// backupArgs adds where the backups are and the newest one ("—" when there is none).
func backupArgs(path string, kv ...any) []any {
	newest := lastBackup(path)
	if newest == "" {
		newest = "—"
	}
	return append(kv, "Backups", filepath.Join(filepath.Dir(path), BackupDir), "Backup", newest)
}
