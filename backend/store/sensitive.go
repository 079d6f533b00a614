package store

import (
	"encoding/json"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// SettingSensitivePaths holds the sensitive paths list as a JSON array; unset means the
// default list (policy.DefaultSensitive), so a new default reaches people who never edited it.
const SettingSensitivePaths = "sensitive_paths"

// SensitivePaths is the list the gate reads. A stored value that cannot be read fails closed to
// the default list, and the error says so.
func (s *Store) SensitivePaths() (policy.SensitiveList, error) {
	raw, ok, err := s.GetSetting(SettingSensitivePaths)
	if err != nil || !ok {
		return policy.SensitiveList{}, err
	}
	var entries []string
	if err := json.Unmarshal([]byte(raw), &entries); err != nil {
		return policy.SensitiveList{}, errs.Wrap(errs.StoreFailure, err, "Path", SettingSensitivePaths)
	}
	clean, err := policy.ParseSensitive(entries)
	if err != nil {
		return policy.SensitiveList{}, err
	}
	return policy.NewSensitiveList(clean), nil
}

// SetSensitivePaths replaces the list (an empty one means nothing is sensitive); nil restores
// the default.
func (s *Store) SetSensitivePaths(entries []string) error {
	if entries == nil {
		return s.write(func(tx *gorm.DB) error {
			return tx.Where("key = ?", SettingSensitivePaths).Delete(&Setting{}).Error
		})
	}
	clean, err := policy.ParseSensitive(entries)
	if err != nil {
		return err
	}
	body, err := json.Marshal(clean)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return s.SetSetting(SettingSensitivePaths, string(body))
}
