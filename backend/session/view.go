package session

import (
	"time"

	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// View is a session as every surface reports it: the effective, decoded values, and the raw
// stored value whenever it was not recognized (it then reads fail-closed).
type View struct {
	ID                     string `json:"id"`
	Title                  string `json:"title"`
	Workspace              string `json:"workspace"`
	InteractionMode        string `json:"interaction_mode"`
	ExecutionOverride      string `json:"execution_override"`
	PermissionMode         string `json:"permission_mode"`
	UnrecognizedMode       string `json:"unrecognized_mode,omitempty"`
	UnrecognizedPermission string `json:"unrecognized_permission,omitempty"`
	ExternalAgent          string `json:"external_agent,omitempty"`
	// Running is the id of the turn the session runs, "" when none does.
	Running   string    `json:"running,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Preference is the view's effective interaction preference.
func (v View) Preference() mode.Preference {
	return mode.Preference{Interaction: mode.InteractionMode(v.InteractionMode), Override: mode.Override(v.ExecutionOverride)}
}

// View reads one session with its mode in force (the fold of its log, R-PLAN-1, kept in its
// row).
func (s *Service) View(id string) (View, error) {
	row, err := s.Store.GetSession(id)
	if err != nil {
		return View{}, err
	}
	return ViewOf(row), nil
}

// Page is a page of the session list and the cursor of the next ("" after the last).
type Page struct {
	Sessions []View `json:"sessions"`
	Next     string `json:"next,omitempty"`
}

// List reads a page of sessions, most recently active first: each from its row alone.
func (s *Service) List(r store.SessionRange) (Page, error) {
	rows, err := s.Store.SessionsPage(r)
	if err != nil {
		return Page{}, err
	}
	out := Page{Sessions: make([]View, len(rows.Sessions)), Next: rows.Next}
	for i, row := range rows.Sessions {
		out.Sessions[i] = ViewOf(row)
	}
	return out, nil
}

// ViewOf is the view of a stored session row.
func ViewOf(row store.Session) View {
	return viewOf(row, row.InForce())
}

func viewOf(row store.Session, state mode.State) View {
	v := View{ID: row.ID, Title: row.Title, Workspace: row.Workspace, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
		ExternalAgent: row.ExternalAgent, Running: row.RunningTurn,
		InteractionMode: string(state.Preference.Interaction), ExecutionOverride: string(state.Preference.Override)}
	unrecognized := state.Unrecognized
	if !state.FromLog {
		unrecognized = row.Preference().Unrecognized
	}
	if len(unrecognized) > 0 {
		v.UnrecognizedMode = unrecognized[0].Raw
	}
	perm, ok := row.Permission()
	v.PermissionMode = string(perm)
	if !ok {
		v.UnrecognizedPermission = row.PermissionMode
	}
	return v
}
