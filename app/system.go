package app

import (
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

// notifyWaiting says on the desktop what already waits as the window opens: decisions a turn
// taken up after a restart asked again before any page could hear of them.
func (s *Services) notifyWaiting() {
	rows, err := s.Store.AllPending()
	if err != nil {
		return
	}
	f := &System{s}
	for _, row := range rows {
		f.NotifyDecision(DecisionRef{ID: row.ID}) // a desktop without notifications is no reason to stop
	}
}

// decisionBody is the line under the notification's title; a payload that does not read falls
// back to the kind's name, so the person still learns a decision waits.
func (f *System) decisionBody(row store.DecisionRow) string {
	p, err := decision.ReadPayload(decision.Kind(row.Kind), []byte(row.Payload))
	if err != nil {
		return f.s.T("decision.kind."+row.Kind, nil)
	}
	b := &notifyBody{t: f.s.T}
	decision.Visit(p, b)
	return b.text
}

// notifyBody picks, per kind, the one line that says what the decision is about.
type notifyBody struct {
	t    func(key string, args map[string]any) string
	text string
}

func (b *notifyBody) Question(p decision.QuestionPayload)       { b.text = p.Question }
func (b *notifyBody) Approval(p decision.ApprovalPayload)       { b.text = p.Summary }
func (b *notifyBody) PlanReview(p decision.PlanPayload)         { b.text = p.Title }
func (b *notifyBody) Elicitation(p decision.ElicitationPayload) { b.text = p.Message }
func (b *notifyBody) Continue(p decision.ContinuePayload) {
	b.text = b.t("composer.continue.title", map[string]any{"Count": p.Steps})
}
func (b *notifyBody) Sampling(p decision.SamplingPayload) {
	b.text = b.t("composer.sampling.title", map[string]any{"Server": p.Server})
}

// notify calls the freedesktop notification service on the session bus.
func notify(title, body string) error {
	conn, err := dbus.SessionBus()
	if err != nil {
		return errs.Wrap(NotificationsUnavailable, err)
	}
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	call := obj.Call("org.freedesktop.Notifications.Notify", 0, "AgentDesk", uint32(0), AppID, title, body,
		[]string{}, map[string]dbus.Variant{"desktop-entry": dbus.MakeVariant(AppID)}, int32(-1))
	if call.Err != nil {
		return errs.Wrap(NotificationsUnavailable, call.Err)
	}
	return nil
}
