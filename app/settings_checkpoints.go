package app

import (
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/errs"
	"agentdesk/backend/rewind"
	"agentdesk/backend/store"
)

// CheckpointSettingsView is the Settings page's section on checkpoints: the quota, the
// large-file limit, the secret patterns (and the defaults to go back to), review before apply,
// and what the store takes now. Unavailable names why there is no store (an error kind).
type CheckpointSettingsView struct {
	Quota             int64             `json:"quota"`
	MaxFileSize       int64             `json:"maxFileSize"`
	Secrets           []string          `json:"secrets"`
	DefaultSecrets    []string          `json:"defaultSecrets"`
	ReviewBeforeApply bool              `json:"reviewBeforeApply"`
	Usage             *checkpoint.Usage `json:"usage,omitempty"`
	Unavailable       string            `json:"unavailable,omitempty"`
}

// CheckpointSettingsRequest sets every checkpoint setting at once.
type CheckpointSettingsRequest struct {
	Quota             int64    `json:"quota"`
	MaxFileSize       int64    `json:"maxFileSize"`
	Secrets           []string `json:"secrets"`
	ReviewBeforeApply bool     `json:"reviewBeforeApply"`
}

func (s *Services) checkpointView() (CheckpointSettingsView, error) {
	cs, err := s.Store.CheckpointSettings()
	if err != nil {
		return CheckpointSettingsView{}, err
	}
	cs = rewind.Effective(cs)
	v := CheckpointSettingsView{Quota: cs.Quota, MaxFileSize: cs.MaxFileSize, Secrets: cs.Secrets,
		DefaultSecrets: append([]string{}, checkpoint.DefaultSecrets...), ReviewBeforeApply: cs.ReviewBeforeApply}
	switch {
	case s.Checkpoints != nil:
		u, err := s.Checkpoints.Usage()
		if err != nil {
			return v, err
		}
		v.Usage = &u
	case s.checkpointErr != nil:
		v.Unavailable = string(errs.KindOf(s.checkpointErr))
	default:
		v.Unavailable = string(rewind.Unavailable)
	}
	return v, nil
}

// SetCheckpoints saves the checkpoint settings; the store follows them at once (a smaller
// quota prunes the oldest checkpoints now).
func (f *Settings) SetCheckpoints(req CheckpointSettingsRequest) (SettingsView, error) {
	saved, err := f.s.Store.SetCheckpointSettings(store.CheckpointSettings{Quota: req.Quota, MaxFileSize: req.MaxFileSize,
		Secrets: req.Secrets, ReviewBeforeApply: req.ReviewBeforeApply})
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if f.s.Checkpoints != nil {
		if err := f.s.Checkpoints.Configure(rewind.Options(saved)); err != nil {
			return SettingsView{}, f.s.fail(err)
		}
	}
	return f.publish()
}
