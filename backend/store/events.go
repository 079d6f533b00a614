package store

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
)

// Event is one entry of a session's append-only log, as stored. Read it through Log, which
// decodes it with the one event-log decoder.
type Event struct {
	ID        int64 `gorm:"primaryKey"`
	SessionID string
	Seq       int64
	Type      string
	Payload   string
	CreatedAt time.Time
}

// Entry is the stored event as the event log reads it.
func (e Event) Entry() eventlog.Entry {
	return eventlog.Entry{Seq: e.Seq, Type: e.Type, Payload: []byte(e.Payload), At: e.CreatedAt}
}

// AppendStep adds one event at the end of a session's log (a direct tool run, a /clear), as
// one unit of work.
func (s *Store) AppendStep(sessionID string, e eventlog.Event) (Event, error) {
	evs, err := s.AppendSteps(sessionID, e)
	if err != nil {
		return Event{}, err
	}
	return evs[0], nil
}

// AppendSteps adds events at the end of a session's log, in order, as one unit of work: what
// one step of a turn recorded is written in one transaction.
func (s *Store) AppendSteps(sessionID string, es ...eventlog.Event) ([]Event, error) {
	if len(es) == 0 {
		return nil, nil
	}
	var out []Event
	err := s.write(func(tx *gorm.DB) error {
		var err error
		out, err = appendEvents(tx, sessionID, es)
		return err
	})
	return out, err
}

func appendEvent(tx *gorm.DB, sessionID string, e eventlog.Event) (Event, error) {
	evs, err := appendEvents(tx, sessionID, []eventlog.Event{e})
	if err != nil {
		return Event{}, err
	}
	return evs[0], nil
}

// appendEvents is the one place events enter a log, inside the caller's transaction: it takes
// their numbers from the session's counter and, in the same statement, touches the session and
// keeps its summary of the log (the last mode.set), so what the session row says about its log
// never lags the log.
func appendEvents(tx *gorm.DB, sessionID string, es []eventlog.Event) ([]Event, error) {
	rows := make([]Event, len(es))
	var modeSet *string
	for i, e := range es {
		body, err := eventlog.Encode(e)
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		rows[i] = Event{SessionID: sessionID, Type: e.LogType(), Payload: string(body)}
		if rows[i].Type == eventlog.TypeModeSet {
			modeSet = &rows[i].Payload
		}
	}
	now := time.Now().UTC()
	set, args := "updated_at = ?, event_seq = event_seq + ?", []any{now, len(rows)}
	if modeSet != nil {
		set, args = set+", mode_set = ?", append(args, *modeSet)
	}
	// OR ROLLBACK: a conflict would end the whole unit of work anyway, and saying so spares
	// SQLite the statement journal it keeps to undo one statement (RETURNING makes it one that
	// may need it): about a tenth of an append's CPU. Every call of a turn appends, so its
	// statements go to the transaction straight, past GORM's builder (an eighth of the rest).
	var last int64
	err := tx.Statement.ConnPool.QueryRowContext(tx.Statement.Context,
		"UPDATE OR ROLLBACK sessions SET "+set+" WHERE id = ? RETURNING event_seq", append(args, sessionID)...).Scan(&last)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errs.New(errs.NotFound, "ID", sessionID)
	}
	if err != nil {
		return nil, err
	}
	first := last - int64(len(rows)) + 1
	for i := range rows {
		rows[i].Seq, rows[i].CreatedAt = first+int64(i), now
	}
	return rows, insertEvents(tx, rows)
}

// insertBatch bounds the rows of one INSERT: SQLite takes at most 32,766 variables a statement,
// and an import of any size goes in statements of this many events.
const insertBatch = 500

// singleRows is how many rows are written one statement each. A statement of several rows may
// fail on its last (the foreign key to the session is checked at its end), so SQLite keeps a
// statement journal for it, a copy of every page it touches, to undo it alone; a statement of
// one row fails before it writes. A step of a call or two (the answer and a result) is cheaper
// in statements of one row; a longer one in one statement (the prepare of each costs more).
const singleRows = 3

