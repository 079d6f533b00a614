package rewind

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

// Effective fills what Settings left unset with the checkpoint store's defaults, as Settings
// show them.
func Effective(cs store.CheckpointSettings) store.CheckpointSettings {
	if cs.Quota <= 0 {
		cs.Quota = checkpoint.DefaultQuota
	}
	if cs.MaxFileSize <= 0 {
		cs.MaxFileSize = checkpoint.DefaultMaxFileSize
	}
	if cs.Secrets == nil {
		cs.Secrets = append([]string{}, checkpoint.DefaultSecrets...)
	}
	return cs
}
