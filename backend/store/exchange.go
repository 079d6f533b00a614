package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
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

// EventTypes lists every event type a session's log holds, and so every type an import accepts.
var EventTypes = eventlog.Types

// TurnStatuses lists every status a turn can hold, and so every status an import accepts.
var TurnStatuses = []string{TurnRunning, TurnDone, TurnFailed, TurnCancelled, TurnInterrupted}

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

// ParseExport reads an export file: its JSON and its format. It checks nothing else; ImportExport
// validates the contents.
func ParseExport(data []byte) (Export, error) {
	var in Export
	if err := json.Unmarshal(data, &in); err != nil {
		return Export{}, errs.Wrap(errs.InvalidInput, err, "Field", "file")
	}
	if in.Format != ExportFormat {
		return Export{}, errs.Invalid("format", in.Format, []string{ExportFormat})
	}
	return in, nil
}

// ImportSession parses an export file and imports it with ImportExport. It does not look at the
// file system: a file from a person goes through session.Service.Import, which checks the
// workspace and narrows what the store refuses.
func (s *Store) ImportSession(data []byte) (Session, error) {
	in, err := ParseExport(data)
	if err != nil {
		return Session{}, err
	}
	return s.ImportExport(in)
}

// ImportExport writes an exported session in one transaction: all of it or none of it. Every
// value is checked before anything is written. Retired spellings fold to canonical values;
// unknown values, event types and turn statuses are rejected (R-DATA-2), so an import can never
// bring in a value that would read differently than it was meant. Full access is refused too: a
// file cannot give the confirmation it needs, so a caller taking a file from a person narrows it
// first and says so (session.Service.Import, which also resolves the workspace).
func (s *Store) ImportExport(in Export) (Session, error) {
	row, err := importedRow(in.Session)
	if err != nil {
		return Session{}, err
	}
	events, err := importedEvents(in.Events)
	if err != nil {
		return Session{}, err
	}
	turns, err := importedTurns(in.Turns)
	if err != nil {
		return Session{}, err
	}
	row.EventSeq = int64(len(events))
	for _, t := range turns {
		row.TurnSeq = max(row.TurnSeq, t.Seq)
	}
	if err := s.write(func(tx *gorm.DB) error { return writeImport(tx, row, events, turns) }); err != nil {
		return Session{}, err
	}
	return s.GetSession(row.ID)
}

func writeImport(tx *gorm.DB, row Session, events []Event, turns []Turn) error {
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
	// Fresh copies: a unit of work may run again, and Create writes the ids it got into rows.
	events, turns = slices.Clone(events), slices.Clone(turns)
	for i := range events {
		events[i].SessionID, events[i].ID = row.ID, 0
	}
	for i := range turns {
		turns[i].SessionID = row.ID
	}
	if len(events) > 0 {
		if err := tx.Create(&events).Error; err != nil {
			return err
		}
	}
	if len(turns) > 0 {
		return tx.Create(&turns).Error
	}
	return nil
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
	perm, err := importablePermission(in.PermissionMode)
	if err != nil {
		return Session{}, err
	}
	now := time.Now().UTC()
	row := Session{ID: in.ID, Title: in.Title, Workspace: in.Workspace, InteractionMode: string(pref.Interaction),
		ExecutionOverride: string(pref.Override), PermissionMode: string(perm),
		CreatedAt: in.CreatedAt, UpdatedAt: in.UpdatedAt}
	if row.CreatedAt.IsZero() {
		row.CreatedAt = now
	}
	if row.UpdatedAt.IsZero() {
		row.UpdatedAt = now
	}
	return row, nil
}

