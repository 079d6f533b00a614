package store

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// A migration moves the schema one version forward. Migrations are never edited once shipped
// and never drop data; the version is PRAGMA user_version, and each step is also recorded in
// schema_migrations with the time it ran.
type migration struct {
	name string
	up   func(tx *gorm.DB) error
}

// MigrationReport tells what Open did to the schema.
type MigrationReport struct {
	From, To int
	Backup   string
}

// refuseNewer reads user_version straight from the file header (bytes 60..63), so a database
// from a newer build is refused before SQLite ever opens, and is left byte-for-byte untouched.
func refuseNewer(path string, supported int) error {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	defer f.Close()
	header := make([]byte, 100)
	if _, err := io.ReadFull(f, header); err != nil {
		return nil // empty or tiny file: SQLite decides below
	}
	if found := int(binary.BigEndian.Uint32(header[60:64])); found > supported {
		return errs.New(errs.SchemaTooNew, "Path", path, "Found", found, "Supported", supported)
	}
	return nil
}

func migrate(db *gorm.DB, path string, steps []migration) (MigrationReport, error) {
	var from int
	if err := db.Raw("PRAGMA user_version").Scan(&from).Error; err != nil {
		return MigrationReport{}, storeErr(err)
	}
	rep := MigrationReport{From: from, To: from}
	if from > len(steps) { // the header was stale (an uncheckpointed WAL); still refuse
		return rep, errs.New(errs.SchemaTooNew, "Path", path, "Found", from, "Supported", len(steps))
	}
	if from == len(steps) {
		return rep, nil
	}
	if from > 0 {
		backup, err := backupFile(db, path, from)
		if err != nil {
			return rep, err
		}
		rep.Backup = backup
	}
	for v := from; v < len(steps); v++ {
		if err := applyStep(db, v+1, steps[v]); err != nil {
			return rep, err
		}
		rep.To = v + 1
	}
	return rep, nil
}

func applyStep(db *gorm.DB, version int, step migration) error {
	err := db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DATETIME NOT NULL)`).Error; err != nil {
			return err
		}
		if err := step.up(tx); err != nil {
			return err
		}
		if err := tx.Exec("INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
			version, step.name, time.Now().UTC()).Error; err != nil {
			return err
		}
		return tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", version)).Error
	})
	if err != nil {
		return errs.Wrap(errs.StoreFailure, fmt.Errorf("migration %d (%s): %w", version, step.name, err))
	}
	return nil
}

// backupFile writes a consistent copy of the database (VACUUM INTO) next to it before any
// migration touches it.
func backupFile(db *gorm.DB, path string, version int) (string, error) {
	dir := filepath.Join(filepath.Dir(path), "backups")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", errs.Wrap(errs.StoreFailure, err, "Path", dir)
	}
	stamp := time.Now().UTC().Format("20060102T150405.000000000")
	dest := filepath.Join(dir, fmt.Sprintf("%s.v%d.%s.bak", FileName, version, stamp))
	if err := db.Exec("VACUUM INTO ?", dest).Error; err != nil {
		return "", errs.Wrap(errs.StoreFailure, err, "Path", dest)
	}
	return dest, nil
}
