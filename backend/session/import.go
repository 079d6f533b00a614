package session

import (
	"io"

	"agentdesk/backend/policy"
	"agentdesk/backend/store"
	"agentdesk/backend/workspace"
)

// Reasons an import narrowed a value; each has the message "exchange.narrowed." + reason.
const (
	// NarrowNeedsConfirmation: the value needs the person's explicit confirmation (Full access,
	// R-GATE-3), which a file cannot give.
	NarrowNeedsConfirmation = "needs_confirmation"
	// NarrowUnrecognized: the value was not one the decoder knows; it reads fail-closed.
	NarrowUnrecognized = "unrecognized"
)

// NarrowReasons lists every reason, so a test can check each has a message.
var NarrowReasons = []string{NarrowNeedsConfirmation, NarrowUnrecognized}

// Narrowed records one value an import replaced with a narrower one, so the command can say so.
type Narrowed struct {
	Field  string `json:"field"`
	From   string `json:"from"`
	To     string `json:"to"`
	Reason string `json:"reason"`
}

// MessageKey is the locale key of the line that reports n.
func (n Narrowed) MessageKey() string { return "exchange.narrowed." + n.Reason }

// Imported is an imported session and what the import narrowed (never nil, so --json output
// always has the list).
type Imported struct {
	View
	Narrowed []Narrowed `json:"narrowed"`
}

// ImportOptions are what the person said on importing.
type ImportOptions struct {
	// ConfirmHome allows a file whose workspace is the home folder: a file cannot give that
	// consent, the person importing it can.
	ConfirmHome bool
}

// Import writes an export file as a new session, validated like every other write path: the
// workspace passes the same rule as a new session's (workspace.Resolve) and is stored resolved; the permission a file may carry is at most auto;
// everything else is checked by the store's importer, and nothing is written unless all of it
// is valid. The file is read as a stream: any size, in bounded memory.
func (s *Service) Import(r io.Reader, opts ImportOptions) (Imported, error) {
	out := Imported{Narrowed: []Narrowed{}}
	row, err := s.Store.ImportStream(r, func(in *store.ExportedSession) error {
		var err error
		if in.Workspace, err = workspace.Resolve(in.Workspace, opts.ConfirmHome); err != nil {
			return err
		}
		perm, narrowed := importedPermission(in.PermissionMode)
		if narrowed != nil {
			out.Narrowed = append(out.Narrowed, *narrowed)
		}
		in.PermissionMode = string(perm)
		return nil
	})
	if err != nil {
		return Imported{}, err
	}
	out.View, err = s.View(row.ID)
	return out, err
}

// importedPermission is the permission an imported session gets. Full access — in any
// spelling — needs the person's explicit confirmation, which a file cannot give, and an unknown
// value must never widen: both come in as ask and are reported. Retired spellings of ask and
// auto fold, as on every read of a stored value (R-DATA-3).
func importedPermission(raw string) (policy.PermissionMode, *Narrowed) {
	p, ok := policy.DecodePermission(raw)
	reason := ""
	switch {
	case !ok:
		reason = NarrowUnrecognized
	case p.NeedsConfirmation():
		reason = NarrowNeedsConfirmation
	default:
		return p, nil
	}
	return policy.Ask, &Narrowed{Field: "permission_mode", From: raw, To: string(policy.Ask), Reason: reason}
}
