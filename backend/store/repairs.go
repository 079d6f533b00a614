package store

import (
	"gorm.io/gorm"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// repairs rewrite the unambiguous retired spellings of earlier releases in place (R-DATA-4).
// Unknown or ambiguous values stay as stored and read fail-closed. The event log is append-only
// and is never rewritten: its entries fold on read.
var repairs = []Repair{
	{Name: "fold retired session modes", Run: foldSessionModes},
	{Name: "fold retired session permissions", Run: foldSessionPermissions},
	{Name: "fold retired default permission", Run: foldDefaultPermission},
}

type modeColumns struct {
	ID                string
	InteractionMode   string
	ExecutionOverride string
	PermissionMode    string
}

// sessionModeColumns reads the sessions whose interaction or permission holds a retired
// spelling: the only ones a fold rewrites. Every open runs it, so it looks them up by index
// rather than reading 10,000 sessions.
func sessionModeColumns(tx *gorm.DB) ([]modeColumns, error) {
	var rows []modeColumns
	err := tx.Table("sessions").Select("id, interaction_mode, execution_override, permission_mode").
		Where("interaction_mode IN ? OR permission_mode IN ?", mode.RetiredInteractions(), policy.RetiredPermissions()).
		Order("id").Scan(&rows).Error
	return rows, err
}

func foldSessionModes(tx *gorm.DB) ([]Change, error) {
	rows, err := sessionModeColumns(tx)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, r := range rows {
		rw, ok := mode.RetiredPreference(r.InteractionMode, r.ExecutionOverride)
		if !ok {
			continue
		}
		if err := tx.Exec("UPDATE sessions SET interaction_mode = ?, execution_override = ? WHERE id = ?",
			rw.InteractionMode, rw.ExecutionOverride, r.ID).Error; err != nil {
			return nil, err
		}
		changes = append(changes, Change{Table: "sessions", RowID: r.ID, Column: "interaction_mode", Old: r.InteractionMode, New: rw.InteractionMode})
		if rw.ExecutionOverride != r.ExecutionOverride {
			changes = append(changes, Change{Table: "sessions", RowID: r.ID, Column: "execution_override", Old: r.ExecutionOverride, New: rw.ExecutionOverride})
		}
	}
	return changes, nil
}

func foldSessionPermissions(tx *gorm.DB) ([]Change, error) {
	rows, err := sessionModeColumns(tx)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, r := range rows {
		p, ok := policy.RetiredPermission(r.PermissionMode)
		if !ok {
			continue
		}
		if err := tx.Exec("UPDATE sessions SET permission_mode = ? WHERE id = ?", string(p), r.ID).Error; err != nil {
			return nil, err
		}
		changes = append(changes, Change{Table: "sessions", RowID: r.ID, Column: "permission_mode", Old: r.PermissionMode, New: string(p)})
	}
	return changes, nil
}

func foldDefaultPermission(tx *gorm.DB) ([]Change, error) {
	var row Setting
	err := tx.Where("key = ?", SettingDefaultPermission).Take(&row).Error
	if err == gorm.ErrRecordNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	p, ok := policy.RetiredPermission(row.Value)
	if !ok {
		return nil, nil
	}
	if err := tx.Exec("UPDATE settings SET value = ? WHERE key = ?", string(p), row.Key).Error; err != nil {
		return nil, err
	}
	return []Change{{Table: "settings", RowID: row.Key, Column: "value", Old: row.Value, New: string(p)}}, nil
}
