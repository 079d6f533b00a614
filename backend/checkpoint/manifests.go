package checkpoint

import (
	"slices"
	"sync"
)

// manifestCache keeps the last few manifests decoded: the runtime compares each snapshot with
// the one just before it (what a tool call changed), and decoding a manifest of 10,000 files
// costs more than the comparison. Entries handed out are never changed by their readers.
type manifestCache struct {
	mu    sync.Mutex
	order []string
	byKey map[string][]Entry
}

const manifestsKept = 8

func (m *manifestCache) get(hash string) ([]Entry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.byKey[hash]
	return e, ok
}

func (m *manifestCache) put(hash string, entries []Entry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.byKey == nil {
		m.byKey = map[string][]Entry{}
	}
	if _, ok := m.byKey[hash]; ok {
		return
	}
	if len(m.order) == manifestsKept {
		delete(m.byKey, m.order[0])
		m.order = slices.Delete(m.order, 0, 1)
	}
	m.order = append(m.order, hash)
	m.byKey[hash] = entries
}

// entries reads the manifest of c, from the cache when it is there.
func (s *Store) entries(c Checkpoint) ([]Entry, error) {
	if e, ok := s.manifests.get(c.Manifest); ok {
		return e, nil
	}
	e, err := manifestEntries(s.db, c.Manifest)
	if err == nil {
		s.manifests.put(c.Manifest, e)
	}
	return e, err
}
