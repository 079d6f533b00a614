package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// These tests replay attacks that plant code some other program runs on its own, later and
// outside the sandbox: the write tool must ask before each (declined here, without a terminal)
// in every permission mode, Full access included.

// fsmonitorConfig is a git config that makes `git status` run a command that touches marker.
func fsmonitorConfig(marker string) string {
	return "[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch " + marker + "\"\n"
}

// The agent lays tools/ out as a bare repository whose config runs a command; the person's
// next `git status` in tools/ would run it. In whichever order the files come, the layout is
// never completed, and git runs nothing.
func TestAttackPlantedBareRepositoryAsks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	provesGitTakesTheLayout(t)
	for _, permission := range []string{"auto", "full"} {
		for _, headFirst := range []bool{true, false} {
			d, ws := t.TempDir(), t.TempDir()
			marker := filepath.Join(t.TempDir(), "PWNED")
			layout := []map[string]any{write("tools/config", fsmonitorConfig(marker)),
				write("tools/objects/info/keep", ""), write("tools/refs/heads/keep", "")}
			head := write("tools/HEAD", "ref: refs/heads/main\n")
			if headFirst {
				layout = append([]map[string]any{head}, layout...)
			} else {
				layout = append(layout, head)
			}
			calls := append(layout, write("tools/notes.txt", "ordinary"))
			results := runAttack(t, d, ws, attack{permission: permission, calls: calls})
			gitStatus(t, filepath.Join(ws, "tools"))
			if exists(marker) {
				t.Fatalf("%s, HEAD first=%v: git ran the planted fsmonitor command: %q", permission, headFirst, results)
			}
			if complete(filepath.Join(ws, "tools")) || gitTakesForRepository(t, filepath.Join(ws, "tools")) {
				t.Fatalf("%s, HEAD first=%v: the bare layout was written unasked: %q", permission, headFirst, results)
			}
			if !exists(filepath.Join(ws, "tools/notes.txt")) {
				t.Fatalf("%s: an ordinary write did not happen, so the test proves nothing: %q", permission, results)
			}
		}
	}
}

// provesGitTakesTheLayout plants the same layout by hand and checks that git takes the folder
// for a repository, and so reads its config: otherwise the attack above could not succeed and
// its test would prove nothing. Which command then runs what the config names depends on the
// command and on git's version, so the attack's test checks the layout itself, besides the
// marker.
func provesGitTakesTheLayout(t *testing.T) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "tools")
	for name, content := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": fsmonitorConfig("/nonexistent/x"),
		"objects/info/keep": "", "refs/heads/keep": ""} {
		mustWrite(t, filepath.Join(dir, name), content)
	}
	if !gitTakesForRepository(t, dir) {
		t.Fatal("git does not take a planted bare layout for a repository, so these tests prove nothing")
	}
}

// gitStatus runs the person's `git -C dir status`; its failure (not a repository) is expected.
func gitStatus(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "status")
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	cmd.Run()
}

// gitTakesForRepository reports git finding dir itself as a repository's folder.
func gitTakesForRepository(t *testing.T, dir string) bool {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "rev-parse", "--absolute-git-dir")
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	out, err := cmd.Output()
	real, _ := filepath.EvalSymlinks(dir)
	return err == nil && strings.TrimSpace(string(out)) == real
}

// complete reports dir holding HEAD beside config, objects or refs.
func complete(dir string) bool {
	if !exists(filepath.Join(dir, "HEAD")) {
		return false
	}
	return exists(filepath.Join(dir, "config")) || exists(filepath.Join(dir, "objects")) || exists(filepath.Join(dir, "refs"))
}

// direnv's .envrc, git's .gitmodules and a nested repository's hooks are asked about at any
// depth, in Auto and in Full access.
func TestAttackPlantedAutorunFilesAsk(t *testing.T) {
	planted := []string{".envrc", "sub/dir/.envrc", ".gitmodules", "vendor/.gitmodules", "sub/.git/hooks/post-checkout", "sub/.git"}
	for _, permission := range []string{"auto", "full"} {
		d, ws := t.TempDir(), t.TempDir()
		var calls []map[string]any
		for _, p := range planted {
			calls = append(calls, write(p, "touch /tmp/pwned\n"))
		}
		calls = append(calls, write("notes.txt", "ordinary"))
		results := runAttack(t, d, ws, attack{permission: permission, calls: calls})
		for i, p := range planted {
			if exists(filepath.Join(ws, p)) {
				t.Errorf("%s: %s was written unasked: %q", permission, p, results[i])
			}
			if !strings.Contains(results[i], "non-interactive") {
				t.Errorf("%s: %s was not asked about: %q", permission, p, results[i])
			}
		}
		if !exists(filepath.Join(ws, "notes.txt")) {
			t.Fatalf("%s: an ordinary write did not happen, so the test proves nothing: %q", permission, results)
		}
	}
}

// `agentdesk doctor --json` lists the writes that ask every time.
func TestDoctorListsProtectedWrites(t *testing.T) {
	var rep struct {
		ProtectedWrites []string `json:"protected_writes"`
	}
	_, out, _ := run(t, nil, "doctor", "--json", "--data-dir", t.TempDir()) // a failed check of the host is not ours
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"**/.envrc", "**/.gitmodules", "**/.git/**"} {
		if !slices.Contains(rep.ProtectedWrites, want) {
			t.Errorf("protected_writes %q lacks %s", rep.ProtectedWrites, want)
		}
	}
}

// "Allow for this session" on `bash build.sh` approved build.sh as it was: once the agent
// rewrote it (a write Auto runs unasked), the same command asks again, declined here.
func TestAttackRewrittenScriptAsksAgain(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	mustWrite(t, filepath.Join(ws, "build.sh"), "touch first-run\n")
	id := createSession(t, d, ws, "auto")
	withStore(t, d, func(st *store.Store) {
		if err := st.AddGrant(id, sessionGrant(t, ws, "bash build.sh")); err != nil {
			t.Fatal(err)
		}
	})
	results := runAttack(t, d, ws, attack{session: id, calls: []map[string]any{
		bash("bash build.sh"), write("build.sh", "touch second-run\n"), bash("bash build.sh")}})
	if !exists(filepath.Join(ws, "first-run")) {
		t.Fatalf("the granted script did not run before the change, so the test proves nothing: %q", results)
	}
	if exists(filepath.Join(ws, "second-run")) {
		t.Fatalf("the grant ran the rewritten script unasked: %q", results)
	}
	if !strings.Contains(results[2], "non-interactive") {
		t.Fatalf("the rewritten script was not asked about: %q", results[2])
	}
}

// sessionGrant is what "Allow for this session" stores for command, exact scope: the command
// with the record of the scripts it runs, taken when the gate resolved the call.
func sessionGrant(t *testing.T, ws, command string) policy.Grant {
	t.Helper()
	r, err := policy.Resolve(policy.Workspace{Root: ws}, policy.Call{Kind: policy.KindBash, Command: command})
	if err != nil || r.Scripts == "" {
		t.Fatalf("resolve %q: %v (scripts %q)", command, err, r.Scripts)
	}
	return policy.Grant{Kind: policy.KindBash, Command: command, Scope: policy.ScopeExact, Scripts: r.Scripts}
}
