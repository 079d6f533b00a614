package scaledata

import (
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/store"
)

// A built folder holds exactly what its spec says, through the store's own rows, and building
// it again to the same spec leaves it as it is.
func TestAFolderHoldsItsSpec(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Sessions: 30, Events: 1_200, Big: 400, Medium: 100}
	m, err := Ensure(dir, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	list, _ := st.ListSessions()
	var events int64
	for _, s := range list {
		events += s.EventSeq
	}
	big, _ := st.GetSession(m.BigID)
	medium, _ := st.GetSession(m.MediumID)
	turns, _ := st.Turns(m.BigID)
	modes := 0
	evs, _ := st.Events(m.BigID)
	for _, e := range evs {
		if e.Type == eventlog.TypeModeSet {
			modes++
		}
	}
	st.Close()
	if len(list) != spec.Sessions || events != int64(spec.Events) || big.EventSeq != int64(spec.Big) || medium.EventSeq != int64(spec.Medium) {
		t.Fatalf("%d sessions, %d events, big %d, medium %d; want %+v", len(list), events, big.EventSeq, medium.EventSeq, spec)
	}
	if len(turns) < 10 || modes == 0 {
		t.Fatalf("the big session looks like no real work: %d turns, %d mode switches", len(turns), modes)
	}
	again, err := Ensure(dir, spec, func(int, int) { t.Fatal("a complete folder was built again") })
	if err != nil || again != m {
		t.Fatalf("%+v %v", again, err)
	}
	if _, ok := Open(dir, Smoke); ok {
		t.Fatal("a folder of another spec passed for this one")
	}
}

// A folder whose manifest names no schema, or a schema newer than the store's, is not taken as
// complete: its migrations may be numbered differently, and the store could not open it.
func TestAFolderOfAnotherSchemaIsRebuilt(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Sessions: 3, Events: 30, Big: 10, Medium: 5}
	m, err := Ensure(dir, spec, nil)
	if err != nil || m.Schema != store.SupportedSchema() {
		t.Fatalf("%+v %v", m, err)
	}
	for _, schema := range []int{0, store.SupportedSchema() + 1} {
		stale := m
		stale.Schema = schema
		b, _ := json.Marshal(stale)
		if err := os.WriteFile(filepath.Join(dir, manifestName), b, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok := Open(dir, spec); ok {
			t.Fatalf("a folder of schema %d passed for one of schema %d", schema, store.SupportedSchema())
		}
	}
	older := m
	older.Schema = store.SupportedSchema() - 1
	b, _ := json.Marshal(older)
	os.WriteFile(filepath.Join(dir, manifestName), b, 0o600)
	if _, ok := Open(dir, spec); !ok {
		t.Fatal("a folder of an older schema, which the store migrates forward, was refused")
	}
}

// A folder of an older schema is migrated as a copy beside it, once: the folder itself (the
// cache the benchmarks of every branch share) stays as it was built, at its schema.
func TestAnOlderFolderIsMigratedAsACopy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "year")
	spec := Spec{Sessions: 4, Events: 40, Big: 10, Medium: 5}
	m, err := Ensure(dir, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	older := store.SupportedSchema() - 1
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(dir, store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	// The last migration is undone in the record (it is written to run again harmlessly).
	if _, err := raw.Exec(fmt.Sprintf("DELETE FROM schema_migrations WHERE version = %d; PRAGMA user_version = %d",
		store.SupportedSchema(), older)); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	m.Schema = older
	writeManifest(dir, m)
	db, manifest := fileSum(t, dir, store.FileName), fileSum(t, dir, manifestName)

	got, cm, err := Current(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if got == dir || cm.Schema != store.SupportedSchema() || cm.BigID != m.BigID {
		t.Fatalf("current folder %s %+v", got, cm)
	}
	if fileSum(t, dir, store.FileName) != db || fileSum(t, dir, manifestName) != manifest {
		t.Fatal("the shared folder was changed")
	}
	if om, ok := Open(dir, spec); !ok || om.Schema != older {
		t.Fatalf("the shared folder now says %+v", om)
	}
	if _, err := os.Stat(filepath.Join(got, "backups")); !os.IsNotExist(err) {
		t.Fatalf("the copy keeps a backup of itself: %v", err)
	}
	st, err := store.Open(got)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := st.SchemaVersion()
	list, _ := st.ListSessions()
	st.Close()
	if v != store.SupportedSchema() || len(list) != spec.Sessions {
		t.Fatalf("the copy: schema %d, %d sessions", v, len(list))
	}
	before := fileSum(t, got, store.FileName)
	again, _, err := Current(dir, m)
	if err != nil || again != got || fileSum(t, got, store.FileName) != before {
		t.Fatalf("the copy was made again: %s %v", again, err)
	}
}

func fileSum(t *testing.T, dir, name string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// A copy keeps each file's modification time: the store's check record names its database by
// size and time, so a copy that lost it would have the whole file checked at every open.
func TestACopyKeepsModificationTimes(t *testing.T) {
	from, to := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	name := filepath.Join(from, store.FileName)
	if err := os.WriteFile(name, []byte("pages"), 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC)
	if err := os.Chtimes(name, then, then); err != nil {
		t.Fatal(err)
	}
	if err := copyFolder(from, to); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(to, store.FileName))
	if err != nil || !info.ModTime().Equal(then) {
		t.Fatalf("the copy's time: %v (%v), want %v", info.ModTime(), err, then)
	}
}
