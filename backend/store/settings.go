package store

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Setting is one persisted preference.
type Setting struct {
	Key       string `gorm:"primaryKey"`
	Value     string
	UpdatedAt time.Time
}

// GetSetting returns a setting's value and whether it was set.
func (s *Store) GetSetting(key string) (string, bool, error) {
	var row Setting
	err := s.db.Where("key = ?", key).Take(&row).Error
	if err == gorm.ErrRecordNotFound {
		return "", false, nil
	}
	return row.Value, err == nil, s.fail(err)
}

// SetSetting writes a setting, replacing any earlier value.
func (s *Store) SetSetting(key, value string) error {
	row := Setting{Key: key, Value: value, UpdatedAt: time.Now().UTC()}
	return s.write(func(tx *gorm.DB) error {
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "key"}},
			DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
		}).Create(&row).Error
	})
}

// SettingReader reads one setting: a *Store, or what a consumer keeps of one.
type SettingReader interface {
	GetSetting(key string) (string, bool, error)
}

// SettingOr reads a setting through parse; an unset, unreadable or damaged value reads as def,
// so a bad row never stops the app and never widens what the setting bounds.
func SettingOr[T any](s SettingReader, key string, parse func(string) (T, error), def T) T {
	raw, ok, err := s.GetSetting(key)
	if err != nil || !ok {
		return def
	}
	v, err := parse(raw)
	if err != nil {
		return def
	}
	return v
}
