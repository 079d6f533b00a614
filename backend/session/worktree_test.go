package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"agentdesk/backend/store"
)

func TestIsolationIsSuggestedInARepositoryAsTheSettingSays(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := &Service{Store: st}
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "a"), []byte("a"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "a"}, {"-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	ctx := context.Background()
	if got, _ := svc.SuggestIsolation(ctx, t.TempDir()); got.Repository || got.Isolate {
		t.Fatalf("outside a repository: %+v", got)
	}
	for setting, want := range map[string]bool{"": false, "busy": false, "always": true, "never": false, "sometimes": false} {
		if setting != "" {
			st.SetSetting(store.SettingIsolation, setting)
		}
		got, err := svc.SuggestIsolation(ctx, repo)
		if err != nil || !got.Repository || got.Isolate != want || got.Busy != 0 {
			t.Errorf("setting %q: %+v %v", setting, got, err)
		}
	}
	if _, err := ParseIsolation("sometimes"); err == nil {
		t.Fatal("an unknown setting is refused when it is set")
	}
}
