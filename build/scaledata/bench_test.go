package scaledata_test

import (
	"testing"

	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/build/scaledata"
)

func openFolder(b *testing.B) (*store.Store, scaledata.Manifest) {
	b.Helper()
	dir, m, err := scaledata.Folder()
	if err != nil {
		b.Fatal(err)
	}
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	return st, m
}

// BenchmarkScaleModeInForce reads the mode in force of the folder's largest session (100,000
// events in the Year folder): from its row, whatever the length of its log.
func BenchmarkScaleModeInForce(b *testing.B) {
	st, m := openFolder(b)
	for b.Loop() {
		if _, err := st.ModeInForce(m.BigID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScaleSessionsPage reads the first page of the session list as the window asks for
// it, each session with its mode in force, out of the folder's sessions (10,000 in Year).
func BenchmarkScaleSessionsPage(b *testing.B) {
	st, _ := openFolder(b)
	svc := &session.Service{Store: st}
	for b.Loop() {
		if p, err := svc.List(store.SessionRange{Limit: 50}); err != nil || len(p.Sessions) != 50 {
			b.Fatal(len(p.Sessions), err)
		}
	}
}

// BenchmarkScaleLogPage reads the newest page of the largest session's log, what opening it
// shows first.
func BenchmarkScaleLogPage(b *testing.B) {
	st, m := openFolder(b)
	for b.Loop() {
		if p, err := st.LogPage(m.BigID, store.LogRange{Limit: 200}); err != nil || len(p.Records) != 200 {
			b.Fatal(err)
		}
	}
}
