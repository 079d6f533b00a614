package store

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
)

// Turn statuses.
const (
	TurnRunning     = "running"
	TurnDone        = "done"
	TurnFailed      = "failed"
	TurnCancelled   = "cancelled"
	TurnInterrupted = "interrupted"
)

// Turn is one user message and everything the agent did until it stopped. It records the
// preference it ran under and the execution mode resolved for it, with the router's reason.
type Turn struct {
	ID                string `gorm:"primaryKey"`
	SessionID         string
	Seq               int64
	Prompt            string
	InteractionMode   string
	ExecutionOverride string
	Temporary         bool
	ExecutionMode     string
	ReasonKey         string
	ReasonArgs        string
	Status            string
	Error             string
	Owner             string
	CreatedAt         time.Time
	EndedAt           *time.Time
}

// TurnStart asks for a turn: the message, and the preference it runs under. Save records that
// preference as the session's, with the turn; a Temporary one is stored on the turn only, never on
// the session (R-MODE-6).
type TurnStart struct {
	SessionID  string
	Prompt     string
	Preference mode.Preference
	Save       bool
	Temporary  bool
	// Title names the session after the message when this is its first turn.
	Title FirstTitle
}

// FirstTitle is the title a session takes from its first turn's message, while its own title
// is still one of Defaults (the default title in each language): a title the person chose is
// never replaced. An empty Title names nothing.
type FirstTitle struct {
	Title    string
	Defaults []string
}

// StartedTurn is a turn just recorded as running, with the preference it runs under, the
// execution mode resolved for it and the workspace it runs in.
type StartedTurn struct {
	Turn       Turn
	Preference mode.Preference
	Decision   mode.Decision
	Workspace  string
}

// StartTurn is one unit of work: the preference saved when asked, the turn resolved and recorded
// as running under this store's owner, and the message that starts it in the log.
func (s *Store) StartTurn(in TurnStart) (StartedTurn, error) {
	if in.Save && in.Temporary {
		return StartedTurn{}, errs.New(errs.InvalidInput, "Field", "temporary")
	}
	if err := in.Preference.Validate(); err != nil {
		return StartedTurn{}, err
	}
	var out StartedTurn
	err := s.write(func(tx *gorm.DB) error {
		var err error
		out, err = startTurn(tx, s.owner, in)
		return err
	})
	return out, err
}

func startTurn(tx *gorm.DB, owner string, in TurnStart) (StartedTurn, error) {
	if in.Save {
		if err := setPreference(tx, in.SessionID, in.Preference); err != nil {
			return StartedTurn{}, err
		}
	}
	var sess Session
	if err := tx.Where("id = ?", in.SessionID).Take(&sess).Error; err != nil {
		return StartedTurn{}, notFound(err, in.SessionID)
	}
	if err := nameAfterFirstTurn(tx, sess, in.Title); err != nil {
		return StartedTurn{}, err
	}
	// The previous turn's mode is what a bare "carry on" keeps (mode.RouteAfter).
	var previous []string
	if err := tx.Raw("SELECT execution_mode FROM turns WHERE session_id = ? ORDER BY seq DESC LIMIT 1",
		in.SessionID).Scan(&previous).Error; err != nil {
		return StartedTurn{}, err
	}
	var last mode.ExecutionMode
	if len(previous) > 0 {
		last = mode.ExecutionMode(previous[0])
	}
	d := mode.Resolve(in.Preference, in.Prompt, last)
	t, err := newTurn(owner, in, d)
	if err != nil {
		return StartedTurn{}, err
	}
	var seq []int64
	if err := tx.Raw("UPDATE sessions SET turn_seq = turn_seq + 1, running_turn = ? WHERE id = ? RETURNING turn_seq",
		t.ID, in.SessionID).Scan(&seq).Error; err != nil {
		return StartedTurn{}, err
	}
	t.Seq = seq[0]
	if err := tx.Create(&t).Error; err != nil {
		return StartedTurn{}, err
	}
	if _, err := appendEvent(tx, in.SessionID, eventlog.UserMessage{TurnID: t.ID, Text: in.Prompt}); err != nil {
		return StartedTurn{}, err
	}
	return StartedTurn{Turn: t, Preference: in.Preference, Decision: d, Workspace: sess.Workspace}, nil
}

// nameAfterFirstTurn gives sess its first turn's title, before that turn is recorded.
func nameAfterFirstTurn(tx *gorm.DB, sess Session, t FirstTitle) error {
	if t.Title == "" || !slices.Contains(t.Defaults, sess.Title) {
		return nil
	}
	var turned bool
	if err := tx.Raw("SELECT EXISTS(SELECT 1 FROM turns WHERE session_id = ?)", sess.ID).Scan(&turned).Error; err != nil || turned {
		return err
	}
	return updateSession(tx, sess.ID, map[string]any{"title": t.Title, "updated_at": time.Now().UTC()})
}

func newTurn(owner string, in TurnStart, d mode.Decision) (Turn, error) {
	args, err := json.Marshal(d.ReasonArgs)
	if err != nil {
		return Turn{}, errs.Wrap(errs.Internal, err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Turn{}, errs.Wrap(errs.Internal, err)
	}
	p := in.Preference
	return Turn{ID: id.String(), SessionID: in.SessionID, Prompt: in.Prompt, InteractionMode: string(p.Interaction),
		ExecutionOverride: string(p.Override), Temporary: in.Temporary, ExecutionMode: string(d.Mode),
		ReasonKey: d.ReasonKey, ReasonArgs: string(args), Status: TurnRunning, Owner: owner,
		CreatedAt: time.Now().UTC()}, nil
}

// EndTurn records how a running turn ended, and that its session runs none now.
func (s *Store) EndTurn(id, status, failure string) error {
	return s.write(func(tx *gorm.DB) error {
		var t Turn
		if err := tx.Where("id = ? AND status = ?", id, TurnRunning).Take(&t).Error; err != nil {
			return notFound(err, id)
		}
		if err := tx.Model(&Turn{}).Where("id = ?", id).
			Updates(map[string]any{"status": status, "error": failure, "ended_at": time.Now().UTC()}).Error; err != nil {
			return err
		}
		return clearRunning(tx, t.SessionID, id)
	})
}

// clearRunning says a session runs no turn now, if turn was the one it ran.
func clearRunning(tx *gorm.DB, sessionID, turn string) error {
	return tx.Exec("UPDATE sessions SET running_turn = '' WHERE id = ? AND running_turn = ?", sessionID, turn).Error
}

// Turns lists a session's turns in order.
func (s *Store) Turns(sessionID string) ([]Turn, error) {
	var out []Turn
	err := s.db.Where("session_id = ?", sessionID).Order("seq").Find(&out).Error
	return out, s.fail(err)
}

// TurnsByID reads the named turns of a session, in order: those a page of its log belongs to.
func (s *Store) TurnsByID(sessionID string, ids []string) ([]Turn, error) {
	out := []Turn{}
	for len(ids) > 0 {
		n := min(len(ids), insertBatch)
		var rows []Turn
		if err := s.db.Where("session_id = ? AND id IN ?", sessionID, ids[:n]).Find(&rows).Error; err != nil {
			return nil, s.fail(err)
		}
		out, ids = append(out, rows...), ids[n:]
	}
	slices.SortFunc(out, func(a, b Turn) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}
