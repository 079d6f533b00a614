package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/tool"
)

// A server that cannot be used says why in words, by kind: never the transport's raw text.
func TestServersThatCannotBeUsedSayWhy(t *testing.T) {
	th := newTestHost(t)
	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no token", http.StatusUnauthorized)
	}))
	defer unauthorized.Close()
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	cases := []struct {
		cfg  Config
		kind errs.Kind
		args map[string]any
	}{
		{Config{Name: "nowhere", Transport: HTTP, URL: "http://127.0.0.1:1/mcp"}, ServerUnreachable,
			map[string]any{"URL": "http://127.0.0.1:1/mcp"}},
		{Config{Name: "locked", Transport: HTTP, URL: unauthorized.URL + "/mcp"}, ServerUnauthorized,
			map[string]any{"Status": "401 Unauthorized"}},
		{Config{Name: "moved", Transport: HTTP, URL: missing.URL + "/mcp"}, ServerRefused,
			map[string]any{"Status": "404 Not Found"}},
		{Config{Name: "typo", Transport: Stdio, Command: "nodee-not-installed"}, CommandNotFound,
			map[string]any{"Command": "nodee-not-installed"}},
	}
	for _, c := range cases {
		v, err := th.Add(c.cfg, "test")
		if err != nil {
			t.Fatal(err)
		}
		_, err = th.Enable(context.Background(), v.ID, th.workspace)
		e := errs.As(err)
		if e.Kind != c.kind {
			t.Fatalf("%s: %v", c.cfg.Name, err)
		}
		for k, want := range c.args {
			if e.Args[k] != want {
				t.Fatalf("%s: %s is %v, want %v", c.cfg.Name, k, e.Args[k], want)
			}
		}
	}
}

// A server's standard error goes to its log file, never to AgentDesk's own, and the log is
// readable from Settings.
func TestServerStderrGoesToItsLog(t *testing.T) {
	th := newTestHost(t)
	th.opts.LogDir = t.TempDir()
	v := th.addFixture("notes", false)
	if _, err := th.run("mcp__notes__crash", `{}`, tool.Env{}); errs.KindOf(err) != ServerCrashed {
		t.Fatalf("crash: %v", err)
	}
	log := waitFor(t, "the log", func() (LogView, bool) {
		l, err := th.ReadLog(v.ID)
		return l, err == nil && strings.Contains(l.Text, "fixture: crashing on purpose")
	})
	if !strings.HasSuffix(log.Path, "mcp-notes.log") || log.Truncated || !strings.Contains(log.Text, "--- ") {
		t.Fatalf("log: %+v", log)
	}
	if fi, err := os.Stat(log.Path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the log is the person's only: %v %v", fi, err)
	}
}

// A stdio server's environment follows the shell's rule: secret-looking names are dropped
// unless Settings keeps them, and the entry's own variables are added.
func TestServerEnvironmentFollowsTheShellsRule(t *testing.T) {
	t.Setenv("DEPLOY_TOKEN", "t1")
	t.Setenv("GITHUB_TOKEN", "t2")
	t.Setenv("PLAIN_SETTING", "p")
	cfg := Config{Name: "env", Transport: Stdio, Command: fixture, Env: map[string]string{"SERVER_API_KEY": "${GIVEN}"}}
	_, _, env, err := processArgs(cfg, func(k string) string { return map[string]string{"GIVEN": "g"}[k] }, []string{"GITHUB_TOKEN"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GITHUB_TOKEN=t2", "PLAIN_SETTING=p", "SERVER_API_KEY=g"} {
		if !slices.Contains(env, want) {
			t.Fatalf("%s missing from %v", want, env)
		}
	}
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "DEPLOY_TOKEN=") }) {
		t.Fatal("a secret-looking variable Settings does not keep reached the server")
	}
}

// A line that reaches the log in two pieces is one line there, with one time stamp; an
// unfinished last line is kept when the log closes.
func TestLogKeepsLinesWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcp-x.log")
	l := openLog(path, "x")
	for _, chunk := range []string{"Error: wr", "ite EPIPE\n  at a\n  at ", "b\nno newline"} {
		if _, err := l.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := []string{"Error: write EPIPE", "  at a", "  at b", "no newline"}
	if len(lines) != 1+len(want) || !strings.HasPrefix(lines[0], "--- ") {
		t.Fatalf("log:\n%s", b)
	}
	for i, w := range want {
		if got := lines[i+1]; len(got) != len("15:04:05.000 ")+len(w) || !strings.HasSuffix(got, " "+w) {
			t.Fatalf("line %d: %q, want the stamp and %q", i+1, got, w)
		}
	}
}
