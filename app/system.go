package app

import (
	"encoding/json"

	"github.com/godbus/dbus/v5"

	"agentdesk/backend/decision"
	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// NotificationsUnavailable means the desktop has no notification service.
const NotificationsUnavailable errs.Kind = "NOTIFICATIONS_UNAVAILABLE"

// System describes the running app to the frontend.
type System struct{ s *Services }

// Info returns the version, data folder, default workspace and transport.
func (f *System) Info() (Info, error) {
	return f.s.Info, nil
}

// DecisionRef names one decision.
type DecisionRef struct {
	ID string `json:"id"`
}

// NotifyDecision shows an OS notification for a pending decision, built here from the
// decision itself, so the page cannot put arbitrary text on the desktop.
func (f *System) NotifyDecision(req DecisionRef) error {
	row, err := f.s.Store.Decision(req.ID)
	if err != nil {
		return f.s.fail(err)
	}
	if row.Status != store.DecisionPending {
		return nil
	}
	title := f.s.T("notify.title."+row.Kind, nil)
	return f.s.fail(notify(title, f.decisionBody(row)))
}

func (f *System) decisionBody(row store.DecisionRow) string {
	var p struct {
		Summary  string `json:"summary"`
		Question string `json:"question"`
		Title    string `json:"title"`
		Message  string `json:"message"`
		Server   string `json:"server"`
	}
	json.Unmarshal([]byte(row.Payload), &p)
	switch decision.Kind(row.Kind) {
	case decision.KindApproval:
		return p.Summary
	case decision.KindQuestion:
		return p.Question
	case decision.KindElicitation:
		return p.Message
	case decision.KindSampling:
		return f.s.T("composer.sampling.title", map[string]any{"Server": p.Server})
	}
	return p.Title
}

// notify calls the freedesktop notification service on the session bus.
func notify(title, body string) error {
	conn, err := dbus.SessionBus()
	if err != nil {
		return errs.Wrap(NotificationsUnavailable, err)
	}
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	call := obj.Call("org.freedesktop.Notifications.Notify", 0, "AgentDesk", uint32(0), "", title, body,
		[]string{}, map[string]dbus.Variant{}, int32(-1))
	if call.Err != nil {
		return errs.Wrap(NotificationsUnavailable, call.Err)
	}
	return nil
}