// importablePermission folds a stored permission through the one decoder and refuses what a
// file cannot grant: Full access (in any spelling) and unknown values, which must never widen.
func importablePermission(raw string) (policy.PermissionMode, error) {
	p, ok := policy.DecodePermission(raw)
	if !ok || p.NeedsConfirmation() {
		var allowed []string
		for _, m := range policy.PermissionModes {
			if !m.NeedsConfirmation() {
				allowed = append(allowed, string(m))
			}
		}
		return "", errs.Invalid("permission_mode", raw, allowed)
	}
	return p, nil
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

// importedEvents checks every event's type and payload and folds stored values in payloads to
// canonical spellings. Events are renumbered from 1 in file order.
func importedEvents(in []ExportedEvent) ([]Event, error) {
	out := make([]Event, len(in))
	for i, e := range in {
		if !slices.Contains(EventTypes, e.Type) {
			return nil, errs.Invalid(fmt.Sprintf("events[%d].type", i), e.Type, EventTypes)
		}
		if len(e.Payload) == 0 {
			return nil, errs.New(errs.InvalidInput, "Field", fmt.Sprintf("events[%d].payload", i))
		}
		payload, err := canonicalPayload(i, e)
		if err != nil {
			return nil, err
		}
		out[i] = Event{Seq: int64(i + 1), Type: e.Type, Payload: payload, CreatedAt: e.CreatedAt}
		if out[i].CreatedAt.IsZero() {
			out[i].CreatedAt = time.Now().UTC()
		}
	}
	return out, nil
}

// canonicalPayload reads a payload with the one event-log decoder, refusing what no reader
// could show, and rewrites the stored values of mode.set and permission.set through their
// decoders; other payloads are kept byte for byte. A permission.set may say full: it is
// history, not the permission in force, which is the session's column.
func canonicalPayload(i int, e ExportedEvent) (string, error) {
	field := fmt.Sprintf("events[%d].payload", i)
	switch p := eventlog.Decode(int64(i+1), e.Type, e.Payload).(type) {
	case eventlog.Unreadable:
		return "", errs.Wrap(errs.InvalidInput, errors.New(p.Reason), "Field", field)
	case eventlog.ModeSet:
		pref, err := importedPreference(p.InteractionMode, p.ExecutionOverride)
		if err != nil {
			return "", err
		}
		return encoded(eventlog.NewModeSet(pref))
	case eventlog.PermissionSet:
		perm, ok := policy.DecodePermission(p.PermissionMode)
		if !ok {
			_, err := policy.ParsePermission(p.PermissionMode)
			return "", err
		}
		return encoded(eventlog.PermissionSet{PermissionMode: string(perm)})
	}
	return string(e.Payload), nil
}

func encoded(e eventlog.Event) (string, error) {
	body, err := eventlog.Encode(e)
	if err != nil {
		return "", errs.Wrap(errs.Internal, err)
	}
	return string(body), nil
}

// importedTurns checks every turn's status, preference and execution mode, folding them to
// canonical values. A turn that was running when exported cannot be running here: no process
// of this machine owns it, so it comes in as interrupted.
func importedTurns(in []Turn) ([]Turn, error) {
	out := make([]Turn, len(in))
	for i, t := range in {
		if !slices.Contains(TurnStatuses, t.Status) {
			return nil, errs.Invalid(fmt.Sprintf("turns[%d].status", i), t.Status, TurnStatuses)
		}
		if t.Status == TurnRunning {
			t.Status = TurnInterrupted
		}
		p, err := importedPreference(t.InteractionMode, t.ExecutionOverride)
		if err != nil {
			return nil, err
		}
		t.InteractionMode, t.ExecutionOverride = string(p.Interaction), string(p.Override)
		if _, ok := mode.DecodeExecutionMode(t.ExecutionMode); !ok {
			return nil, errs.Invalid(fmt.Sprintf("turns[%d].execution_mode", i), t.ExecutionMode, executionModeNames())
		}
		out[i] = t
	}
	return out, nil
}

func executionModeNames() []string {
	var out []string
	for _, m := range mode.ExecutionModes {
		out = append(out, string(m))
	}
	return out
}
