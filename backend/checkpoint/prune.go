package checkpoint

import "gorm.io/gorm"

// Usage is what the snapshots take on disk, compressed, against the quota.
type Usage struct {
	Bytes       int64 `json:"bytes"`
	Quota       int64 `json:"quota"`
	Checkpoints int64 `json:"checkpoints"`
}

// Usage reports the stored bytes and the quota.
func (s *Store) Usage() (Usage, error) {
	u := Usage{Quota: s.opts.Quota}
	if err := s.db.Raw("SELECT COALESCE(SUM(stored), 0) FROM blobs").Scan(&u.Bytes).Error; err != nil {
		return u, storeErr(err)
	}
	return u, storeErr(s.db.Raw("SELECT COUNT(*) FROM checkpoints").Scan(&u.Checkpoints).Error)
}

// pruneLocked keeps the store within its quota: the oldest checkpoints go first, then every
// blob no remaining manifest names. The newest checkpoint always stays, even alone over quota.
//
// What the last walk of a workspace remembered may name contents only a dropped checkpoint
// held: it is forgotten, and the next walk starts from the newest checkpoint still stored.
func (s *Store) pruneLocked() error {
	for {
		u, err := s.Usage()
		if err != nil || u.Bytes <= s.opts.Quota || u.Checkpoints <= 1 {
			return err
		}
		clear(s.last)
		if err := s.dropOldest(); err != nil {
			return err
		}
	}
}

// dropOldest deletes the oldest checkpoint and the blobs only it held, in one transaction.
func (s *Store) dropOldest() error {
	return s.db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("DELETE FROM checkpoints WHERE id = (SELECT MIN(id) FROM checkpoints)").Error; err != nil {
			return storeErr(err)
		}
		// A staged change older than every checkpoint left goes with them.
		if err := tx.Exec("DELETE FROM staged WHERE created_at < (SELECT MIN(created_at) FROM checkpoints)").Error; err != nil {
			return storeErr(err)
		}
		live, err := liveBlobs(tx)
		if err != nil {
			return err
		}
		if err := tx.Exec("CREATE TEMP TABLE IF NOT EXISTS live (hash TEXT PRIMARY KEY)").Error; err != nil {
			return storeErr(err)
		}
		defer tx.Exec("DELETE FROM live")
		for h := range live {
			if err := tx.Exec("INSERT OR IGNORE INTO live (hash) VALUES (?)", h).Error; err != nil {
				return storeErr(err)
			}
		}
		if err := tx.Exec("DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM live)").Error; err != nil {
			return storeErr(err)
		}
		return storeErr(tx.Exec("PRAGMA incremental_vacuum").Error)
	})
}

// liveBlobs is every hash a remaining checkpoint needs: its manifest and its files.
func liveBlobs(tx *gorm.DB) (map[string]bool, error) {
	var manifests []string
	if err := tx.Raw("SELECT DISTINCT manifest FROM checkpoints").Scan(&manifests).Error; err != nil {
		return nil, storeErr(err)
	}
	live := map[string]bool{}
	var staged []struct{ Base, Proposed string }
	if err := tx.Raw("SELECT base, proposed FROM staged").Scan(&staged).Error; err != nil {
		return nil, storeErr(err)
	}
	for _, st := range staged {
		live[st.Base], live[st.Proposed] = true, true
	}
	for _, m := range manifests {
		live[m] = true
		entries, err := manifestEntries(tx, m)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Hash != "" && !e.Large {
				live[e.Hash] = true
			}
		}
	}
	return live, nil
}
