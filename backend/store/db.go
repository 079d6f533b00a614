// Package store keeps AgentDesk's state in one SQLite file through GORM: sessions, their
// append-only event log, settings and the boot-maintenance log.
package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
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
}

// Open opens (creating if needed) the database in dataDir, refuses a newer schema without
// touching the file, backs the file up before migrating, then runs boot maintenance.
func Open(dataDir string) (*Store, error) {
	return open(dataDir, migrations, repairs)
}

func open(dataDir string, steps []migration, fixes []Repair) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", dataDir)
	}
	path := filepath.Join(dataDir, FileName)
	if err := refuseNewer(path, len(steps)); err != nil {
		return nil, err
	}
	db, err := gorm.Open(sqlite.Open(dsn(path)), &gorm.Config{
		Logger:         logger.Default.LogMode(logger.Silent),
		NowFunc:        func() time.Time { return time.Now().UTC() },
		TranslateError: true,
	})
	if err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	s := &Store{db: db, path: path, owner: newOwner()}
	if s.Migrated, err = migrate(db, path, steps); err != nil {
		s.Close()
		return nil, err
	}
	if s.Maintenance, err = runMaintenance(db, fixes); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// dsn turns on WAL, a busy timeout and foreign keys for every pooled connection.
func dsn(path string) string {
	return "file:" + path +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close releases the database.
func (s *Store) Close() error {
	openOwners.Delete(s.owner)
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
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
