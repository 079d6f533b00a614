package mcp

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/errs"
	"agentdesk/backend/mcp/mcptest"
	"agentdesk/backend/tool"
)

func TestStreamableHTTPServer(t *testing.T) {
	server := mcptest.NewServer(mcptest.Options{})
	var mu sync.Mutex
	var auth []string
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close) // after the host's own clean-up, which closes its connections
	th := newTestHost(t)
	th.setenv("REMOTE_TOKEN", "s3cret")
	v, err := th.Add(Config{Name: "remote", Transport: HTTP, URL: ts.URL, Headers: map[string]string{"Authorization": "Bearer ${REMOTE_TOKEN}"}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if v, err = th.Enable(context.Background(), v.ID, th.workspace); err != nil || len(v.Tools) != 9 {
		t.Fatalf("enable: %+v, %v", v, err)
	}
	res, err := th.run("mcp__remote__echo", `{"text":"over http"}`, tool.Env{})
	if err != nil || res.Output != "echo: over http" {
		t.Fatalf("echo: %+v, %v", res, err)
	}
	answer := func(_ context.Context, e tool.Elicitation) (tool.ElicitAnswer, error) {
		return tool.ElicitAnswer{Action: "accept", Content: map[string]any{"name": "Grace"}}, nil
	}
	if res, err := th.run("mcp__remote__greet", `{}`, tool.Env{Elicit: answer}); err != nil || res.Output != "Hello, Grace!" {
		t.Fatalf("greet over http: %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, a := range auth {
		if a != "Bearer s3cret" {
			t.Fatalf("a request went without the configured header: %q", a)
		}
	}
}

// startHTTPFixture runs the fixture as its own process on addr and returns its URL.
func startHTTPFixture(t *testing.T, addr string) (string, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(fixture, "--http", addr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("fixture printed no address: %v", err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on ")), cmd
}

// An HTTP server that goes away fails the call with a typed error; once it is back, the next
// call connects afresh.
func TestHTTPServerThatWentAwayIsReachedAgain(t *testing.T) {
	th := newTestHost(t)
	url, cmd := startHTTPFixture(t, "127.0.0.1:0")
	v, err := th.Add(Config{Name: "remote", Transport: HTTP, URL: url}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := th.Enable(context.Background(), v.ID, th.workspace); err != nil {
		t.Fatal(err)
	}
	if _, err := th.run("mcp__remote__echo", `{"text":"one"}`, tool.Env{}); err != nil {
		t.Fatal(err)
	}
	echo := th.lookup("mcp__remote__echo")
	if _, err := th.run("mcp__remote__crash", `{}`, tool.Env{}); errs.KindOf(err) != ServerCrashed {
		t.Fatalf("crash over http: %v", err)
	}
	cmd.Wait()
	if tl, err := th.Lookup(context.Background(), "s1", th.workspace, "mcp__remote__echo"); tl != nil || errs.KindOf(err) != ServerUnreachable {
		t.Fatalf("a tool of a server that cannot be reached says why: %v, %v", tl, err)
	}
	_, err = echo.Run(context.Background(), tool.Env{}, []byte(`{"text":"two"}`))
	if k := errs.KindOf(err); k != ServerUnreachable && k != ServerCrashed {
		t.Fatalf("a call while the server is down: %v", err)
	}
	addr := regexp.MustCompile(`127\.0\.0\.1:\d+`).FindString(url)
	startHTTPFixture(t, addr)
	res := waitFor(t, "the server to answer again", func() (tool.Result, bool) {
		res, err := echo.Run(context.Background(), tool.Env{}, []byte(`{"text":"three"}`))
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
		return res, err == nil
	})
	if res.Output != "echo: three" {
		t.Fatalf("after the restart: %+v", res)
	}
}
