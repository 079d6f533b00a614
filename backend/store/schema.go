package store

import (
	"fmt"
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

func (s *Store) migrate(steps []migration) (MigrationReport, error) {
	from, err := s.SchemaVersion()
	if err != nil {
		return MigrationReport{}, s.fail(err)
	}
	rep := MigrationReport{From: from, To: from}
	if from > len(steps) { // written between inspect and now; still refuse
		return rep, errs.New(errs.SchemaTooNew, "Path", s.path, "Found", from, "Supported", len(steps))
	}
	if from == len(steps) {
		return rep, nil
	}
	if from > 0 {
		backup, err := backupFile(s.db, s.path, from)
		if err != nil {
			return rep, err
		}
		rep.Backup = backup
	}
	for v := from; v < len(steps); v++ {
		if err := s.applyStep(v+1, steps[v]); err != nil {
			return rep, err
		}
		rep.To = v + 1
	}
	return rep, nil
}

// applyStep runs one step in its own write transaction. Another process opening the same
// folder may have run it meanwhile: the version is read again under the write lock, and a step
// already applied is skipped.
func (s *Store) applyStep(version int, step migration) error {
	err := s.write(func(tx *gorm.DB) error {
		var current int
		if err := tx.Raw("PRAGMA user_version").Scan(&current).Error; err != nil {
			return err
		}
		if current >= version {
			return nil
		}
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
	if err != nil && errs.KindOf(err) == errs.StoreFailure {
		return errs.Wrap(errs.StoreFailure, fmt.Errorf("migration %d (%s): %w", version, step.name, err))
	}
	return err
}
