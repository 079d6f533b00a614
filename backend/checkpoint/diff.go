package checkpoint

// Diff lists what changed from checkpoint from to checkpoint to; to 0 means the workspace now.
func (s *Store) Diff(from, to int64) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.Get(from)
	if err != nil {
		return nil, err
	}
	before, err := s.entries(a)
	if err != nil {
		return nil, err
	}
	var after []Entry
	if to == 0 {
		after, err = s.current(a.Workspace)
	} else {
		after, err = s.stateOf(to)
	}
	if err != nil {
		return nil, err
	}
	return compare(before, after), nil
}

func (s *Store) stateOf(id int64) ([]Entry, error) {
	c, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	return s.entries(c)
}

// Content is a stored file's content, by the hash an Entry names.
func (s *Store) Content(hash string) ([]byte, error) { return blob(s.db, hash) }
