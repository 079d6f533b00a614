package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// These tests replay, end to end, ways to run a denied program through code the command line
// does not show, in Full access with the deny rules `rm`, `git push` and `secrets/**` saved.
// Without a terminal a question is declined, so a command the gate asks about does not run.

// denyWorkspace is a git repository with one commit (holding secrets/key.pem), in a data folder whose rules deny rm, git push and secrets/**.
func denyWorkspace(t *testing.T) (d, ws string) {
	t.Helper()
	for _, tool := range []string{"git", "make", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed for this test: install it", tool)
		}
	}
	d, ws = t.TempDir(), t.TempDir()
	withStore(t, d, func(st *store.Store) {
		for _, r := range []policy.Rule{{Effect: policy.Deny, Command: "rm"}, {Effect: policy.Deny, Command: "git push"},
			{Effect: policy.Deny, Path: "secrets/**"}} {
			if _, err := st.AddRule(r, "settings"); err != nil {
				t.Fatal(err)
			}
		}
	})
	gitInit(t, ws)
	mustWrite(t, filepath.Join(ws, "secrets/key.pem"), "PRIVATE-KEY-MATERIAL")
	mustWrite(t, filepath.Join(ws, "README.md"), "readme")
	gitIn(t, ws, "add", ".")
	gitIn(t, ws, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "init")
	return d, ws
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v %s", args, err, out)
	}
	return string(out)
}

// runAlone runs each command in a turn of its own, with the victim file v in place, so one
// attack that got through cannot hide another.
func runAlone(t *testing.T, d, ws string, cmds []string, check func(i int, cmd, result string)) {
	t.Helper()
	for i, cmd := range cmds {
		mustWrite(t, filepath.Join(ws, "v"), "victim")
		results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{bash(cmd)}})
		check(i, cmd, results[0])
	}
}

// git configured from its command line or its environment can run anything: an fsmonitor, an
// alias, an included file.
func TestAttackDenyRmThroughGitConfig(t *testing.T) {
	d, ws := denyWorkspace(t)
	cfg := filepath.Join(ws, "aliases.cfg")
	mustWrite(t, cfg, "[alias]\n\tx = !rm -f v\n")
	runAlone(t, d, ws, []string{
		"git -c core.fsmonitor='rm -f v' status",
		"git -c include.path=" + cfg + " x",
		"E='!rm -f v' git --config-env=alias.x=E x",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!rm -f v' git x",
		"export GIT_CONFIG_PARAMETERS=\"'alias.x=!rm -f v'\"; git x",
	}, func(_ int, cmd, result string) {
		if !exists(filepath.Join(ws, "v")) {
			t.Errorf("%q deleted v past the deny rule on rm: %q", cmd, result)
		}
	})
}

// make reads its recipes from a makefile, awk runs commands through system(): the rm they run
// is not on the command line.
func TestAttackDenyRmThroughMakeAndAwk(t *testing.T) {
	d, ws := denyWorkspace(t)
	runAlone(t, d, ws, []string{
		"make -f /dev/stdin <<< 'x: ; rm -f v'",
		"awk -f /dev/stdin <<< 'BEGIN{system(\"rm -f v\")}'",
		"awk 'BEGIN{system(\"r\" \"m -f v\")}'",
		"echo 'rm -f v' | awk '{print | \"sh\"}'",
	}, func(_ int, cmd, result string) {
		if !exists(filepath.Join(ws, "v")) {
			t.Errorf("%q deleted v past the deny rule on rm: %q", cmd, result)
		}
	})
}

// A push hidden behind an alias defined on the command line or in the environment does not
// reach the remote (a bare repository inside the workspace, which the sandbox lets git write).
func TestAttackDenyPushThroughGitConfig(t *testing.T) {
	d, ws := denyWorkspace(t)
	remote := filepath.Join(ws, "remote.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v %s", err, out)
	}
	gitIn(t, ws, "remote", "add", "origin", remote)
	cfg := filepath.Join(ws, "aliases.cfg")
	mustWrite(t, cfg, "[alias]\n\tp = push\n")
	runAlone(t, d, ws, []string{
		"git -c include.path=" + cfg + " p origin HEAD:refs/heads/a",
		"P=push git --config-env=alias.p=P p origin HEAD:refs/heads/b",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p origin HEAD:refs/heads/c",
		"env GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.p GIT_CONFIG_VALUE_0=push git p origin HEAD:refs/heads/d",
	}, func(i int, cmd, result string) {
		if refs := gitIn(t, remote, "for-each-ref"); strings.Contains(refs, "refs/heads/"+string(rune('a'+i))) {
			t.Errorf("%q pushed past the deny rule on git push: %s; result %q", cmd, refs, result)
		}
	})
	// The remote takes a push the gate lets through, so the checks above can fail.
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{bash("git send-pack " + remote + " HEAD:refs/heads/ok")}})
	if refs := gitIn(t, remote, "for-each-ref"); !strings.Contains(refs, "refs/heads/ok") {
		t.Fatalf("an allowed send-pack did not reach the remote, so the test proves nothing: %q", results)
	}
}

// A path deny rule covers the file read out of the repository by its object name.
func TestAttackDenySecretsThroughGitObjectNames(t *testing.T) {
	d, ws := denyWorkspace(t)
	cmds := []string{"git show HEAD:secrets/key.pem", "git show :secrets/key.pem", "git show :0:secrets/key.pem",
		"git cat-file -p HEAD:secrets/key.pem", "git show HEAD:./secrets/key.pem", "git --no-pager show HEAD~0:secrets/key.pem"}
	runAlone(t, d, ws, cmds, func(_ int, cmd, result string) {
		if strings.Contains(result, "PRIVATE-KEY-MATERIAL") {
			t.Errorf("%q showed the denied file: %q", cmd, result)
		}
	})
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{bash("git show HEAD:README.md")}})
	if !strings.Contains(results[0], "readme") {
		t.Fatalf("git show did not run, so the test proves nothing: %q", results)
	}
}
