package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// These tests replay, end to end through `agentdesk run --script` on a temporary workspace, each
// attack of the trust-hardening report, and check the disk (and what the model was shown).
// Without a terminal every decision is declined at once, so "asks" shows as "did not run".

// attack is one scripted turn: the tool calls the model makes, in one response.
type attack struct {
	permission string
	calls      []map[string]any
	session    string // an existing session, to carry grants; "" for a new one
}

// runAttack runs the turn and returns the tool results the model saw, in order.
func runAttack(t *testing.T, d, ws string, a attack) []string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"responses": []map[string]any{
		{"text": "Working.", "tool_calls": a.calls}, {"text": "Done."}}})
	script := writeScript(t, string(body))
	record := filepath.Join(t.TempDir(), "record.json")
	args := []string{"run", "--workspace", ws, "--script", script, "--record", record, "--data-dir", d}
	if a.session != "" {
		args = append(args, "--session", a.session)
	} else {
		args = append(args, "--permission", a.permission)
	}
	if code, out, errOut := run(t, nil, append(args, "go")...); code != 0 {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	return toolResults(t, record)
}

func toolResults(t *testing.T, record string) []string {
	t.Helper()
	raw, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Requests []struct {
			Messages []struct {
				ToolResults []struct{ Content string } `json:"tool_results"`
			} `json:"messages"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil || len(rec.Requests) < 2 {
		t.Fatalf("record: %v (%d requests)", err, len(rec.Requests))
	}
	msgs := rec.Requests[len(rec.Requests)-1].Messages
	var out []string
	for _, r := range msgs[len(msgs)-1].ToolResults {
		out = append(out, r.Content)
	}
	return out
}

func bash(cmd string) map[string]any {
	return map[string]any{"name": "bash", "input": map[string]any{"command": cmd}}
}

func write(path, content string) map[string]any {
	return map[string]any{"name": "write", "input": map[string]any{"path": path, "content": content}}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// The workspace is laid out as a bare repository whose config runs a command (fsmonitor), and
// the agent runs `git status` — on Auto's read-only list. The command must not run.
func TestAttackBareRepositoryFsmonitorInAuto(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	for _, nested := range []bool{false, true} {
		d, root := t.TempDir(), t.TempDir()
		ws := root
		if nested {
			gitInit(t, root)
			ws = filepath.Join(root, "sub")
			mustWrite(t, filepath.Join(ws, "keep"), "x")
		}
		marker := filepath.Join(t.TempDir(), "PWNED")
		config := "[core]\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"touch " + marker + "\"\n"
		// The write tool asks before planting this layout (attack_plant_test.go); here it is
		// already there, as a clone or an earlier command could leave it.
		for name, content := range map[string]string{"HEAD": "ref: refs/heads/main\n", "config": config,
			"objects/info/keep": "", "refs/heads/keep": ""} {
			mustWrite(t, filepath.Join(ws, name), content)
		}
		results := runAttack(t, d, ws, attack{permission: "auto", calls: []map[string]any{bash("git status")}})
		if exists(marker) {
			t.Fatalf("nested=%v: git ran the workspace's fsmonitor command; results %q", nested, results)
		}
	}
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

// "Allow for this session" on one command, and an always-allow rule stored before scopes
// existed, allow exactly that command: extra arguments ask (declined here).
func TestAttackGrantsAreExact(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	for _, f := range []string{"build/out", "victim-a", "victim-b"} {
		mustWrite(t, filepath.Join(ws, f), "x")
	}
	id := createSession(t, d, ws, "ask")
	withStore(t, d, func(st *store.Store) {
		if err := st.AddGrant(id, policy.Grant{Kind: policy.KindBash, Command: "rm -rf build"}); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddRule(policy.Rule{Effect: policy.Allow, Kind: policy.KindBash, Command: "touch stamp"}, "settings"); err != nil {
			t.Fatal(err)
		}
	})
	results := runAttack(t, d, ws, attack{session: id, calls: []map[string]any{
		bash("rm -rf build victim-a victim-b"), bash("touch stamp extra-file"), bash("rm -rf build")}})
	if !exists(filepath.Join(ws, "victim-a")) || !exists(filepath.Join(ws, "victim-b")) {
		t.Fatalf("the grant let extra arguments through: %q", results)
	}
	if exists(filepath.Join(ws, "extra-file")) {
		t.Fatalf("the rule let extra arguments through: %q", results)
	}
	if exists(filepath.Join(ws, "build")) {
		t.Fatalf("the exact granted command did not run, so the test proves nothing: %q", results)
	}
}

func createSession(t *testing.T, d, ws, permission string) string {
	t.Helper()
	return decodeView(t, mustRun(t, "sessions", "create", "--workspace", ws, "--permission", permission, "--json", "--data-dir", d)).ID
}

func withStore(t *testing.T, d string, fn func(st *store.Store)) {
	t.Helper()
	st, err := store.Open(d)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fn(st)
}

// Brace lists, globs and links must not read outside the workspace or inside .git in Auto; the
// environment of the shell holds no key either way.
func TestAttackReadsOutsideTheWorkspaceInAuto(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-attack-test-secret")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	mustWrite(t, outside, "OUTSIDE-SECRET")
	mustWrite(t, filepath.Join(ws, ".git/config"), "GIT-CONFIG-SECRET")
	mustWrite(t, filepath.Join(ws, "readme.txt"), "inside text")
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	cmds := []string{"cat {" + outside + ",}", "head -c 300 {/proc/self/environ,}", "cat .gi?/config", "cat .[g]it/config",
		"cat {.git,x}/config", "cat link/outside.txt", "grep -R SECRET .", "rg -L SECRET", "find -L . -name outside.txt",
		"cat .{.,}/" + filepath.Base(filepath.Dir(outside)) + "/outside.txt"}
	var calls []map[string]any
	for _, c := range cmds {
		calls = append(calls, bash(c))
	}
	calls = append(calls, bash("cat readme.txt"))
	results := runAttack(t, d, ws, attack{permission: "auto", calls: calls})
	for i, r := range results[:len(cmds)] {
		for _, secret := range []string{"OUTSIDE-SECRET", "GIT-CONFIG-SECRET", "sk-ant-attack-test-secret"} {
			if strings.Contains(r, secret) {
				t.Errorf("%q showed %s: %q", cmds[i], secret, r)
			}
		}
	}
	if last := results[len(results)-1]; !strings.Contains(last, "inside text") {
		t.Fatalf("a read-only command inside the workspace did not run in auto, so the test proves nothing: %q", last)
	}
}

// Deny rules hold in Full access however the command is spelled.
func TestAttackDenyRulesHoldInFull(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	withStore(t, d, func(st *store.Store) {
		for _, r := range []policy.Rule{{Effect: policy.Deny, Command: "rm"}, {Effect: policy.Deny, Command: "git push"},
			{Effect: policy.Deny, Path: "secrets/**"}} {
			if _, err := st.AddRule(r, "settings"); err != nil {
				t.Fatal(err)
			}
		}
	})
	mustWrite(t, filepath.Join(ws, "secrets/key.txt"), "KEY-MATERIAL")
	spellings := []string{"{rm,x} f0", "rm{,} f1", "/bin/r? f2", "git -c alias.x='!rm -f f3' x", "sh -c 'rm f4'", "env rm f5"}
	var calls []map[string]any
	for i, c := range spellings {
		mustWrite(t, filepath.Join(ws, "f"+string(rune('0'+i))), "x")
		calls = append(calls, bash(c))
	}
	gitInit(t, ws)
	for _, c := range []string{"git --no-pager push", "git -C . push", "git -c x=y push", "cat secrets/key.txt"} {
		calls = append(calls, bash(c))
	}
	results := runAttack(t, d, ws, attack{permission: "full", calls: calls})
	for i := range spellings {
		if !exists(filepath.Join(ws, "f"+string(rune('0'+i)))) {
			t.Errorf("%q deleted the file past the deny rule: %q", spellings[i], results[i])
		}
	}
	for _, r := range results[len(spellings):] {
		if !strings.Contains(r, "DENIED_BY_RULE") && !strings.Contains(r, "non-interactive") {
			t.Errorf("a denied command ran: %q", r)
		}
		if strings.Contains(r, "KEY-MATERIAL") {
			t.Errorf("the path deny rule did not cover the shell: %q", r)
		}
	}
}

// In Full access a shell command still cannot write outside the workspace or reach the
// network: the kernel refuses both.
func TestAttackSandboxConfinesFullAccess(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	outside := filepath.Join(os.TempDir(), "agentdesk-attack-"+filepath.Base(ws))
	defer os.Remove(outside)
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		bash("sh -c 'echo x > " + outside + "; curl -sS --max-time 5 " + srv.URL + "; echo done > inside.txt'")}})
	if exists(outside) {
		t.Fatalf("a Full access command wrote outside the workspace: %q", results)
	}
	if hits.Load() != 0 {
		t.Fatalf("a Full access command reached the network: %q", results)
	}
	if !exists(filepath.Join(ws, "inside.txt")) {
		t.Fatalf("the command did not run at all, so the test proves nothing: %q", results)
	}
}

// A bash call that asks to leave the sandbox is a decision even in Full access: here, without a
// terminal, it is declined.
func TestAttackEscalationAsksInFull(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{
		{"name": "bash", "input": map[string]any{"command": "touch escaped", "escalate": "unsandboxed"}}}})
	if exists(filepath.Join(ws, "escaped")) || !strings.Contains(results[0], "non-interactive") {
		t.Fatalf("an escalation ran unasked: %q", results)
	}
}

// Path grants are literal: a grant for "Makefile" is that file at the workspace root, and a
// grant for a file named "*" is that one file, never a pattern.
func TestAttackPathGrantsAreLiteral(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	id := createSession(t, d, ws, "ask")
	withStore(t, d, func(st *store.Store) {
		for _, p := range []string{"Makefile", "*"} {
			if err := st.AddGrant(id, policy.Grant{Kind: policy.KindWrite, Path: p}); err != nil {
				t.Fatal(err)
			}
		}
	})
	results := runAttack(t, d, ws, attack{session: id, calls: []map[string]any{
		write("vendor/x/Makefile", "evil"), write("other.txt", "evil"), write("Makefile", "all:\n")}})
	for _, f := range []string{"vendor/x/Makefile", "other.txt"} {
		if exists(filepath.Join(ws, f)) {
			t.Errorf("a grant matched %s: %q", f, results)
		}
	}
	if !exists(filepath.Join(ws, "Makefile")) {
		t.Fatalf("the granted file was not written, so the test proves nothing: %q", results)
	}
}

// The shell never sees secret-looking variables, in Full access too, unless Settings passes
// one through by name.
func TestAttackShellEnvironmentIsScrubbed(t *testing.T) {
	d, ws := t.TempDir(), t.TempDir()
	secrets := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-scrub", "OPENAI_BASE_URL": "http://scrub.invalid",
		"MY_TOKEN": "tok-scrub", "DB_PASSWORD": "pw-scrub", "AWS_SECRET_ACCESS_KEY": "aws-scrub", "NPM_TOKEN": "npm-pass"}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("PLAIN_SETTING", "plain-visible")
	if code, out, errOut := run(t, nil, "settings", "set", "shell-env-passthrough", "NPM_TOKEN", "--data-dir", d); code != 0 {
		t.Fatalf("settings set: %d %s %s", code, out, errOut)
	}
	results := runAttack(t, d, ws, attack{permission: "full", calls: []map[string]any{bash("env")}})
	for k, v := range secrets {
		if k != "NPM_TOKEN" && strings.Contains(results[0], v) {
			t.Errorf("the shell saw %s: %q", k, results[0])
		}
	}
	if !strings.Contains(results[0], "plain-visible") || !strings.Contains(results[0], "npm-pass") {
		t.Fatalf("the shell lost an ordinary or a passed-through variable, so the test proves nothing: %q", results[0])
	}
}

// With "." on the person's PATH, a workspace that holds an executable named git (a cloned
// repository can) must not have it run by `git status`, which Auto runs unasked.
func TestAttackRelativePathEntryDoesNotRunTheWorkspacesFile(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test: install git")
	}
	d, ws := t.TempDir(), t.TempDir()
	marker := filepath.Join(t.TempDir(), "PWNED")
	mustWrite(t, filepath.Join(ws, "git"), "#!/bin/sh\ntouch "+marker+"\n")
	if err := os.Chmod(filepath.Join(ws, "git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", ".:"+os.Getenv("PATH"))
	results := runAttack(t, d, ws, attack{permission: "auto", calls: []map[string]any{bash("git status")}})
	if exists(marker) {
		t.Fatalf("`git status` ran the workspace's ./git: %q", results)
	}
	if len(results) != 1 || !strings.Contains(results[0], "not a git repository") {
		t.Fatalf("the real git did not run, the test proves nothing: %q", results)
	}
}
