package eventlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Entry is one stored event before decoding.
type Entry struct {
	Seq     int64
	Type    string
	Payload []byte
	At      time.Time
}

// Record is one decoded entry, in log order.
type Record struct {
	Seq     int64
	At      time.Time
	Payload Payload
}

// Read decodes a log in order; an entry that cannot be read becomes Unreadable in its place.
func Read(entries []Entry) []Record {
	out := make([]Record, len(entries))
	for i, e := range entries {
		out[i] = Record{Seq: e.Seq, At: e.At, Payload: Decode(e.Seq, e.Type, e.Payload)}
	}
	return out
}

// Decode reads one stored payload of type typ. It never fails: what cannot be read is returned
// as Unreadable, naming why.
func Decode(seq int64, typ string, raw []byte) Payload {
	p, err := decode(typ, raw)
	if err != nil {
		return Unreadable{Seq: seq, Type: typ, Reason: err.Error()}
	}
	return p
}

// decoders holds, for every type, how to read its payload.
var decoders = map[string]func(raw []byte) (Event, error){
	TypeUserMessage:      decodeAs[UserMessage],
	TypeAssistantMessage: decodeAs[AssistantMessage],
	TypeQueuedMessage:    decodeAs[QueuedMessage],
	TypeToolResult:       decodeAs[ToolResult],
	TypeDirectTool:       decodeAs[DirectTool],
	TypeContextCleared:   decodeAs[ContextCleared],
	TypeModeSet:          decodeAs[ModeSet],
	TypePermissionSet:    decodeAs[PermissionSet],
	TypeCheckpoint:       decodeAs[Checkpoint],
	TypeRestore:          decodeAs[Restore],
	TypeReview:           decodeAs[Review],
	TypeContextCompacted: decodeAs[ContextCompacted],
	TypeWorktreeCopied:   decodeAs[WorktreeCopied],
	TypeWorktreeSetup:    decodeAs[WorktreeSetup],
}

func decode(typ string, raw []byte) (Event, error) {
	d, ok := decoders[typ]
	if !ok {
		return nil, fmt.Errorf("unknown event type %q", typ)
	}
	return d(raw)
}

// validated is an event that can tell whether its decoded fields make sense.
type validated interface {
	Event
	validate() error
}

// decodeAs reads a JSON object into T and validates it; the payload of every type is an object.
func decodeAs[T validated](raw []byte) (Event, error) {
	var v T
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("the payload is not a JSON object")
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if err := v.validate(); err != nil {
		return nil, err
	}
	return v, nil
}

func required(fields ...string) error {
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i+1] == "" {
			return fmt.Errorf("%s is missing", fields[i])
		}
	}
	return nil
}

func (m UserMessage) validate() error   { return required("turn_id", m.TurnID) }
func (m QueuedMessage) validate() error { return required("message_id", m.MessageID) }
func (m ToolResult) validate() error    { return required("turn_id", m.TurnID, "call_id", m.CallID) }
func (m DirectTool) validate() error    { return required("callId", m.CallID, "name", m.Name) }
func (ContextCleared) validate() error  { return nil }
func (ModeSet) validate() error         { return nil } // unknown values fold, fail-closed (ModeInForce)
func (m PermissionSet) validate() error { return required("permission_mode", m.PermissionMode) }

func (m AssistantMessage) validate() error {
	if err := required("turn_id", m.TurnID); err != nil {
		return err
	}
	for i, c := range m.ToolCalls {
		if c.ID == "" || c.Name == "" {
			return fmt.Errorf("tool_calls[%d] needs an id and a name", i)
		}
	}
	return nil
}
