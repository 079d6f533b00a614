package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/store"
	"agentdesk/locales"
)

// DemoEnded is a turn in a demo session whose scratch folder is gone: the folder of a demo is
// removed at the next start of the app.
const DemoEnded errs.Kind = "DEMO_ENDED"

// settingDemoSessions lists the demo sessions and their scratch folders, so a restart knows
// which folders to remove and which sessions no longer have one.
const settingDemoSessions = "demo.sessions"

// demoDirPrefix names the scratch folders; only folders so named are ever removed.
const demoDirPrefix = "agentdesk-demo-"

type demoRecord struct {
	Session string `json:"session"`
	Dir     string `json:"dir"`
	Lang    string `json:"lang"`
	// Ended: the folder was removed at a start after the demo began.
	Ended bool `json:"ended,omitempty"`
}

// demos are the offline demo's sessions. Each runs on its own scripted provider, which follows
// that session's answers; no other session ever uses it.
type demos struct {
	st *store.Store

	mu        sync.Mutex
	records   map[string]demoRecord
	providers map[string]provider.Provider
}

// loadDemos reads the demo sessions at start: their folders are removed (a demo is a one-off
// tour) and sessions deleted meanwhile are forgotten.
func loadDemos(st *store.Store) (*demos, error) {
	d := &demos{st: st, records: map[string]demoRecord{}, providers: map[string]provider.Provider{}}
	raw, ok, err := st.GetSetting(settingDemoSessions)
	if err != nil || !ok {
		return d, err
	}
	var list []demoRecord
	json.Unmarshal([]byte(raw), &list)
	for _, r := range list {
		if _, err := st.GetSession(r.Session); err != nil {
			removeDemoDir(r.Dir)
			continue
		}
		removeDemoDir(r.Dir)
		r.Ended = true
		d.records[r.Session] = r
	}
	return d, d.saveLocked()
}

// removeDemoDir deletes a demo's scratch folder, and nothing that is not one.
func removeDemoDir(dir string) {
	if dir == "" || !filepath.IsAbs(dir) || !strings.HasPrefix(filepath.Base(dir), demoDirPrefix) {
		return
	}
	os.RemoveAll(dir)
}

func (d *demos) saveLocked() error {
	list := make([]demoRecord, 0, len(d.records))
	for _, r := range d.records {
		list = append(list, r)
	}
	b, err := json.Marshal(list)
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	return d.st.SetSetting(settingDemoSessions, string(b))
}

// newDir makes a demo's scratch folder, outside the data folder (that one is protected, and
// every read there would ask).
func newDemoDir(readme string) (string, error) {
	dir, err := os.MkdirTemp("", demoDirPrefix)
	if err != nil {
		return "", errs.Wrap(errs.Internal, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(readme), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", errs.Wrap(errs.Internal, err)
	}
	return dir, nil
}

func (d *demos) add(r demoRecord) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.records[r.Session] = r
	return d.saveLocked()
}

func (d *demos) isDemo(sessionID string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	_, ok := d.records[sessionID]
	return ok
}

// remove forgets a deleted demo session and removes its folder.
func (d *demos) remove(sessionID string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.records[sessionID]
	if !ok {
		return nil
	}
	removeDemoDir(r.Dir)
	delete(d.records, sessionID)
	delete(d.providers, sessionID)
	return d.saveLocked()
}

// provider is the demo session's own scripted provider; ok is false for any other session.
func (d *demos) provider(sessionID string) (p provider.Provider, ok bool, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	r, ok := d.records[sessionID]
	if !ok {
		return nil, false, nil
	}
	if r.Ended {
		return nil, true, errs.New(DemoEnded)
	}
	if p := d.providers[sessionID]; p != nil {
		return p, true, nil
	}
	data, err := locales.Demo.ReadFile("demo/demo." + r.Lang + ".json")
	if err != nil {
		return nil, true, errs.Wrap(errs.Internal, err)
	}
	sp, err := scripted.FromBytes("demo", data)
	if err != nil {
		return nil, true, err
	}
	d.providers[sessionID] = sp
	return sp, true, nil
}
