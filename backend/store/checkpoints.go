package store

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"agentdesk/backend/errs"
)

// Settings of the checkpoint store and of the review of changes.
const (
	SettingCheckpointQuota   = "checkpoint_quota"
	SettingCheckpointMaxFile = "checkpoint_max_file_size"
	SettingCheckpointSecrets = "checkpoint_secrets"
	SettingReviewBeforeApply = "review_before_apply"
)

// Bounds of the checkpoint settings: a quota from 64 MB to 1 TB, a file limit from 1 KB to 1 GB,
// at most 200 secret patterns of at most 200 bytes each.
const (
	MinCheckpointQuota   = 64 << 20
	MaxCheckpointQuota   = 1 << 40
	MinCheckpointMaxFile = 1 << 10
	MaxCheckpointMaxFile = 1 << 30
	maxSecretPatterns    = 200
	maxSecretLen         = 200
)

// CheckpointSettings are what Settings decide for checkpoints; zero and nil mean the checkpoint
// store's own defaults (2 GB, 16 MB, its secret patterns).
type CheckpointSettings struct {
	Quota       int64    `json:"quota"`
	MaxFileSize int64    `json:"maxFileSize"`
	Secrets     []string `json:"secrets"`
	// ReviewBeforeApply stages writes and edits for the person's per-hunk review before they
	// are applied, in the Ask permission (off by default).
	ReviewBeforeApply bool `json:"reviewBeforeApply"`
}

// CheckpointSettings reads them; an unreadable stored value reads as the default.
func (s *Store) CheckpointSettings() (CheckpointSettings, error) {
	var out CheckpointSettings
	for key, into := range map[string]*int64{SettingCheckpointQuota: &out.Quota, SettingCheckpointMaxFile: &out.MaxFileSize} {
		raw, ok, err := s.GetSetting(key)
		if err != nil {
			return out, err
		}
		if n, perr := strconv.ParseInt(raw, 10, 64); ok && perr == nil && n > 0 {
			*into = n
		}
	}
	raw, ok, err := s.GetSetting(SettingCheckpointSecrets)
	if err != nil {
		return out, err
	}
	if ok && json.Unmarshal([]byte(raw), &out.Secrets) != nil {
		out.Secrets = nil
	}
	raw, _, err = s.GetSetting(SettingReviewBeforeApply)
	out.ReviewBeforeApply = raw == "true"
	return out, err
}

// SetCheckpointSettings validates and saves every field; an invalid one saves nothing.
func (s *Store) SetCheckpointSettings(in CheckpointSettings) (CheckpointSettings, error) {
	if in.Quota < MinCheckpointQuota || in.Quota > MaxCheckpointQuota {
		return in, errs.Invalid("quota", strconv.FormatInt(in.Quota, 10), []string{"64 MB – 1 TB"})
	}
	if in.MaxFileSize < MinCheckpointMaxFile || in.MaxFileSize > MaxCheckpointMaxFile {
		return in, errs.Invalid("large-file limit", strconv.FormatInt(in.MaxFileSize, 10), []string{"1 KB – 1 GB"})
	}
	secrets, err := cleanPatterns(in.Secrets)
	if err != nil {
		return in, err
	}
	in.Secrets = secrets
	body, err := json.Marshal(secrets)
	if err != nil {
		return in, errs.Wrap(errs.Internal, err)
	}
	values := [][2]string{{SettingCheckpointQuota, strconv.FormatInt(in.Quota, 10)},
		{SettingCheckpointMaxFile, strconv.FormatInt(in.MaxFileSize, 10)}, {SettingCheckpointSecrets, string(body)},
		{SettingReviewBeforeApply, strconv.FormatBool(in.ReviewBeforeApply)}}
	return in, s.setSettings(values)
}

// cleanPatterns trims each pattern, drops empty lines and duplicates, and bounds the list.
func cleanPatterns(in []string) ([]string, error) {
	out := []string{}
	for _, p := range in {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "#") || slices.Contains(out, p) {
			continue
		}
		if len(p) > maxSecretLen || strings.ContainsAny(p, "\x00\n") {
			return nil, errs.Invalid("secret pattern", p, []string{"a gitignore-style pattern"})
		}
		out = append(out, p)
	}
	if len(out) > maxSecretPatterns {
		return nil, errs.Invalid("secret patterns", strconv.Itoa(len(out)), []string{"at most 200"})
	}
	return out, nil
}

// setSettings writes several settings as one unit of work.
func (s *Store) setSettings(values [][2]string) error {
	now := time.Now().UTC()
	return s.write(func(tx *gorm.DB) error {
		for _, kv := range values {
			row := Setting{Key: kv[0], Value: kv[1], UpdatedAt: now}
			err := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "key"}},
				DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"})}).Create(&row).Error
			if err != nil {
				return err
			}
		}
		return nil
	})
}
