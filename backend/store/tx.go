package store

import (
	"errors"
	"math/rand/v2"
	"time"

	gosqlite "github.com/glebarez/go-sqlite"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// SQLite's primary result codes the store acts on (the driver reports extended codes; the low
// byte is the primary one).
const (
	codeBusy     = 5
	codeLocked   = 6
	codeReadOnly = 8
	codeCorrupt  = 11
	codeNotADB   = 26
)

// Retries bound how often one unit of work starts again after SQLite said busy: the busy
// timeout (5 s per attempt) already waits for a lock, so a retry is only for what it does not
// cover (a lock held past it, a WAL being recovered by another process).
const (
	maxAttempts = 6
	retryBase   = 20 * time.Millisecond
)

// write runs fn as one unit of work: one transaction, begun IMMEDIATE (the DSN's _txlock), so it
// holds the write lock from BEGIN on and never has to upgrade a read lock half way (the upgrade
// SQLite refuses at once, busy timeout or not, when another connection wrote meanwhile).
// fn may run more than once: it must build its results afresh each time.
func (s *Store) write(fn func(tx *gorm.DB) error) error {
	if err := s.writable(); err != nil {
		return err
	}
	s.units.Add(1)
	var err error
	for attempt := 1; ; attempt++ {
		err = s.db.Transaction(fn)
		if !isBusy(err) || attempt == maxAttempts {
			break
		}
		time.Sleep(backoff(attempt))
	}
	return s.fail(err)
}

// Units is how many units of work this store has begun, retries not counted again.
func (s *Store) Units() uint64 { return s.units.Load() }

// backoff waits longer after each busy attempt, with jitter so competing processes spread out.
func backoff(attempt int) time.Duration {
	d := retryBase << (attempt - 1)
	return d/2 + rand.N(d)
}

func sqliteCode(err error) int {
	var e *gosqlite.Error
	if errors.As(err, &e) {
		return e.Code() & 0xff
	}
	return 0
}

func isBusy(err error) bool {
	c := sqliteCode(err)
	return c == codeBusy || c == codeLocked
}

func isDamage(err error) bool {
	c := sqliteCode(err)
	return c == codeCorrupt || c == codeNotADB
}

// fail classifies an error of the database. Damage found while working turns the store
// read-only at once: nothing more is written into a malformed file.
func (s *Store) fail(err error) error {
	if err == nil {
		return nil
	}
	if isDamage(err) {
		s.markDamaged(err.Error())
		return s.writable()
	}
	if sqliteCode(err) == codeReadOnly && s.Damage() != nil {
		return s.writable()
	}
	return storeErr(err)
}

// writable is nil, or the DATABASE_DAMAGED error every write returns on a damaged database.
func (s *Store) writable() error {
	if d := s.Damage(); d != nil {
		return d
	}
	return nil
}

// Damage is why this store is read-only, or nil when it may write.
func (s *Store) Damage() *errs.Error {
	s.damageMu.RLock()
	defer s.damageMu.RUnlock()
	return s.damage
}

func (s *Store) markDamaged(problem string) {
	s.damageMu.Lock()
	defer s.damageMu.Unlock()
	if s.damage == nil {
		s.damage = damagedErr(s.path, problem)
	}
}
