package session

import (
	"context"
	"testing"

	"agentdesk/backend/store"
	"agentdesk/backend/worktree/worktreetest"
)

func TestIsolationIsSuggestedInARepositoryAsTheSettingSays(t *testing.T) {
	svc := openStore(t)
	st := svc.Store
	repo := worktreetest.Repo(t, map[string]string{"a": "a"})
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
