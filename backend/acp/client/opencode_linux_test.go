//go:build linux

package client

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/decision"
	"agentdesk/backend/store"
)

// TestStockOpencodeIsHeld drives a real opencode (npm opencode-ai) with no permission settings:
// it never asks before writing a file or running a shell command. Its model is a loopback
// OpenAI-compatible server that has it write hello.txt, then run `echo … > bash.txt`. In Ask
// and in Smart · Plan nothing lands; in Auto both land. Set AGENTDESK_OPENCODE to the opencode
// program to run it (it is not installed on a fresh machine: the package is over 100 MB).
func TestStockOpencodeIsHeld(t *testing.T) {
	program := os.Getenv("AGENTDESK_OPENCODE")
	if program == "" {
		t.Skip("AGENTDESK_OPENCODE names no opencode program")
	}
	requireNamespaces(t)
	model := httptest.NewServer(http.HandlerFunc(scriptedModel))
	defer model.Close()
	port := model.Listener.Addr().(*netAddr).Port
	cfg := fmt.Sprintf(`{"$schema":"https://opencode.ai/config.json","model":"local/m","provider":{"local":{"npm":"@ai-sdk/openai-compatible","name":"Local","options":{"baseURL":"http://127.0.0.1:%d/v1","apiKey":"x"},"models":{"m":{"name":"m","tool_call":true}}}}}`, port)
	t.Setenv("OPENCODE_CONFIG_CONTENT", cfg)
	for _, c := range []struct{ permission, override string }{{"ask", ""}, {"ask", "plan"}, {"auto", ""}} {
		t.Run(c.permission+"/"+c.override, func(t *testing.T) {
			r := newRig(t)
			r.cmd = program + " acp"
			reach := external.DefaultReach(r.cmd)
			reach.Hosts = append(reach.Hosts, fmt.Sprintf("127.0.0.1:%d", port))
			if err := r.st.SetAgentReach(r.cmd, &store.AgentReach{Hosts: reach.Hosts, Folders: reach.Folders}); err != nil {
				t.Fatal(err)
			}
			r.approvals(decision.Approval(decision.AllowOnce, ""))
			id, ws := r.sessionOn("", c.permission, c.override)
			turn := r.send(id, "Write hello.txt, then run a shell command that writes bash.txt.")
			t.Logf("turn: %s %s", turn.Status, turn.Error)
			for _, res := range r.results(id) {
				t.Logf("  %s [%s] error=%v: %s", res.Name, res.Verdict, res.IsError, clip(strings.ReplaceAll(res.Content, "\n", " | "), 160))
			}
			t.Logf("  said: %s", clip(r.said(id), 300))
			landed := 0
			for _, name := range []string{"hello.txt", "bash.txt"} {
				if _, err := os.Stat(filepath.Join(ws, name)); err == nil {
					landed++
				}
			}
			if want := map[string]int{"ask": 0, "auto": 2}[c.permission]; landed != want {
				t.Fatalf("%d of 2 files landed, want %d", landed, want)
			}
		})
	}
}

type netAddr = net.TCPAddr

// scriptedModel answers opencode's chat completions: a title request with a title; else, by how
// many tool results the conversation holds, a write call, a bash call, then the end.
func scriptedModel(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.NotFound(w, r)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
		Tools []json.RawMessage `json:"tools"`
	}
	json.Unmarshal(raw, &req)
	results := 0
	for _, m := range req.Messages {
		if m.Role == "tool" {
			results++
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(delta string, finish string) {
		fmt.Fprintf(w, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":%s}]}\n\n", delta, finish)
	}
	call := func(name, args string) {
		a, _ := json.Marshal(args)
		send(fmt.Sprintf(`{"role":"assistant","tool_calls":[{"index":0,"id":"call_%d","type":"function","function":{"name":%q,"arguments":%s}}]}`, results, name, a), "null")
		send(`{}`, `"tool_calls"`)
	}
	switch {
	case len(req.Tools) == 0:
		send(`{"role":"assistant","content":"A trial"}`, `"stop"`)
	case results == 0:
		call("write", `{"filePath":"hello.txt","content":"hello\n"}`)
	case results == 1:
		call("bash", `{"command":"echo from-bash > bash.txt","description":"Write bash.txt"}`)
	default:
		send(`{"role":"assistant","content":"Done."}`, `"stop"`)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}
