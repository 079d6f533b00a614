package store

import (
	"fmt"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// A Repair is an idempotent, non-destructive data fix run at every open. It rewrites only
// what it can fix unambiguously and returns what it changed; a second run must change nothing.
type Repair struct {
	Name string
	Run  func(tx *gorm.DB) ([]Change, error)
}

// Change is one rewritten value, recorded in maintenance_log.
type Change struct {
	Repair string `json:"repair"`
	Table  string `json:"table"`
	RowID  string `json:"row_id"`
	Column string `json:"column"`
	Old    string `json:"old"`
	New    string `json:"new"`
}

// MaintenanceReport is what boot maintenance changed on this open.
type MaintenanceReport struct {
	Changed int      `json:"changed"`
	Changes []Change `json:"changes"`
	Repairs []string `json:"repairs"`
}

type maintenanceRow struct {
	ID         int64 `gorm:"primaryKey"`
	Repair     string
	Tbl        string `gorm:"column:table_name"`
	RowID      string
	ColumnName string
	OldValue   string
	NewValue   string
	AppliedAt  time.Time
}

func (maintenanceRow) TableName() string { return "maintenance_log" }

func (s *Store) runMaintenance(fixes []Repair) (MaintenanceReport, error) {
	rep := MaintenanceReport{Changes: []Change{}, Repairs: []string{}}
	for _, fix := range fixes {
		rep.Repairs = append(rep.Repairs, fix.Name)
		changes, err := s.runRepair(fix)
		if err != nil {
			return rep, errs.Wrap(errs.StoreFailure, fmt.Errorf("repair %s: %w", fix.Name, err))
		}
		rep.Changes = append(rep.Changes, changes...)
	}
	rep.Changed = len(rep.Changes)
	return rep, nil
}

// runRepair applies one repair and logs its changes in the same transaction, so a change is
// never made without its record.
func (s *Store) runRepair(fix Repair) ([]Change, error) {
	var changes []Change
	err := s.write(func(tx *gorm.DB) error {
		var err error
		if changes, err = fix.Run(tx); err != nil {
			return err
		}
		now := time.Now().UTC()
		for i := range changes {
			changes[i].Repair = fix.Name
			row := maintenanceRow{Repair: fix.Name, Tbl: changes[i].Table, RowID: changes[i].RowID,
				ColumnName: changes[i].Column, OldValue: changes[i].Old, NewValue: changes[i].New, AppliedAt: now}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		}
		return nil
	})
	return changes, err
}

// MaintenanceLog returns every change boot maintenance ever recorded, oldest first.
func (s *Store) MaintenanceLog() ([]Change, error) {
	var rows []maintenanceRow
	if err := s.db.Order("id").Find(&rows).Error; err != nil {
		return nil, storeErr(err)
	}
	out := make([]Change, len(rows))
	for i, r := range rows {
		out[i] = Change{Repair: r.Repair, Table: r.Tbl, RowID: r.RowID, Column: r.ColumnName, Old: r.OldValue, New: r.NewValue}
	}
	return out, nil
}
