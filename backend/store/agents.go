package store

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agentdesk/backend/errs"
)

// SettingExternalAgents is the Settings list of external ACP agent command lines (R-ACP-2),
// a JSON list of strings such as ["gemini --experimental-acp", "goose acp"].
const SettingExternalAgents = "acp.external_agents"

// ExternalAgents reads the saved command lines; none saved is an empty list.
func (s *Store) ExternalAgents() ([]string, error) {
	raw, ok, err := s.GetSetting(SettingExternalAgents)
	if err != nil || !ok {
		return []string{}, err
	}
	var out []string
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return []string{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingExternalAgents)
	}
	if out == nil {
		out = []string{}
	}
	return out, nil
}

// SetExternalAgents replaces the saved command lines. Each is trimmed; an empty one is
// INVALID_INPUT and duplicates are kept once, in the order given.
func (s *Store) SetExternalAgents(commands []string) error {
	clean := []string{}
	for _, c := range commands {
		c = strings.TrimSpace(c)
		if c == "" {
			return errs.New(errs.InvalidInput, "Field", "command")
		}
		if !slices.Contains(clean, c) {
			clean = append(clean, c)
		}
	}
	body, err := json.Marshal(clean)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingExternalAgents, string(body))
}

// SetExternalAgent makes a session run on the external agent started by command, or on the
// built-in runtime when command is empty.
func (s *Store) SetExternalAgent(sessionID, command string) (Session, error) {
	err := s.write(func(tx *gorm.DB) error {
		return updateSession(tx, sessionID, map[string]any{"external_agent": strings.TrimSpace(command), "updated_at": time.Now().UTC()})
	})
	if err != nil {
		return Session{}, err
	}
	return s.GetSession(sessionID)
}

// ExternalAgent is the command line a session runs on; empty means the built-in runtime.
func (s *Store) ExternalAgent(sessionID string) (string, error) {
	sess, err := s.GetSession(sessionID)
	return sess.ExternalAgent, err
}

// agentSessionRow is the session id an external agent gave an AgentDesk session.
type agentSessionRow struct {
	SessionID    string `gorm:"primaryKey"`
	Command      string
	AgentSession string
	Notes        string
	UpdatedAt    time.Time
}

func (agentSessionRow) TableName() string { return "agent_sessions" }

// AgentSession is the id the agent started by command gave the session the last time, or ""
// when it gave none or the session has since moved to another agent.
func (s *Store) AgentSession(sessionID, command string) (string, error) {
	var row agentSessionRow
	err := s.db.Where("session_id = ?", sessionID).Take(&row).Error
	if err == gorm.ErrRecordNotFound || err == nil && row.Command != strings.TrimSpace(command) {
		return "", nil
	}
	return row.AgentSession, storeErr(err)
}

// SetAgentSession remembers the id the agent started by command gave the session.
func (s *Store) SetAgentSession(sessionID, command, agentSession string) error {
	row := agentSessionRow{SessionID: sessionID, Command: strings.TrimSpace(command), AgentSession: agentSession,
		Notes: "[]", UpdatedAt: time.Now().UTC()}
	err := s.db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "session_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"command", "agent_session", "updated_at"}),
	}).Create(&row).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return errs.Wrap(errs.NotFound, err, "ID", sessionID)
	}
	return storeErr(err)
}

// AddAgentNote keeps something to tell the session's agent at the start of its next prompt.
// A session whose agent gave no session id keeps nothing: its agent is told at once or never.
func (s *Store) AddAgentNote(sessionID, note string) error {
	return storeErr(s.db.Transaction(func(tx *gorm.DB) error {
		var row agentSessionRow
		err := tx.Where("session_id = ?", sessionID).Take(&row).Error
		if err == gorm.ErrRecordNotFound {
			return nil
		}
		if err != nil {
			return err
		}
		var notes []string
		json.Unmarshal([]byte(row.Notes), &notes)
		body, err := json.Marshal(append(notes, note))
		if err != nil {
			return err
		}
		return tx.Model(&agentSessionRow{}).Where("session_id = ?", sessionID).Update("notes", string(body)).Error
	}))
}

