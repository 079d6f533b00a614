package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
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

// ExportSession reads a session, its log and its turns into memory; ExportTo writes the same
// document as a stream, for a session of any size.
func (s *Store) ExportSession(id string) (Export, error) {
	var buf bytes.Buffer
	if err := s.ExportTo(&buf, id); err != nil {
		return Export{}, err
	}
	return ParseExport(buf.Bytes())
}

// ExportTo writes a session, its log and its turns as one export document, reading the log a
// page at a time: memory stays bounded whatever the size of the session. The document is
// indented as a whole would be (json.Encoder with two spaces), byte for byte.
func (s *Store) ExportTo(w io.Writer, id string) error {
	sess, err := s.GetSession(id)
	if err != nil {
		return err
	}
	turns, err := s.Turns(id)
	if err != nil {
		return err
	}
	if turns == nil {
		turns = []Turn{}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	head := ExportedSession{ID: sess.ID, Title: sess.Title, Workspace: sess.Workspace,
		InteractionMode: sess.InteractionMode, ExecutionOverride: sess.ExecutionOverride,
		PermissionMode: sess.PermissionMode, CreatedAt: sess.CreatedAt, UpdatedAt: sess.UpdatedAt}
	fmt.Fprintf(bw, "{\n  \"format\": %q,\n  \"session\": ", ExportFormat)
	if err := writeIndented(bw, "  ", head); err != nil {
		return err
	}
	bw.WriteString(",\n  \"events\": [")
	n := 0
	err = s.EachEvent(id, func(e Event) error {
		if n++; n > 1 {
			bw.WriteString(",")
		}
		bw.WriteString("\n    ")
		return writeIndented(bw, "    ", ExportedEvent{Seq: e.Seq, Type: e.Type, Payload: json.RawMessage(e.Payload), CreatedAt: e.CreatedAt})
	})
	if err != nil {
		return err
	}
	if n > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("],\n  \"turns\": ")
	if err := writeIndented(bw, "  ", turns); err != nil {
		return err
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

func writeIndented(w io.Writer, prefix string, v any) error {
	b, err := json.MarshalIndent(v, prefix, "  ")
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	_, err = w.Write(b)
	return err
}

// ParseExport reads an export file held in memory: its JSON and its format. It checks nothing
// else; ImportExport validates the contents.
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

// ImportSession imports an export file read as a stream: ImportStream with nothing to adjust.
// It does not look at the file system: a file from a person goes through
// session.Service.Import, which checks the workspace and narrows what the store refuses.
func (s *Store) ImportSession(r io.Reader) (Session, error) {
	return s.ImportStream(r, nil)
}

// ImportExport writes an exported session held in memory, through the same checks and the same
// one transaction as ImportStream.
func (s *Store) ImportExport(in Export) (Session, error) {
	imp, err := s.newImporter(nil)
	if err != nil {
		return Session{}, err
	}
	defer imp.close()
	if in.Format != "" && in.Format != ExportFormat {
		return Session{}, errs.Invalid("format", in.Format, []string{ExportFormat})
	}
	imp.format = ExportFormat
	if err := imp.session(in.Session); err != nil {
		return Session{}, err
	}
	for i, e := range in.Events {
		if err := imp.event(i, e); err != nil {
			return Session{}, err
		}
	}
	for i, t := range in.Turns {
		if err := imp.turn(i, t); err != nil {
			return Session{}, err
		}
	}
	return imp.commit()
}

// ImportStream writes an export file as a new session, in one transaction: all of it or none
// of it. The file is read as a stream and every value is checked before anything is written:
// each event and turn is checked as it is read and spooled to a file beside the database, so
// memory stays bounded whatever the size of the file, and the write lock is held only while the
// checked rows are inserted, a few hundred to a statement. adjust, when set, may change the
// session's row as read from the file (the workspace, the permission) before it is checked.
//
// Retired spellings fold to canonical values; unknown values, event types and turn statuses are
// rejected (R-DATA-2), so an import can never bring in a value that would read differently than
// it was meant. Full access is refused too: a file cannot give the confirmation it needs, so a
// caller taking a file from a person narrows it first and says so (session.Service.Import, which
// also resolves the workspace).
func (s *Store) ImportStream(r io.Reader, adjust func(*ExportedSession) error) (Session, error) {
	imp, err := s.newImporter(adjust)
	if err != nil {
		return Session{}, err
	}
	defer imp.close()
	if err := readExport(r, imp); err != nil {
		return Session{}, err
	}
	if imp.format != ExportFormat {
		return Session{}, errs.Invalid("format", imp.format, []string{ExportFormat})
	}
	return imp.commit()
}

// readExport walks an export document as a stream of tokens, handing the session, each event
// and each turn to imp as it comes.
func readExport(r io.Reader, imp *importer) error {
	dec := json.NewDecoder(bufio.NewReaderSize(r, 64<<10))
	bad := func(err error) error { return errs.Wrap(errs.InvalidInput, err, "Field", "file") }
	if err := expectDelim(dec, '{'); err != nil {
		return bad(err)
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return bad(err)
		}
		switch key {
		case "format":
			err = dec.Decode(&imp.format)
		case "session":
			var sess ExportedSession
			if err = dec.Decode(&sess); err == nil {
				if err := imp.session(sess); err != nil {
					return err
				}
			}
		case "events":
			err = eachElement(dec, func(i int) error {
				var e ExportedEvent
				if err := dec.Decode(&e); err != nil {
					return bad(err)
				}
				return imp.event(i, e)
			})
		case "turns":
			err = eachElement(dec, func(i int) error {
				var t Turn
				if err := dec.Decode(&t); err != nil {
					return bad(err)
				}
				return imp.turn(i, t)
			})
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			if _, ok := err.(*errs.Error); ok {
				return err
			}
			return bad(err)
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return bad(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return bad(errors.New("data after the export document"))
	}
	return nil
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("expected %q, found %v", d, tok)
	}
	return nil
}

// eachElement calls fn for every element of the JSON array the decoder is at ("null" is none).
func eachElement(dec *json.Decoder, fn func(i int) error) error {
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("expected an array, found %v", tok)
	}
	for i := 0; dec.More(); i++ {
		if err := fn(i); err != nil {
			return err
		}
	}
	return expectDelim(dec, ']')
}
