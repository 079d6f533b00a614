package store

import "gorm.io/gorm"

// migrations is the ordered, append-only list of schema steps; index i builds version i+1.
var migrations = []migration{
	{name: "sessions, events, settings, maintenance log", up: createFoundation},
}

func createFoundation(tx *gorm.DB) error {
	return execAll(tx,
		`CREATE TABLE sessions (
			id TEXT PRIMARY KEY,
			title TEXT NOT NULL,
			workspace TEXT NOT NULL,
			created_at DATETIME NOT NULL,
			updated_at DATETIME NOT NULL)`,
		`CREATE INDEX idx_sessions_updated_at ON sessions(updated_at)`,
		`CREATE TABLE events (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
			seq INTEGER NOT NULL,
			type TEXT NOT NULL,
			payload TEXT NOT NULL DEFAULT '{}',
			created_at DATETIME NOT NULL,
			UNIQUE(session_id, seq))`,
		// The event log is append-only: rows may go with their session, never change.
		`CREATE TRIGGER events_append_only BEFORE UPDATE ON events
			BEGIN SELECT RAISE(ABORT, 'events are append-only'); END`,
		`CREATE TABLE settings (
			key TEXT PRIMARY KEY,
			value TEXT NOT NULL,
			updated_at DATETIME NOT NULL)`,
		`CREATE TABLE maintenance_log (
			id INTEGER PRIMARY KEY AUTOINCREMENT,
			repair TEXT NOT NULL,
			table_name TEXT NOT NULL,
			row_id TEXT NOT NULL,
			column_name TEXT NOT NULL,
			old_value TEXT NOT NULL,
			new_value TEXT NOT NULL,
			applied_at DATETIME NOT NULL)`,
	)
}

func execAll(tx *gorm.DB, stmts ...string) error {
	for _, s := range stmts {
		if err := tx.Exec(s).Error; err != nil {
			return err
		}
	}
	return nil
}
