package store

import (
	"encoding/json"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// ExportFormat names the session export file format.
const ExportFormat = "agentdesk.session.v1"

// Export is one session with its whole log and turns, as `sessions export` writes it.
type Export struct {
	Format  string          `json:"format"`
	Session ExportedSession `json:"session"`
	Events  []ExportedEvent `json:"events"`
	Turns   []Turn          `json:"turns"`
}

// ExportedSession is a session's row in an export.
type ExportedSession struct {
	ID                string    `json:"id"`
	Title             string    `json:"title"`
	Workspace         string    `json:"workspace"`
	InteractionMode   string    `json:"interaction_mode"`
	ExecutionOverride string    `json:"execution_override"`
	PermissionMode    string    `json:"permission_mode"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// ExportedEvent is one log entry; its payload is kept as raw JSON.
type ExportedEvent struct {
	Seq       int64           `json:"seq"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
	CreatedAt time.Time       `json:"created_at"`
}

// ExportSession reads a session, its log and its turns.
func (s *Store) ExportSession(id string) (Export, error) {
	sess, err := s.GetSession(id)
	if err != nil {
		return Export{}, err
	}
	evs, err := s.Events(id)
	if err != nil {
		return Export{}, err
	}
	turns, err := s.Turns(id)
	if err != nil {
		return Export{}, err
	}
	out := Export{Format: ExportFormat, Events: make([]ExportedEvent, len(evs)), Turns: turns,
		Session: ExportedSession{ID: sess.ID, Title: sess.Title, Workspace: sess.Workspace,
			InteractionMode: sess.InteractionMode, ExecutionOverride: sess.ExecutionOverride,
			PermissionMode: sess.PermissionMode, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt}}
	for i, e := range evs {
		out.Events[i] = ExportedEvent{Seq: e.Seq, Type: e.Type, Payload: json.RawMessage(e.Payload), CreatedAt: e.CreatedAt}
	}
	return out, nil
}

// ImportSession writes an exported session in one transaction: all of it or none of it.
// Retired spellings fold to canonical values; unknown values are rejected (R-DATA-2), so an
// import can never bring in a mode that would read differently than it was meant.
func (s *Store) ImportSession(data []byte) (Session, error) {
	var in Export
	if err := json.Unmarshal(data, &in); err != nil {
		return Session{}, errs.Wrap(errs.InvalidInput, err, "Field", "file")
	}
	if in.Format != ExportFormat {
		return Session{}, errs.Invalid("format", in.Format, []string{ExportFormat})
	}
	row, err := importedRow(in.Session)
	if err != nil {
		return Session{}, err
	}
	events, err := importedEvents(in.Events)
	if err != nil {
		return Session{}, err
	}
	err = s.db.Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&Session{}).Where("id = ?", row.ID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return errs.New(errs.AlreadyExists, "ID", row.ID)
		}
		if err := tx.Create(&row).Error; err != nil {
			return err
		}
		for i := range events {
			events[i].SessionID = row.ID
		}
		if len(events) > 0 {
			if err := tx.Create(&events).Error; err != nil {
				return err
			}
		}
		return importTurns(tx, row.ID, in.Turns)
	})
	if err != nil {
		return Session{}, storeErr(err)
	}
	return s.GetSession(row.ID)
}

func importedRow(in ExportedSession) (Session, error) {
	if strings.TrimSpace(in.ID) == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "session.id")
	}
	if strings.TrimSpace(in.Title) == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "session.title")
	}
	pref, err := importedPreference(in.InteractionMode, in.ExecutionOverride)
	if err != nil {
		return Session{}, err
	}
	perm, ok := policy.DecodePermission(in.PermissionMode)
	if !ok {
		_, err := policy.ParsePermission(in.PermissionMode)
		return Session{}, err
	}
	now := time.Now().UTC()
	row := Session{ID: in.ID, Title: in.Title, Workspace: in.Workspace, InteractionMode: string(pref.Interaction),
		ExecutionOverride: string(pref.Override), PermissionMode: string(perm), ModeQueue: emptyQueue,
		CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
	if row.CreatedAt.IsZero() {
		row.CreatedAt = now
	}
	if row.UpdatedAt.IsZero() {
		row.UpdatedAt = now
	}
	return row, nil
}

// importedPreference folds retired spellings and rejects anything the decoder did not recognize.
func importedPreference(interaction, override string) (mode.Preference, error) {
	d := mode.DecodePreference(interaction, override)
	if !d.Recognized() {
		u := d.Unrecognized[0]
		if u.Field == "interaction_mode" {
			_, err := mode.ParseInteraction(u.Raw)
			return mode.Preference{}, err
		}
		if _, err := mode.ParseOverride(u.Raw); err != nil {
			return mode.Preference{}, err
		}
		return mode.Preference{}, errs.New(mode.ChatWithOverride, "Override", u.Raw)
	}
	return d.Preference, nil
}

// importedEvents checks every payload and folds mode.set payloads to canonical spellings.
func importedEvents(in []ExportedEvent) ([]Event, error) {
	out := make([]Event, len(in))
	for i, e := range in {
		if e.Type == "" || !json.Valid(e.Payload) {
			return nil, errs.New(errs.InvalidInput, "Field", "events")
		}
		payload := string(e.Payload)
		if e.Type == mode.EventModeSet {
			var m mode.ModeSetPayload
			if err := json.Unmarshal(e.Payload, &m); err != nil {
				return nil, errs.Wrap(errs.InvalidInput, err, "Field", "events")
			}
			p, err := importedPreference(m.InteractionMode, m.ExecutionOverride)
			if err != nil {
				return nil, err
			}
			payload = string(mode.NewModeSet(p).Payload)
		}
		out[i] = Event{Seq: int64(i + 1), Type: e.Type, Payload: payload, CreatedAt: e.CreatedAt}
		if out[i].CreatedAt.IsZero() {
			out[i].CreatedAt = time.Now().UTC()
		}
	}
	return out, nil
}

func importTurns(tx *gorm.DB, sessionID string, turns []Turn) error {
	for _, t := range turns {
		t.SessionID = sessionID
		if _, ok := mode.DecodeExecutionMode(t.ExecutionMode); !ok {
			return errs.Invalid("execution_mode", t.ExecutionMode, executionModeNames())
		}
		if t.Status == TurnRunning {
			t.Status = TurnInterrupted
		}
		if err := tx.Create(&t).Error; err != nil {
			return err
		}
	}
	return nil
}

func executionModeNames() []string {
	var out []string
	for _, m := range mode.ExecutionModes {
		out = append(out, string(m))
	}
	return out
}
