package decision

import "agentdesk/backend/store"

// Store is what the registry keeps its decisions in: the few methods of *store.Store it uses, so
// the registry's needs are stated here and a test can tell at a glance what it touches.
type Store interface {
	CreateDecision(row store.DecisionRow) error
	ResolveDecision(id, status, answerJSON string) (bool, error)
	Decision(id string) (store.DecisionRow, error)
	InterruptUnfinished() (turns, decisions int, err error)
}

// Settings reads one setting: what the decision timeout is read from.
type Settings = store.SettingReader
