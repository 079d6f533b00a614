package store

import (
	"slices"

	"gorm.io/gorm"
)

// Stranded is a turn whose process stopped while it waited on a decision a new process can take
// up: the turn, its session's workspace, and the decision, still pending.
type Stranded struct {
	Turn      Turn
	Workspace string
	Decision  DecisionRow
}

// AdoptStranded claims for this store's owner the running turns whose process is gone and which
// wait on exactly one pending decision of a kind in resumable, in sessions of AgentDesk's own
// agent (an external agent's process went with it, and what it asked with it). An empty
// sessionID adopts in every session. The claim is one transaction, so of two processes that
// start together only one adopts a turn; what is not adopted is left for InterruptUnfinished.
func (s *Store) AdoptStranded(sessionID string, resumable []string) ([]Stranded, error) {
	if s.Damage() != nil {
		return nil, nil
	}
	var out []Stranded
	err := s.write(func(tx *gorm.DB) error {
		out = nil
		q := tx.Where("status = ?", TurnRunning)
		if sessionID != "" {
			q = q.Where("session_id = ?", sessionID)
		}
		var running []Turn
		if err := q.Order("created_at").Find(&running).Error; err != nil {
			return err
		}
		for _, t := range running {
			if ownerAlive(t.Owner, t.CreatedAt) {
				continue
			}
			st, ok, err := adoptable(tx, t, resumable)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if err := tx.Model(&Turn{}).Where("id = ? AND owner = ?", t.ID, t.Owner).Update("owner", s.owner).Error; err != nil {
				return err
			}
			st.Turn.Owner = s.owner
			out = append(out, st)
		}
		return nil
	})
	return out, err
}

// adoptable reads what a stranded turn waits on: its one pending decision, when that is of a
// resumable kind, in a session of AgentDesk's own agent.
func adoptable(tx *gorm.DB, t Turn, resumable []string) (Stranded, bool, error) {
	var pending []DecisionRow
	if err := tx.Where("turn_id = ? AND status = ?", t.ID, DecisionPending).Order("rowid").Find(&pending).Error; err != nil {
		return Stranded{}, false, err
	}
	if len(pending) != 1 || !slices.Contains(resumable, pending[0].Kind) {
		return Stranded{}, false, nil
	}
	var sess Session
	if err := tx.Where("id = ?", t.SessionID).Take(&sess).Error; err != nil {
		return Stranded{}, false, notFound(err, t.SessionID)
	}
	if sess.ExternalAgent != "" || sess.RunningTurn != t.ID {
		return Stranded{}, false, nil
	}
	return Stranded{Turn: t, Workspace: sess.Workspace, Decision: pending[0]}, true, nil
}
