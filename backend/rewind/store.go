package rewind

import (
	"agentdesk/backend/eventlog"
	"agentdesk/backend/store"
)

// Store is what restoring and reviewing read and record: the methods of *store.Store the
// service uses.
type Store interface {
	GetSession(id string) (store.Session, error)
	Log(sessionID string) ([]eventlog.Record, error)
	Turns(sessionID string) ([]store.Turn, error)
	AppendStep(sessionID string, e eventlog.Event) (store.Event, error)
	ForkSessionBefore(id, title string, before int64) (store.Session, error)
}
