package store

import (
	"reflect"
	"testing"
)

func TestRecentWorkspacesAreDistinctMostRecentFirst(t *testing.T) {
	st, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var ids []string
	for _, ws := range []string{"/p/a", "/p/b", "/p/a", "/p/c"} {
		row, err := st.CreateSession(NewSession{Title: "t", Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, row.ID)
	}
	if _, err := st.RenameSession(ids[1], "touched"); err != nil {
		t.Fatal(err)
	}
	got, err := st.RecentWorkspaces(10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"/p/b", "/p/c", "/p/a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("recent %v, want %v", got, want)
	}
	if got, _ := st.RecentWorkspaces(1); len(got) != 1 {
		t.Fatalf("limit: %v", got)
	}
}
