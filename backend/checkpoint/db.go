package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"agentdesk/backend/errs"
)

// FileName is the snapshot database inside the data folder.
const FileName = "checkpoints.db"

// Options bound what a snapshot keeps.
type Options struct {
	// Quota is the most the stored blobs may take, compressed; the oldest snapshots go first.
	Quota int64
	// MaxFileSize is the largest file stored whole; larger ones are recorded by hash only.
	MaxFileSize int64
	// Secrets are gitignore-style patterns of files never stored (DefaultSecrets when nil).
	Secrets []string
	// MaxFiles is the most files a snapshot walks: a bigger folder (a home folder, say) is not
	// snapshotted at all rather than read for minutes (TooLarge).
	MaxFiles int
}

// Defaults: a 2 GB quota, files up to 16 MB stored whole, folders up to 100,000 files.
const (
	DefaultQuota       = 2 << 30
	DefaultMaxFileSize = 16 << 20
	DefaultMaxFiles    = 100_000
)

// DefaultSecrets are the files a snapshot never stores unless Settings says otherwise.
var DefaultSecrets = []string{".env", ".env.*", "*.pem", "*.key", "id_*", "*.p12", "*.pfx", "*.keystore", "*.jks",
	".netrc", ".npmrc", ".pypirc", "*.kdbx", ".ssh/", ".aws/", ".gnupg/"}

func (o Options) withDefaults() Options {
	if o.Quota <= 0 {
		o.Quota = DefaultQuota
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if o.Secrets == nil {
		o.Secrets = DefaultSecrets
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	return o
}

// Configure changes the options of a store in use (Settings): the next snapshot follows them,
// and a smaller quota prunes at once.
func (s *Store) Configure(opts Options) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts = opts.withDefaults()
	return s.pruneLocked()
}

// Options are the options in force.
func (s *Store) Options() Options {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts
}

// Store is the snapshot database of one data folder.
type Store struct {
	db   *gorm.DB
	path string
	opts Options
	// mu serializes this process's snapshots and restores; last remembers each workspace's
	// newest manifest so unchanged files are not read again.
	mu        sync.Mutex
	last      map[string]scanned
	manifests manifestCache
}

// scanned is a workspace's manifest, when the walk that made it began, and what it left out.
type scanned struct {
	entries map[string]Entry
	began   time.Time
	rules   *rules
}

// schema is the store's forward-only migrations; user_version counts those applied.
var schema = []string{
	`CREATE TABLE blobs (hash TEXT PRIMARY KEY, size INTEGER NOT NULL, stored INTEGER NOT NULL, data BLOB NOT NULL)`,
	`CREATE TABLE checkpoints (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, turn_id TEXT NOT NULL DEFAULT '',
		workspace TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL DEFAULT '', manifest TEXT NOT NULL,
		files INTEGER NOT NULL, bytes INTEGER NOT NULL, created_at DATETIME NOT NULL)`,
	`CREATE INDEX checkpoints_session ON checkpoints (session_id, id)`,
	`CREATE INDEX checkpoints_workspace ON checkpoints (workspace, id)`,
	// A write or an edit waiting for the person's review before it is applied: the file as it
	// was (base, '' when it did not exist) and as the agent would have it (proposed), as blobs.
	`CREATE TABLE staged (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, turn_id TEXT NOT NULL,
		call_id TEXT NOT NULL, path TEXT NOT NULL, base TEXT NOT NULL, proposed TEXT NOT NULL, created_at DATETIME NOT NULL)`,
}

// Open opens (creating if needed) the snapshot database in dataDir.
func Open(dataDir string, opts Options) (*Store, error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", dataDir)
	}
	path := filepath.Join(dataDir, FileName)
	// auto_vacuum must be chosen before the first table exists: pruning then gives space back.
	dsn := "file:" + path + "?_pragma=auto_vacuum(INCREMENTAL)&_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)" +
		"&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Default.LogMode(logger.Silent),
		NowFunc: func() time.Time { return time.Now().UTC() }})
	if err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", path)
	}
	s := &Store{db: db, path: path, opts: opts.withDefaults(), last: map[string]scanned{}}
	if err := s.migrate(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) migrate() error {
	return s.db.Transaction(func(tx *gorm.DB) error {
		var v int
		if err := tx.Raw("PRAGMA user_version").Scan(&v).Error; err != nil {
			return storeErr(err)
		}
		if v > len(schema) {
			return errs.New(errs.SchemaTooNew, "Path", s.path, "Found", v, "Supported", len(schema))
		}
		for _, stmt := range schema[v:] {
			if err := tx.Exec(stmt).Error; err != nil {
				return storeErr(err)
			}
		}
		return storeErr(tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(schema))).Error)
	})
}

// Close releases the database.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

func storeErr(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*errs.Error); ok {
		return err
	}
	return errs.Wrap(errs.StoreFailure, err)
}
