package store

// RecentWorkspaces returns the distinct workspaces of the sessions, the one used most recently
// first, at most limit of them: what the person chose before, for the new-task composer to offer.
func (s *Store) RecentWorkspaces(limit int) ([]string, error) {
	if limit < 1 {
		limit = 1
	}
	var out []string
	err := s.db.Model(&Session{}).Select("workspace").Where("workspace <> ''").Group("workspace").
		Order("MAX(updated_at) DESC").Limit(limit).Pluck("workspace", &out).Error
	return out, s.fail(err)
}
