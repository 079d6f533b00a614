package store

import (
	"errors"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// AddGitWriteGrant records that the session allowed git commands to change the workspace's
// .git for its rest (the "git" escalation). It answers that escalation and matches no call.
func (s *Store) AddGitWriteGrant(sessionID string) error {
	return s.addMarkerGrant(sessionID, policy.KindGitWrite, "")
}

// addMarkerGrant records a grant that answers something other than a call (the git escalation,
// a host for the network proxy): its kind is no call's, so it never matches one. Granting the
// same twice keeps one row.
func (s *Store) addMarkerGrant(sessionID string, kind policy.Kind, command string) error {
	return s.write(func(tx *gorm.DB) error {
		var n int64
		err := tx.Model(&grantRow{}).Where("session_id = ? AND kind = ? AND command = ?", sessionID, string(kind), command).Count(&n).Error
		if err != nil || n > 0 {
			return err
		}
		err = tx.Create(&grantRow{SessionID: sessionID, Kind: string(kind), Command: command, Scope: string(policy.ScopeExact),
			CreatedAt: time.Now().UTC()}).Error
		if errors.Is(err, gorm.ErrForeignKeyViolated) {
			return errs.Wrap(errs.NotFound, err, "ID", sessionID)
		}
		return err
	})
}
