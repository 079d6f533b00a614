package session

import (
	"time"

	"agentdesk/backend/mode"
	"agentdesk/backend/store"
)

// View is a session as every surface reports it: the effective, decoded values, and the raw
// stored value whenever it was not recognized (it then reads fail-closed).
type View struct {
	ID                     string    `json:"id"`
	Title                  string    `json:"title"`
	Workspace              string    `json:"workspace"`
	InteractionMode        string    `json:"interaction_mode"`
	ExecutionOverride      string    `json:"execution_override"`
	PermissionMode         string    `json:"permission_mode"`
	UnrecognizedMode       string    `json:"unrecognized_mode,omitempty"`
	UnrecognizedPermission string    `json:"unrecognized_permission,omitempty"`
	CreatedAt              time.Time `json:"created_at"`
	UpdatedAt              time.Time `json:"updated_at"`
}

// Preference is the view's effective interaction preference.
func (v View) Preference() mode.Preference {
	return mode.Preference{Interaction: mode.InteractionMode(v.InteractionMode), Override: mode.Override(v.ExecutionOverride)}
}

// View reads one session with its mode in force (the fold of its log, R-PLAN-1).
func (s *Service) View(id string) (View, error) {
	row, err := s.Store.GetSession(id)
	if err != nil {
		return View{}, err
	}
	state, err := s.Store.ModeInForce(id)
	if err != nil {
		return View{}, err
	}
	return viewOf(row, state), nil
}

// List reads every session, most recently updated first.
func (s *Service) List() ([]View, error) {
	rows, err := s.Store.ListSessions()
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(rows))
	for _, r := range rows {
		state, err := s.Store.ModeInForce(r.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, viewOf(r, state))
	}
	return out, nil
}

func viewOf(row store.Session, state mode.State) View {
	v := View{ID: row.ID, Title: row.Title, Workspace: row.Workspace, CreatedAt: row.CreatedAt, UpdatedAt: row.UpdatedAt,
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
