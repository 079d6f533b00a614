package client

import (
	"context"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/mode"
)

// agentModes is how an agent offers its modes: ACP's session modes, or a session config option
// of category mode (opencode: id "mode", values build and plan). The option is preferred where
// both exist, since newer agents keep their modes up to date there.
type agentModes struct {
	values   []modeValue
	current  string
	working  string // the mode the agent works (writes) in: its starting mode, unless that plans
	configID string // the mode option's id; "" when the modes are ACP's session modes
	set      string // the value AgentDesk set last, to tell an echo from the agent's own switch
}

type modeValue struct{ id, name string }

// modesOf reads the modes an agent advertised in session/new or session/load.
func modesOf(modes *acp.SessionModeState, options []acp.SessionConfigOption) agentModes {
	var m agentModes
	if opt := modeOption(options); opt != nil {
		m.configID, m.current = string(opt.Id), string(opt.CurrentValue)
		m.values = selectValues(opt.Options)
	} else if modes != nil {
		m.current = string(modes.CurrentModeId)
		for _, v := range modes.AvailableModes {
			m.values = append(m.values, modeValue{id: string(v.Id), name: v.Name})
		}
	}
	m.working = m.current
	if m.working == m.plan() {
		m.working = ""
		for _, v := range m.values {
			if v.id != m.plan() {
				m.working = v.id
				break
			}
		}
	}
	return m
}

// modeOption is the config option that carries the mode: category mode, else id "mode".
func modeOption(options []acp.SessionConfigOption) *acp.SessionConfigOptionSelect {
	var byID *acp.SessionConfigOptionSelect
	for _, o := range options {
		s := o.Select
		if s == nil {
			continue
		}
		if s.Category != nil && *s.Category == acp.SessionConfigOptionCategoryMode {
			return s
		}
		if s.Id == "mode" && byID == nil {
			byID = s
		}
	}
	return byID
}

func selectValues(o acp.SessionConfigSelectOptions) []modeValue {
	var out []modeValue
	if o.Ungrouped != nil {
		for _, v := range *o.Ungrouped {
			out = append(out, modeValue{id: string(v.Value), name: v.Name})
		}
	}
	if o.Grouped != nil {
		for _, g := range *o.Grouped {
			for _, v := range g.Options {
				out = append(out, modeValue{id: string(v.Value), name: v.Name})
			}
		}
	}
	return out
}

// plan is the agent's planning mode (see external.PlanMode); "" when it has none.
func (m agentModes) plan() string {
	modes := make([]external.AgentMode, 0, len(m.values))
	for _, v := range m.values {
		modes = append(modes, external.AgentMode{ID: v.id, Name: v.name})
	}
	return external.PlanMode(modes)
}

func (m agentModes) has(id string) bool {
	for _, v := range m.values {
		if v.id == id {
			return true
		}
	}
	return false
}

// target is the agent's mode for a turn: the agent's own mode of the override's id where it has
// one, its plan mode for a read-only execution mode, else its working mode. "" leaves it alone.
func (m agentModes) target(modeID, execMode string) string {
	if modeID != string(mode.Smart) && m.has(modeID) {
		return modeID
	}
	if !mode.ExecutionMode(execMode).MayMutate() {
		if p := m.plan(); p != "" {
			return p
		}
	}
	return m.working
}

// ours is our selector id for a mode the agent switched to by itself: plan for its plan mode,
// the same id where we have one, smart for its working mode; "" for anything else.
func (m agentModes) ours(value string) string {
	switch {
	case value == m.plan():
		return string(mode.Plan)
	case value == m.working:
		return string(mode.Smart)
	}
	return value
}

// applyMode puts the agent in the mode for the turn, through session/set_config_option for
// an agent with a mode option and session/set_mode otherwise.
func (c *conn) applyMode(ctx context.Context, modeID, execMode string) error {
	c.mu.Lock()
	m := c.modes
	c.mu.Unlock()
	target := m.target(modeID, execMode)
	if target == "" || target == m.current {
		return nil
	}
	c.mu.Lock()
	c.modes.set = target // the agent's echo of this switch is not a switch of its own
	c.mu.Unlock()
	if m.configID != "" {
		resp, err := c.conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
			SessionId: c.sessionID(), ConfigId: acp.SessionConfigId(m.configID), Value: acp.SessionConfigValueId(target)}})
		if err != nil {
			return err
		}
		c.followOptions(resp.ConfigOptions)
	} else if _, err := c.conn.SetSessionMode(ctx, acp.SetSessionModeRequest{SessionId: c.sessionID(), ModeId: acp.SessionModeId(target)}); err != nil {
		return err
	}
	c.mu.Lock()
	c.modes.current = target
	c.mu.Unlock()
	return nil
}

// followMode notes the agent's current mode and reports a switch it made by itself (not the
// echo of ours) as one of our selector ids; "" when there is nothing to report.
func (c *conn) followMode(value string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if value == "" || value == c.modes.current {
		return ""
	}
	c.modes.current = value
	if value == c.modes.set {
		return ""
	}
	c.modes.set = ""
	return c.modes.ours(value)
}

// followOptions is followMode for a config option update.
func (c *conn) followOptions(options []acp.SessionConfigOption) string {
	opt := modeOption(options)
	if opt == nil {
		return ""
	}
	return c.followMode(string(opt.CurrentValue))
}
