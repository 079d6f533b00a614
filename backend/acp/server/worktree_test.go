package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	acp "github.com/coder/acp-go-sdk"
)

// The worktree option is offered for a folder in a git repository only; setting it to isolated
// moves the session into a worktree of its own and back into the folder.
func TestWorktreeOptionMovesTheSessionIntoItsOwnCopy(t *testing.T) {
	conn, _, _, st := serve(t, `{"responses":[]}`)
	ctx := context.Background()
	conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	plain, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if currentOf(plain.ConfigOptions, ConfigWorktree) != "" {
		t.Fatal("a folder outside a repository is offered a worktree")
	}
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt"}, {"-c", "user.name=P", "-c", "user.email=p@example.com", "commit", "-qm", "a"}} {
		if out, err := exec.Command("git", append([]string{"-C", repo}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: repo, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := currentOf(s.ConfigOptions, ConfigWorktree); got != "folder" {
		t.Fatalf("the option in a repository: %q", got)
	}
	set := func(value string) acp.SetSessionConfigOptionResponse {
		t.Helper()
		res, err := conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
			SessionId: s.SessionId, ConfigId: ConfigWorktree, Value: acp.SessionConfigValueId(value)}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if got := currentOf(set("isolated").ConfigOptions, ConfigWorktree); got != "isolated" {
		t.Fatalf("after isolated: %q", got)
	}
	sess, _ := st.GetSession(string(s.SessionId))
	if sess.Workspace == repo || !strings.Contains(sess.Workspace, "-worktrees") {
		t.Fatalf("the session works in %s", sess.Workspace)
	}
	if got := currentOf(set("folder").ConfigOptions, ConfigWorktree); got != "folder" {
		t.Fatalf("after folder: %q", got)
	}
	if sess, _ = st.GetSession(string(s.SessionId)); sess.Workspace != repo {
		t.Fatalf("back in %s", sess.Workspace)
	}
}