// insertEvents writes rows as they are, in statements of at most insertBatch rows. OR ROLLBACK:
// a conflict ends the whole unit of work anyway (see appendEvents).
func insertEvents(tx *gorm.DB, rows []Event) error {
	if len(rows) <= singleRows {
		for _, r := range rows {
			if _, err := tx.Statement.ConnPool.ExecContext(tx.Statement.Context,
				"INSERT OR ROLLBACK INTO events (session_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)",
				r.SessionID, r.Seq, r.Type, r.Payload, r.CreatedAt); err != nil {
				return err
			}
		}
		return nil
	}
	for len(rows) > 0 {
		n := min(len(rows), insertBatch)
		var q strings.Builder
		q.WriteString("INSERT OR ROLLBACK INTO events (session_id, seq, type, payload, created_at) VALUES ")
		args := make([]any, 0, 5*n)
		for i, r := range rows[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?)")
			args = append(args, r.SessionID, r.Seq, r.Type, r.Payload, r.CreatedAt)
		}
		if _, err := tx.Statement.ConnPool.ExecContext(tx.Statement.Context, q.String(), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// Events returns a session's stored log in order, undecoded.
func (s *Store) Events(sessionID string) ([]Event, error) {
	var out []Event
	err := s.db.Where("session_id = ?", sessionID).Order("seq").Find(&out).Error
	return out, s.fail(err)
}

// Log returns a session's log decoded, in order: what every reader walks. It reads the whole
// log; the transcript reads pages (LogPage), and a running turn reads it once (agent history).
func (s *Store) Log(sessionID string) ([]eventlog.Record, error) {
	rows, err := s.Events(sessionID)
	if err != nil {
		return nil, err
	}
	return records(rows), nil
}

// LogAfter reads at most limit entries of a session's log after entry after, decoded, in order:
// what a reader that keeps the log in memory reads to catch up.
func (s *Store) LogAfter(sessionID string, after int64, limit int) ([]eventlog.Record, error) {
	var rows []Event
	err := s.db.Where("session_id = ? AND seq > ?", sessionID, after).Order("seq").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, s.fail(err)
	}
	return records(rows), nil
}

// LogRange selects a page of a session's log by event number: the Limit entries before Before
// (the newest when Before is 0), or, with After set, the Limit entries after After.
type LogRange struct {
	Before, After int64
	Limit         int
}

// LogPage is a page of a log, in order, and whether the log holds entries before it.
type LogPage struct {
	Records []eventlog.Record
	// More is true when older entries than the page's first exist (before it), or newer than its
	// last (after it, with LogRange.After).
	More bool
}

// LogPage reads one page of a session's log, by keyset on the event number; a missing session
// is NOT_FOUND.
func (s *Store) LogPage(sessionID string, r LogRange) (LogPage, error) {
	if r.Limit <= 0 {
		return LogPage{}, errs.Invalid("limit", strconv.Itoa(r.Limit), []string{"1…"})
	}
	if _, err := s.GetSession(sessionID); err != nil {
		return LogPage{}, err
	}
	var rows []Event
	q := s.db.Where("session_id = ?", sessionID).Limit(r.Limit + 1)
	switch {
	case r.After > 0:
		q = q.Where("seq > ?", r.After).Order("seq")
	case r.Before > 0:
		q = q.Where("seq < ?", r.Before).Order("seq DESC")
	default:
		q = q.Order("seq DESC")
	}
	if err := q.Find(&rows).Error; err != nil {
		return LogPage{}, s.fail(err)
	}
	page := LogPage{More: len(rows) > r.Limit}
	rows = rows[:min(len(rows), r.Limit)]
	if r.After == 0 {
		slices.Reverse(rows)
	}
	page.Records = records(rows)
	return page, nil
}

// ResultsAfter finds, after event after, the tool results of the given calls: a page of the
// transcript shows a call with its result, which may have been recorded after the page. It reads
// only tool.result entries, at most scanLimit of them.
func (s *Store) ResultsAfter(sessionID string, after int64, calls map[string]bool, scanLimit int) ([]eventlog.ToolResult, error) {
	out, calls := []eventlog.ToolResult{}, maps.Clone(calls)
	for scanned := 0; len(calls) > 0 && scanned < scanLimit; {
		n := min(200, scanLimit-scanned)
		var rows []Event
		err := s.db.Where("session_id = ? AND type = ? AND seq > ?", sessionID, eventlog.TypeToolResult, after).
			Order("seq").Limit(n).Find(&rows).Error
		if err != nil {
			return nil, s.fail(err)
		}
		for _, r := range rows {
			if res, ok := eventlog.Decode(r.Seq, r.Type, []byte(r.Payload)).(eventlog.ToolResult); ok && calls[res.CallID] {
				delete(calls, res.CallID)
				out = append(out, res)
			}
		}
		if scanned += len(rows); len(rows) < n {
			break
		}
		after = rows[len(rows)-1].Seq
	}
	return out, nil
}

// EachEvent hands a session's stored log to fn in order, a page at a time, so an export of any
// size holds one page in memory.
func (s *Store) EachEvent(sessionID string, fn func(Event) error) error {
	var after int64
	for {
		var rows []Event
		if err := s.db.Where("session_id = ? AND seq > ?", sessionID, after).Order("seq").Limit(1000).
			Find(&rows).Error; err != nil {
			return s.fail(err)
		}
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(rows) < 1000 {
			return nil
		}
		after = rows[len(rows)-1].Seq
	}
}

func records(rows []Event) []eventlog.Record {
	entries := make([]eventlog.Entry, len(rows))
	for i, r := range rows {
		entries[i] = r.Entry()
	}
	return eventlog.Read(entries)
}

// UnreadableEvent is a stored event no reader can decode, with the session it belongs to.
type UnreadableEvent struct {
	SessionID string `json:"session_id"`
	eventlog.Unreadable
}

// UnreadableEvents decodes every event of every session and lists those that cannot be read
// (`agentdesk doctor`); it stops, with ctx's error, at the entry after ctx ends. decoded, when
// not nil, is told after each batch how many entries were decoded so far.
func (s *Store) UnreadableEvents(ctx context.Context, decoded func(n int)) ([]UnreadableEvent, error) {
	out := []UnreadableEvent{}
	var batch []Event
	n := 0
	err := s.db.WithContext(ctx).Model(&Event{}).Order("id").FindInBatches(&batch, 1000, func(tx *gorm.DB, _ int) error {
		defer func() {
			if decoded != nil {
				decoded(n)
			}
		}()
		for _, e := range batch {
			if err := ctx.Err(); err != nil {
				return err
			}
			if u, ok := eventlog.Decode(e.Seq, e.Type, []byte(e.Payload)).(eventlog.Unreadable); ok {
				out = append(out, UnreadableEvent{SessionID: e.SessionID, Unreadable: u})
			}
			n++
		}
		return nil
	}).Error
	if err != nil && ctx.Err() != nil {
		return out, ctx.Err()
	}
	return out, s.fail(err)
}

// EventCount is how many entries the log of every session holds.
func (s *Store) EventCount(ctx context.Context) (int, error) {
	var n int64
	err := s.db.WithContext(ctx).Model(&Event{}).Count(&n).Error
	return int(n), s.fail(err)
}
