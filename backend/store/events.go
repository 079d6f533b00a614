package store

import (
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

// AppendStep adds one event at the end of a session's log (a step of a turn, a direct tool
// run, a /clear), as one unit of work.
func (s *Store) AppendStep(sessionID string, e eventlog.Event) (Event, error) {
	var ev Event
	err := s.write(func(tx *gorm.DB) error {
		var err error
		ev, err = appendEvent(tx, sessionID, e)
		return err
	})
	return ev, err
}

// appendEvent is the one place an event enters a log, inside the caller's transaction: it
// takes the event's number from the session's counter and touches the session in the same
// statement, so what the session row says about its log never lags the log.
func appendEvent(tx *gorm.DB, sessionID string, e eventlog.Event) (Event, error) {
	body, err := eventlog.Encode(e)
	if err != nil {
		return Event{}, errs.Wrap(errs.Internal, err)
	}
	now := time.Now().UTC()
	var seq []int64
	err = tx.Raw("UPDATE sessions SET updated_at = ?, event_seq = event_seq + 1 WHERE id = ? RETURNING event_seq",
		now, sessionID).Scan(&seq).Error
	if err != nil {
		return Event{}, err
	}
	if len(seq) == 0 {
		return Event{}, errs.New(errs.NotFound, "ID", sessionID)
	}
	ev := Event{SessionID: sessionID, Seq: seq[0], Type: e.LogType(), Payload: string(body), CreatedAt: now}
	return ev, tx.Create(&ev).Error
}

// Events returns a session's stored log in order, undecoded (export copies it verbatim).
func (s *Store) Events(sessionID string) ([]Event, error) {
	var out []Event
	err := s.db.Where("session_id = ?", sessionID).Order("seq").Find(&out).Error
	return out, s.fail(err)
}

// Log returns a session's log decoded, in order: what every reader walks.
func (s *Store) Log(sessionID string) ([]eventlog.Record, error) {
	rows, err := s.Events(sessionID)
	if err != nil {
		return nil, err
	}
	return records(rows), nil
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
// (`agentdesk doctor`).
func (s *Store) UnreadableEvents() ([]UnreadableEvent, error) {
	out := []UnreadableEvent{}
	var batch []Event
	err := s.db.Model(&Event{}).Order("id").FindInBatches(&batch, 1000, func(tx *gorm.DB, _ int) error {
		for _, e := range batch {
			if u, ok := eventlog.Decode(e.Seq, e.Type, []byte(e.Payload)).(eventlog.Unreadable); ok {
				out = append(out, UnreadableEvent{SessionID: e.SessionID, Unreadable: u})
			}
		}
		return nil
	}).Error
	return out, s.fail(err)
}
