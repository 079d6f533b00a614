package store

import (
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// Session is one conversation with the agent over a workspace folder.
// Mode and permission columns hold what was stored, verbatim; read them through Preference and
// Permission, which fold retired spellings and fail closed on anything else.
type Session struct {
	ID                string `gorm:"primaryKey"`
	Title             string
	Workspace         string
	InteractionMode   string
	ExecutionOverride string
	PermissionMode    string
	ExternalAgent     string
	// EventSeq and TurnSeq are the numbers of the session's last event and last turn: the
	// counters the next ones are numbered from, inside their own transaction.
	EventSeq int64
	TurnSeq  int64
	// ModeSet and RunningTurn summarize the log for its readers, in the same transaction as
	// the event or turn that changes them: the payload of the last mode.set, verbatim (nil when
	// the log holds none; the mode in force, see InForce), and the id of the running turn (""
	// when none runs). UpdatedAt is the last activity: every event touches it.
	ModeSet     *string
	RunningTurn string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// InForce is the session's mode in force (R-PLAN-1), read from its row: the fold of its log,
// kept with it.
func (s Session) InForce() mode.State {
	var last []byte
	if s.ModeSet != nil {
		last = []byte(*s.ModeSet)
	}
	return eventlog.ModeInForce(s.Preference().Preference, last)
}

// NewSession is what a caller supplies to create a session. A nil Preference means plain Smart;
// a nil Permission means the default in force at create time (R-AUTH-2). ExternalAgent, when
// set, is the command line of the external ACP agent the session runs on (R-ACP-2).
type NewSession struct {
	Title         string
	Workspace     string
	Preference    *mode.Preference
	Permission    *policy.PermissionMode
	ExternalAgent string
}

// ListSessions returns every session, most recently active first. Readers that show sessions
// page through them with SessionsPage; this is for those that need each one (tests, tools).
func (s *Store) ListSessions() ([]Session, error) {
	var out []Session
	err := s.db.Order("updated_at DESC, id DESC").Find(&out).Error
	return out, s.fail(err)
}

// InvalidCursor: a list was asked to continue after a position that is not one of its own.
const InvalidCursor errs.Kind = "INVALID_CURSOR"

// MaxPage bounds a page of sessions.
const MaxPage = 1000

// SessionRange selects a page of the session list, most recently active first: Limit sessions
// after the cursor After ("" for the first page), over one Workspace when it is set.
type SessionRange struct {
	After     string
	Limit     int
	Workspace string
}

// SessionPage is a page of sessions and the cursor of the next page ("" after the last one).
type SessionPage struct {
	Sessions []Session
	Next     string
}

// SessionsPage reads one page of the session list by keyset on (updated_at, id): a page costs
// the same on the first page and the hundredth, and sessions that become active meanwhile move
// to the top without shifting the pages after the cursor.
func (s *Store) SessionsPage(r SessionRange) (SessionPage, error) {
	if r.Limit < 1 || r.Limit > MaxPage {
		return SessionPage{}, errs.Invalid("limit", strconv.Itoa(r.Limit), []string{"1–" + strconv.Itoa(MaxPage)})
	}
	where, args := []string{"1"}, []any{}
	if r.Workspace != "" {
		where, args = append(where, "workspace = ?"), append(args, r.Workspace)
	}
	if r.After != "" {
		at, id, err := ParseCursor(r.After)
		if err != nil {
			return SessionPage{}, err
		}
		where, args = append(where, "(updated_at, id) < (?, ?)"), append(args, at, id)
	}
	rows, err := s.scanSessions("SELECT "+sessionColumns+" FROM sessions WHERE "+strings.Join(where, " AND ")+
		" ORDER BY updated_at DESC, id DESC LIMIT ?", append(args, r.Limit+1)...)
	if err != nil {
		return SessionPage{}, s.fail(err)
	}
	page := SessionPage{Sessions: rows[:min(len(rows), r.Limit)]}
	if len(rows) > r.Limit {
		page.Next = Cursor(page.Sessions[r.Limit-1])
	}
	return page, nil
}

// sessionColumns are the columns scanSessions reads, in its order.
const sessionColumns = `id, title, workspace, interaction_mode, execution_override, permission_mode, external_agent,
	event_seq, turn_seq, mode_set, running_turn, created_at, updated_at`

// scanSessions reads session rows straight into their fields: a list of thousands of sessions
// is read at every start, and GORM's reflection per row was most of its cost.
func (s *Store) scanSessions(query string, args ...any) ([]Session, error) {
	rows, err := s.db.Raw(query, args...).Rows()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Session{}
	for rows.Next() {
		var v Session
		if err := rows.Scan(&v.ID, &v.Title, &v.Workspace, &v.InteractionMode, &v.ExecutionOverride, &v.PermissionMode,
			&v.ExternalAgent, &v.EventSeq, &v.TurnSeq, &v.ModeSet, &v.RunningTurn, &v.CreatedAt, &v.UpdatedAt); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Cursor is the position just after a session in the list: its last activity and its id.
func Cursor(s Session) string {
	return s.UpdatedAt.UTC().Format(time.RFC3339Nano) + "~" + s.ID
}

// ParseCursor reads a position written by Cursor.
func ParseCursor(c string) (time.Time, string, error) {
	at, id, ok := strings.Cut(c, "~")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return time.Time{}, "", errs.New(InvalidCursor, "Value", c)
	}
	return t.UTC(), id, nil
}

// GetSession returns one session or a NOT_FOUND error.
func (s *Store) GetSession(id string) (Session, error) {
	var out Session
	err := s.db.Where("id = ?", id).Take(&out).Error
	if err == gorm.ErrRecordNotFound {
		return out, errs.New(errs.NotFound, "ID", id)
	}
	return out, s.fail(err)
}

// CreateSession inserts a session with a fresh time-ordered id, its permission (the default
// when none is given), its external agent if any, and the first mode.set of its log: one unit of
// work, so a session is never seen half made.
func (s *Store) CreateSession(in NewSession) (Session, error) {
	row, pref, err := newSessionRow(in)
	if err != nil {
		return Session{}, err
	}
	var out Session
	err = s.write(func(tx *gorm.DB) error {
		fresh := row
		if in.Permission == nil {
			def, err := defaultPermission(tx)
			if err != nil {
				return err
			}
			fresh.PermissionMode = string(def.Mode)
		}
		if err := tx.Create(&fresh).Error; err != nil {
			return err
		}
		if _, err := appendEvent(tx, fresh.ID, eventlog.NewModeSet(pref)); err != nil {
			return err
		}
		return tx.Where("id = ?", fresh.ID).Take(&out).Error
	})
	return out, err
}

// newSessionRow validates a new session; only canonical values are ever written (R-DATA-2).
func newSessionRow(in NewSession) (Session, mode.Preference, error) {
	title := strings.TrimSpace(in.Title)
	if title == "" {
		return Session{}, mode.Preference{}, errs.New(errs.InvalidInput, "Field", "title")
	}
	if strings.TrimSpace(in.Workspace) == "" {
		return Session{}, mode.Preference{}, errs.New(errs.InvalidInput, "Field", "workspace")
	}
	pref := mode.Default
	if in.Preference != nil {
		pref = *in.Preference
	}
	if err := pref.Validate(); err != nil {
		return Session{}, pref, err
	}
	row := Session{Title: title, Workspace: in.Workspace, InteractionMode: string(pref.Interaction),
		ExecutionOverride: string(pref.Override), ExternalAgent: strings.TrimSpace(in.ExternalAgent)}
	if in.Permission != nil {
		if _, err := policy.ParsePermission(string(*in.Permission)); err != nil {
			return Session{}, pref, err
		}
		row.PermissionMode = string(*in.Permission)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return Session{}, pref, errs.Wrap(errs.Internal, err)
	}
	row.ID = id.String()
	return row, pref, nil
}

// RenameSession changes a session's title.
func (s *Store) RenameSession(id, title string) (Session, error) {
	title = strings.TrimSpace(title)
	if title == "" {
		return Session{}, errs.New(errs.InvalidInput, "Field", "title")
	}
	err := s.write(func(tx *gorm.DB) error {
		return updateSession(tx, id, map[string]any{"title": title, "updated_at": time.Now().UTC()})
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(id)
}

// updateSession changes columns of one session; a missing session is NOT_FOUND.
func updateSession(tx *gorm.DB, id string, cols map[string]any) error {
	res := tx.Model(&Session{}).Where("id = ?", id).Updates(cols)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return nil
}

// DeleteSession removes a session and, by cascade, its events, turns, queue and decisions.
func (s *Store) DeleteSession(id string) error {
	return s.write(func(tx *gorm.DB) error {
		res := tx.Where("id = ?", id).Delete(&Session{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		return nil
	})
}
