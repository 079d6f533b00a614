package store

import (
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

// Queue item kinds, as stored.
const (
	queueSwitch  = "switch"
	queueMessage = "message"
)

// queueRow is one item of a session's turn-boundary queue (R-MODE-5); the queue's order is the
// row id's. A switch keeps its values as given and folds when read, like every stored value.
type queueRow struct {
	ID                int64 `gorm:"primaryKey"`
	SessionID         string
	Kind              string
	InteractionMode   string
	ExecutionOverride string
	MessageID         string
	CreatedAt         time.Time
}

func (queueRow) TableName() string { return "queue_items" }

func (r queueRow) item() mode.QueueItem {
	if r.Kind == queueMessage {
		return mode.QueueItem{MessageID: r.MessageID}
	}
	p := mode.DecodePreference(r.InteractionMode, r.ExecutionOverride).Preference
	return mode.QueueItem{Switch: &p}
}

func switchRow(sessionID string, p mode.Preference) queueRow {
	return queueRow{SessionID: sessionID, Kind: queueSwitch, InteractionMode: string(p.Interaction),
		ExecutionOverride: string(p.Override), CreatedAt: time.Now().UTC()}
}

func queueRows(tx *gorm.DB, sessionID string) ([]queueRow, error) {
	var rows []queueRow
	err := tx.Where("session_id = ?", sessionID).Order("id").Find(&rows).Error
	return rows, err
}

// readQueue is the session's queue, with its rows in the same order; a missing session is
// NOT_FOUND.
func readQueue(tx *gorm.DB, sessionID string) (mode.Queue, []queueRow, error) {
	var n int64
	if err := tx.Model(&Session{}).Where("id = ?", sessionID).Count(&n).Error; err != nil {
		return mode.Queue{}, nil, err
	}
	if n == 0 {
		return mode.Queue{}, nil, errs.New(errs.NotFound, "ID", sessionID)
	}
	rows, err := queueRows(tx, sessionID)
	if err != nil {
		return mode.Queue{}, nil, err
	}
	items := make([]mode.QueueItem, len(rows))
	for i, r := range rows {
		items[i] = r.item()
	}
	q, err := mode.QueueOf(items)
	return q, rows, err
}

// queueAfter reads the queue once an operation changed it.
func queueAfter(tx *gorm.DB, sessionID string, q *mode.Queue) error {
	var err error
	*q, _, err = readQueue(tx, sessionID)
	return err
}

// Queue reads a session's persisted turn-boundary queue (R-MODE-5).
func (s *Store) Queue(id string) (mode.Queue, error) {
	q, _, err := readQueue(s.db, id)
	return q, s.fail(err)
}

// EnqueueSwitch puts a mode switch at the end of the queue, for the next turn boundary.
func (s *Store) EnqueueSwitch(id string, p mode.Preference) (mode.Queue, error) {
	if err := p.Validate(); err != nil {
		return mode.Queue{}, err
	}
	var q mode.Queue
	err := s.write(func(tx *gorm.DB) error {
		if _, _, err := readQueue(tx, id); err != nil {
			return err
		}
		row := switchRow(id, p)
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return queueAfter(tx, id, &q)
	})
	return q, err
}

// Enqueued is a message that waits for the boundary. Switch, when set, is the preference the
// message asked for; it is queued just before the message, so it applies to that turn and after.
type Enqueued struct {
	Switch  *mode.Preference
	Message eventlog.QueuedMessage
}

// EnqueueMessage is one unit of work: the message in the log, then its switch and itself at the
// end of the queue.
func (s *Store) EnqueueMessage(id string, in Enqueued) (mode.Queue, error) {
	if in.Message.MessageID == "" {
		return mode.Queue{}, errs.New(errs.InvalidInput, "Field", "message_id")
	}
	if in.Switch != nil {
		if err := in.Switch.Validate(); err != nil {
			return mode.Queue{}, err
		}
	}
	var q mode.Queue
	err := s.write(func(tx *gorm.DB) error {
		if _, err := appendEvent(tx, id, in.Message); err != nil {
			return err
		}
		if in.Switch != nil {
			row := switchRow(id, *in.Switch)
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		}
		row := queueRow{SessionID: id, Kind: queueMessage, MessageID: in.Message.MessageID, CreatedAt: time.Now().UTC()}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		return queueAfter(tx, id, &q)
	})
	return q, err
}

// UnqueueSwitch cancels the queued switch at index i (in Items order) before it applies.
// Messages cannot be taken back this way: NOT_FOUND.
func (s *Store) UnqueueSwitch(id string, i int) (mode.Queue, error) {
	var q mode.Queue
	err := s.write(func(tx *gorm.DB) error {
		current, rows, err := readQueue(tx, id)
		if err != nil {
			return err
		}
		if q, err = current.WithoutSwitch(i); err != nil {
			return err
		}
		return tx.Delete(&queueRow{}, rows[i].ID).Error
	})
	return q, err
}

// Boundary is what a turn boundary did.
type Boundary struct {
	// Applied are the switches that took effect, in order.
	Applied []mode.Preference
	// Turn is the queued message's turn, started; nil when only switches were queued.
	Turn *StartedTurn
	// Lost is a queued message whose entry in the log cannot be read: it is taken off the
	// queue (it cannot run), and the unreadable entry shows in the transcript and in doctor.
	Lost string
	// Queue is what still waits.
	Queue mode.Queue
}

// ApplyBoundary is the turn boundary as one unit of work (R-MODE-5, strict FIFO): the switches
// queued before the first message apply in order, each with its mode.set, and that message's
// turn starts under the mode then in force (or its one-turn override). Either all of it is
// committed or none of it, and every failure is returned.
func (s *Store) ApplyBoundary(id string) (Boundary, error) {
	var b Boundary
	err := s.write(func(tx *gorm.DB) error {
		var err error
		b, err = applyBoundary(tx, s.owner, id)
		return err
	})
	return b, err
}

// applyBoundary takes what mode.Queue.Drain says the boundary applies (the one definition of
// the queue's order) off the front of the rows.
func applyBoundary(tx *gorm.DB, owner, id string) (Boundary, error) {
	q, rows, err := readQueue(tx, id)
	if err != nil {
		return Boundary{}, err
	}
	drained, rest := q.Drain()
	taken := len(drained.Switches)
	if drained.MessageID != "" {
		taken++
	}
	b := Boundary{Queue: rest}
	for _, p := range drained.Switches {
		if err := setPreference(tx, id, p); err != nil {
			return Boundary{}, err
		}
		b.Applied = append(b.Applied, p)
	}
	for _, r := range rows[:taken] {
		if err := tx.Delete(&queueRow{}, r.ID).Error; err != nil {
			return Boundary{}, err
		}
	}
	if drained.MessageID != "" {
		if err := startQueued(tx, owner, id, drained.MessageID, &b); err != nil {
			return Boundary{}, err
		}
	}
	return b, nil
}

// startQueued starts the turn of a queued message, read from its message.queued entry.
func startQueued(tx *gorm.DB, owner, id, messageID string, b *Boundary) error {
	msg, ok, err := queuedMessage(tx, id, messageID)
	if err != nil {
		return err
	}
	if !ok {
		b.Lost = messageID
		return nil
	}
	in := TurnStart{SessionID: id, Prompt: msg.Text}
	if p := msg.TemporaryPreference(); p != nil {
		in.Preference, in.Temporary = *p, true
	} else {
		current, err := modeInForce(tx, id)
		if err != nil {
			return err
		}
		in.Preference = current.Preference
	}
	started, err := startTurn(tx, owner, in)
	if err != nil {
		return err
	}
	b.Turn = &started
	return nil
}

// queuedMessage finds the message.queued entry of a message, newest first.
func queuedMessage(tx *gorm.DB, id, messageID string) (eventlog.QueuedMessage, bool, error) {
	var rows []Event
	if err := tx.Where("session_id = ? AND type = ?", id, eventlog.TypeQueuedMessage).Order("seq DESC").
		Find(&rows).Error; err != nil {
		return eventlog.QueuedMessage{}, false, err
	}
	for _, r := range rows {
		if m, ok := eventlog.Decode(r.Seq, r.Type, []byte(r.Payload)).(eventlog.QueuedMessage); ok && m.MessageID == messageID {
			return m, true, nil
		}
	}
	return eventlog.QueuedMessage{}, false, nil
}
