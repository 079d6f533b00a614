package worktree

import (
	"os"
	"path/filepath"
	"testing"
)

// A repository proposes a set-up in .agentdesk/worktree.json; a file that is a link, or not
// the expected JSON, proposes nothing.
func TestProposedSetupIsReadOnlyFromTheRepositorysOwnFile(t *testing.T) {
	dir := t.TempDir()
	if got := ProposedSetup(dir); got != "" {
		t.Fatalf("no file: %q", got)
	}
	write(t, filepath.Join(dir, ProposalFile), `{"setup": "  npm ci  "}`)
	if got := ProposedSetup(dir); got != "npm ci" {
		t.Fatalf("proposed %q", got)
	}
	write(t, filepath.Join(dir, ProposalFile), `{"setup": 7}`)
	if got := ProposedSetup(dir); got != "" {
		t.Fatalf("not a string: %q", got)
	}
	elsewhere := t.TempDir()
	write(t, filepath.Join(elsewhere, "worktree.json"), `{"setup": "from elsewhere"}`)
	os.RemoveAll(filepath.Join(dir, ".agentdesk"))
	if err := os.Symlink(elsewhere, filepath.Join(dir, ".agentdesk")); err != nil {
		t.Fatal(err)
	}
	if got := ProposedSetup(dir); got != "" {
		t.Fatalf("through a link: %q", got)
	}
}