// TakeAgentNotes returns what is to be told the session's agent, and forgets it.
func (s *Store) TakeAgentNotes(sessionID string) ([]string, error) {
	var notes []string
	err := s.db.Transaction(func(tx *gorm.DB) error {
		var row agentSessionRow
		err := tx.Where("session_id = ?", sessionID).Take(&row).Error
		if err == gorm.ErrRecordNotFound || err == nil && row.Notes == "[]" {
			return nil
		}
		if err != nil {
			return err
		}
		json.Unmarshal([]byte(row.Notes), &notes)
		return tx.Model(&agentSessionRow{}).Where("session_id = ?", sessionID).Update("notes", "[]").Error
	})
	return notes, storeErr(err)
}

// SettingExternalStartTimeout is how long an external agent may take to start: initialize and
// session/new (or session/load). A loaded two-core machine took 26 s for opencode.
const SettingExternalStartTimeout = "external-agent-start-timeout"

// Start-up limit bounds: below the minimum no real agent starts; above the maximum a hung agent
// would hold the session for hours.
const (
	DefaultExternalStartTimeout = 120 * time.Second
	MinExternalStartTimeout     = 5 * time.Second
	MaxExternalStartTimeout     = 30 * time.Minute
)

// ParseExternalStartTimeout reads a start-up limit: a Go duration such as "120s" or "3m".
func ParseExternalStartTimeout(value string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(value))
	if err != nil || d < MinExternalStartTimeout || d > MaxExternalStartTimeout {
		return 0, errs.New(errs.InvalidValue, "Field", SettingExternalStartTimeout, "Value", value, "Allowed", "5s–30m")
	}
	return d, nil
}

// ExternalStartTimeout is the start-up limit in force; unset or damaged reads as the default.
func (s *Store) ExternalStartTimeout() time.Duration {
	return SettingOr(s, SettingExternalStartTimeout, ParseExternalStartTimeout, DefaultExternalStartTimeout)
}

// SetExternalStartTimeout validates and saves the start-up limit.
func (s *Store) SetExternalStartTimeout(value string) (time.Duration, error) {
	d, err := ParseExternalStartTimeout(value)
	if err != nil {
		return 0, err
	}
	return d, s.SetSetting(SettingExternalStartTimeout, d.String())
}

// SettingAgentFacts keeps what AgentDesk saw of each external agent (by command line) in its
// last session that ran calls, so the runtime picker can tell the truth about it.
const SettingAgentFacts = "acp.agent_facts"

// AgentFact is what AgentDesk saw of an external agent the last time a session of it ended.
type AgentFact struct {
	// Calls is how many tool calls the agent ran in that session; Asked says whether any
	// session/request_permission arrived while they ran. An agent that ran calls and never
	// asked cannot be held to Ask.
	Calls int  `json:"calls"`
	Asked bool `json:"asked"`
	// Modes are the modes it published (id and name), PlanMode the one Smart · Plan maps to.
	Modes    []AgentModeFact `json:"modes"`
	PlanMode string          `json:"planMode"`
	At       time.Time       `json:"at"`
}

// AgentModeFact is one mode an agent published.
type AgentModeFact struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// AgentFacts reads what was seen of each agent, by command line; none is an empty map.
func (s *Store) AgentFacts() (map[string]AgentFact, error) {
	out := map[string]AgentFact{}
	raw, ok, err := s.GetSetting(SettingAgentFacts)
	if err != nil || !ok {
		return out, err
	}
	if json.Unmarshal([]byte(raw), &out) != nil || out == nil {
		out = map[string]AgentFact{} // a fact is a hint: an unreadable one is forgotten, not an error
	}
	return out, nil
}

// SetAgentFact replaces what was seen of the agent started by command.
func (s *Store) SetAgentFact(command string, f AgentFact) error {
	s.factsMu.Lock()
	defer s.factsMu.Unlock()
	facts, err := s.AgentFacts()
	if err != nil {
		return err
	}
	facts[strings.TrimSpace(command)] = f
	body, err := json.Marshal(facts)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingAgentFacts, string(body))
}
