// Package store keeps AgentDesk's state in one SQLite file through GORM: sessions, their
// append-only event log, settings and the boot-maintenance log.
package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"agentdesk/backend/errs"
)

// FileName is the database file inside the data folder.
const FileName = "agentdesk.db"

// Store is an open database plus what happened while opening it.
type Store struct {
	db          *gorm.DB
	path        string
	owner       string // this open store's name on the turns it runs
	Migrated    MigrationReport
	Maintenance MaintenanceReport
	Integrity   Integrity
	// StaleBackups lists the partial backups of killed runs that this open removed.
	StaleBackups []string

	factsMu sync.Mutex // SetAgentFact reads and rewrites one setting

	damageMu sync.RWMutex
	damage   *errs.Error // set once the file is known to be damaged: the store is read-only
	// sound is set when a check found the file sound (at open, or doctor's): Close then records
	// the file it leaves, so the next open need not read a gigabyte to find it unchanged.
	sound atomic.Bool
	// units counts the units of work begun (write), so a test or benchmark can say how many
	// transactions one operation costs.
	units atomic.Uint64
}

// Open opens (creating if needed) the database in dataDir. It refuses, without writing
// anything, a file that is not an AgentDesk database and one from a newer AgentDesk (also when
// only its WAL says so); it opens a damaged one read-only; otherwise it backs the file up before
// migrating, then runs boot maintenance.
func Open(dataDir string) (*Store, error) {
	return open(dataDir, migrations, repairs)
}

func open(dataDir string, steps []migration, fixes []Repair) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", dataDir)
	}
	path := filepath.Join(dataDir, FileName)
	stale := cleanBackups(dataDir)
	cleanSpools(dataDir)
	check, err := inspect(path, len(steps))
	if err != nil {
		return nil, err
	}
	damaged := len(check.Problems) > 0
	db, err := gorm.Open(sqlite.Open(dsn(path, damaged)), &gorm.Config{
		Logger:                 logger.Default.LogMode(logger.Silent),
		NowFunc:                func() time.Time { return time.Now().UTC() },
		TranslateError:         true,
		SkipDefaultTransaction: true, // every write is already a unit of work (write)
	})
	if err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	s := &Store{db: db, path: path, owner: newOwner(), Integrity: check, StaleBackups: stale,
		Maintenance: MaintenanceReport{Changes: []Change{}, Repairs: []string{}}}
	if damaged {
		s.damage = damagedErr(path, check.Problems[0])
		return s, nil
	}
	s.sound.Store(check.Checked)
	if s.Migrated, err = s.migrate(steps); err != nil {
		s.Close()
		return nil, err
	}
	if s.Maintenance, err = s.runMaintenance(fixes); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// dsn sets, for every pooled connection, a busy timeout first (so the pragmas after it wait
// for a lock rather than fail), WAL and foreign keys, and BEGIN IMMEDIATE for every
// transaction. A damaged file is opened read-only, so SQLite itself refuses every write.
func dsn(path string, readOnly bool) string {
	busy := fmt.Sprintf("_pragma=busy_timeout(%d)", busyTimeout.Milliseconds())
	if readOnly {
		return "file:" + path + "?mode=ro&" + busy + "&_pragma=foreign_keys(1)"
	}
	return "file:" + path + "?" + busy + "&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// busyTimeout is how long SQLite waits for a lock before it reports busy.
var busyTimeout = 5 * time.Second

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close releases the database.
func (s *Store) Close() error {
	openOwners.Delete(s.owner)
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	if err := sqlDB.Close(); err != nil {
		return err
	}
	if s.sound.Load() && s.Damage() == nil {
		recordSound(s.path)
	}
	return nil
}

// SchemaVersion reports the version recorded in the database.
func (s *Store) SchemaVersion() (int, error) {
	var v int
	err := s.db.Raw("PRAGMA user_version").Scan(&v).Error
	return v, err
}

// SupportedSchema is the newest schema this build knows.
func SupportedSchema() int { return len(migrations) }

func storeErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return errs.Wrap(errs.NotFound, err)
	}
	var e *errs.Error
	if errors.As(err, &e) {
		return err
	}
	return errs.Wrap(errs.StoreFailure, fmt.Errorf("%w", err))
}

// notFound names the missing row of a lookup by id.
func notFound(err error, id string) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return errs.New(errs.NotFound, "ID", id)
	}
	return err
}
