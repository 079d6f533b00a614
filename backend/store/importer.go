package store

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// spoolPrefix names the file an import checks its rows into before it writes them; one left by
// a killed import is removed at the next open (cleanSpools).
const spoolPrefix = ".import-"

// importer takes an export apart as it is read: each value is checked at once and the checked
// rows are spooled to a file beside the database (never held in memory, never in a RAM-backed
// temporary folder), then commit writes them in one transaction. Spooling also makes the unit of
// work safe to run again after a busy retry: it reads the spool, not the stream.
type importer struct {
	s        *Store
	adjust   func(*ExportedSession) error
	format   string
	row      *Session
	spool    *os.File
	out      *bufio.Writer
	enc      *json.Encoder
	events   int64
	turns    int
	modeSet  *string
	lastTurn int64
}

// spooled is one line of the spool: an event or a turn, checked.
type spooled struct {
	Event *Event `json:"e,omitempty"`
	Turn  *Turn  `json:"t,omitempty"`
}

func (s *Store) newImporter(adjust func(*ExportedSession) error) (*importer, error) {
	dir := filepath.Dir(s.path)
	f, err := os.CreateTemp(dir, spoolPrefix+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return nil, errs.Wrap(errs.StoreFailure, err, "Path", dir)
	}
	imp := &importer{s: s, adjust: adjust, spool: f, out: bufio.NewWriterSize(f, 256<<10)}
	imp.enc = json.NewEncoder(imp.out)
	return imp, nil
}

func (imp *importer) close() {
	imp.spool.Close()
	os.Remove(imp.spool.Name())
}

func (imp *importer) session(in ExportedSession) error {
	if imp.row != nil {
		return errs.New(errs.InvalidInput, "Field", "file")
	}
	if imp.adjust != nil {
		if err := imp.adjust(&in); err != nil {
			return err
		}
	}
	row, err := importedRow(in)
	if err != nil {
		return err
	}
	imp.row = &row
	return nil
}

func (imp *importer) event(i int, e ExportedEvent) error {
	ev, err := importedEvent(i, e)
	if err != nil {
		return err
	}
	if ev.Type == eventlog.TypeModeSet {
		imp.modeSet = &ev.Payload
	}
	imp.events++
	return imp.write(spooled{Event: &ev})
}

func (imp *importer) turn(i int, t Turn) error {
	t, err := importedTurn(i, t)
	if err != nil {
		return err
	}
	imp.turns++
	imp.lastTurn = max(imp.lastTurn, t.Seq)
	return imp.write(spooled{Turn: &t})
}

func (imp *importer) write(line spooled) error {
	if err := imp.enc.Encode(line); err != nil {
		return errs.Wrap(errs.StoreFailure, err, "Path", imp.spool.Name())
	}
	return nil
}

// commit writes the session and the spooled rows in one unit of work.
func (imp *importer) commit() (Session, error) {
	if imp.row == nil {
		return Session{}, errs.New(errs.InvalidInput, "Field", "session.id")
	}
	if err := imp.out.Flush(); err != nil {
		return Session{}, errs.Wrap(errs.StoreFailure, err, "Path", imp.spool.Name())
	}
	row := *imp.row
	row.EventSeq, row.TurnSeq, row.ModeSet = imp.events, imp.lastTurn, imp.modeSet
	if err := imp.s.write(func(tx *gorm.DB) error { return imp.insert(tx, row) }); err != nil {
		return Session{}, err
	}
	return imp.s.GetSession(row.ID)
}

func (imp *importer) insert(tx *gorm.DB, row Session) error {
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
	if _, err := imp.spool.Seek(0, io.SeekStart); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReaderSize(imp.spool, 256<<10))
	var events []Event
	var turns []Turn
	for {
		var line spooled
		err := dec.Decode(&line)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		switch {
		case line.Event != nil:
			line.Event.SessionID = row.ID
			events = append(events, *line.Event)
		case line.Turn != nil:
			line.Turn.SessionID = row.ID
			turns = append(turns, *line.Turn)
		}
		if len(events) == insertBatch {
			if err := insertEvents(tx, events); err != nil {
				return err
			}
			events = events[:0]
		}
		if len(turns) == turnBatch {
			if err := tx.Create(&turns).Error; err != nil {
				return err
			}
			turns = turns[:0]
		}
	}
	if err := insertEvents(tx, events); err != nil {
		return err
	}
	if len(turns) > 0 {
		return tx.Create(&turns).Error
	}
	return nil
}

// turnBatch bounds the turns of one INSERT (a turn has 16 columns; see insertBatch).
const turnBatch = 100

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
		CreatedAt: in.CreatedAt.UTC(), UpdatedAt: in.UpdatedAt.UTC()}
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

// importedEvent checks the i-th event's type and payload and folds stored values in its payload
// to canonical spellings. Events are renumbered from 1 in file order.
func importedEvent(i int, e ExportedEvent) (Event, error) {
	if !slices.Contains(EventTypes, e.Type) {
		return Event{}, errs.Invalid(fmt.Sprintf("events[%d].type", i), e.Type, EventTypes)
	}
	if len(e.Payload) == 0 {
		return Event{}, errs.New(errs.InvalidInput, "Field", fmt.Sprintf("events[%d].payload", i))
	}
	payload, err := canonicalPayload(i, e)
	if err != nil {
		return Event{}, err
	}
	out := Event{Seq: int64(i + 1), Type: e.Type, Payload: payload, CreatedAt: e.CreatedAt.UTC()}
	if e.CreatedAt.IsZero() {
		out.CreatedAt = time.Now().UTC()
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

// importedTurn checks the i-th turn's status, preference and execution mode, folding them to
// canonical values. A turn that was running when exported cannot be running here: no process
// of this machine owns it, so it comes in as interrupted.
func importedTurn(i int, t Turn) (Turn, error) {
	if !slices.Contains(TurnStatuses, t.Status) {
		return Turn{}, errs.Invalid(fmt.Sprintf("turns[%d].status", i), t.Status, TurnStatuses)
	}
	if t.Status == TurnRunning {
		t.Status = TurnInterrupted
	}
	p, err := importedPreference(t.InteractionMode, t.ExecutionOverride)
	if err != nil {
		return Turn{}, err
	}
	t.InteractionMode, t.ExecutionOverride = string(p.Interaction), string(p.Override)
	if _, ok := mode.DecodeExecutionMode(t.ExecutionMode); !ok {
		return Turn{}, errs.Invalid(fmt.Sprintf("turns[%d].execution_mode", i), t.ExecutionMode, executionModeNames())
	}
	t.CreatedAt = t.CreatedAt.UTC()
	return t, nil
}

func executionModeNames() []string {
	var out []string
	for _, m := range mode.ExecutionModes {
		out = append(out, string(m))
	}
	return out
}

// cleanSpools removes the spools of imports whose process is gone (killed half way).
func cleanSpools(dataDir string) {
	entries, err := os.ReadDir(dataDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), spoolPrefix)
		pidText, _, cut := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if ok && cut && err == nil && pid != os.Getpid() && !processAlive(pid) {
			os.Remove(filepath.Join(dataDir, e.Name()))
		}
	}
}
