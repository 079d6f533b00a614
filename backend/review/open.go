package review

import (
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/store"
)

// Options are the checkpoint store's options as Settings decide them.
func Options(cs store.CheckpointSettings) checkpoint.Options {
	return checkpoint.Options{Quota: cs.Quota, MaxFileSize: cs.MaxFileSize, Secrets: cs.Secrets}
}

// Open opens the checkpoint store of the data folder with the options Settings hold: every
// composition root (the window, serve, run, acp) has exactly one.
func Open(st *store.Store, dataDir string) (*checkpoint.Store, error) {
	cs, err := st.CheckpointSettings()
	if err != nil {
		return nil, err
	}
	return checkpoint.Open(dataDir, Options(cs))
}
