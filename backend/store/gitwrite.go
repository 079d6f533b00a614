package store

import (
	"errors"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// AddGitWriteGrant records that the session allowed git commands to change the workspace's
// .git for its rest (the "git" escalation). It is the only grant without a pattern: it answers
// that escalation and matches no call. Granting it twice keeps one row.
func (s *Store) AddGitWriteGrant(sessionID string) error {
	kind := string(policy.KindGitWrite)
	return s.write(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&grantRow{}).Where("session_id = ? AND kind = ?", sessionID, kind).Count(&n).Error; err != nil || n > 0 {
			return err
		}
		err := tx.Create(&grantRow{SessionID: sessionID, Kind: kind, Scope: string(policy.ScopeExact), CreatedAt: time.Now().UTC()}).Error
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return errs.Wrap(errs.NotFound, err, "ID", sessionID)
		}
		return err
	})
}
