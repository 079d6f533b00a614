//go:build linux

package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/decision"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/store"
)

// requireNamespaces skips where the kernel cannot hold an external agent: it then runs only in
// Full access, which TestAgentTermsCellByCell (backend/agent) covers.
func requireNamespaces(t *testing.T) {
	t.Helper()
	if !sandbox.Status().Namespaces {
		t.Skip("no namespaces here: an external agent is not confined")
	}
}

// An agent that never asks, in Ask and in Smart · Plan: its own write and its own shell's write
// fail in the kernel, and nothing lands. The same change through fs/write_text_file and
// terminal/create is put to the person: declined, nothing lands; allowed (in Ask), it lands.
func TestAnAgentThatNeverAsksIsHeldByTheKernel(t *testing.T) {
	requireNamespaces(t)
	for _, c := range []struct{ permission, override string }{{"ask", ""}, {"ask", "plan"}, {"auto", "plan"}} {
		t.Run(c.permission+"/"+c.override, func(t *testing.T) {
			r := newRig(t)
			id, ws := r.sessionOn("", c.permission, c.override)
			asked := r.approvals(decision.Approval(decision.Reject, "not now"))
			r.done(id, "direct")
			said := r.said(id)
			for _, want := range []string{"file: failed (EROFS)", "shell: failed", "fs: refused", "terminal: refused"} {
				if !strings.Contains(said, want) {
					t.Errorf("%q lacks %q", said, want)
				}
			}
			assertNothingIn(t, ws)
			if c.override == "" && len(*asked) != 2 {
				t.Errorf("Ask puts the write and the command to the person, got %d approvals: %+v", len(*asked), *asked)
			}
		})
	}
}

func TestInAskTheAgentsChangesLandOnlyThroughTheGateOnceAllowed(t *testing.T) {
	requireNamespaces(t)
	r := newRig(t)
	id, ws := r.sessionOn("", "ask", "")
	asked := r.approvals(decision.Approval(decision.AllowOnce, ""))
	r.done(id, "direct")
	said := r.said(id)
	for _, want := range []string{"file: failed (EROFS)", "shell: failed", "fs: ok", "terminal: exit 0"} {
		if !strings.Contains(said, want) {
			t.Errorf("%q lacks %q", said, want)
		}
	}
	if len(*asked) != 2 || (*asked)[1].Command != "echo term > term.txt" {
		t.Fatalf("approvals %+v", *asked)
	}
	for name, want := range map[string]string{"viafs.txt": "fs\n", "term.txt": "term\n"} {
		if got, err := os.ReadFile(filepath.Join(ws, name)); err != nil || string(got) != want {
			t.Errorf("%s: %v %q", name, err, got)
		}
	}
	for _, name := range []string{"direct.txt", "shell.txt"} {
		if _, err := os.Stat(filepath.Join(ws, name)); !os.IsNotExist(err) {
			t.Errorf("%s landed past the gate: %v", name, err)
		}
	}
}

// In Auto the agent's own changes land: the workspace is writable where changes run unasked.
// Its terminal command is judged as AgentDesk's own would be: Auto asks before a shell write.
func TestInAutoTheAgentsOwnChangesLand(t *testing.T) {
	requireNamespaces(t)
	r := newRig(t)
	id, ws := r.sessionOn("", "auto", "")
	asked := r.approvals(decision.Approval(decision.AllowOnce, ""))
	r.done(id, "direct")
	if len(*asked) != 1 || (*asked)[0].Command != "echo term > term.txt" {
		t.Fatalf("approvals %+v", *asked)
	}
	if said := r.said(id); !strings.Contains(said, "file: ok; shell: ok; fs: ok; terminal: exit 0") {
		t.Fatalf("%q", said)
	}
	for _, name := range []string{"direct.txt", "shell.txt", "viafs.txt", "term.txt"} {
		if _, err := os.Stat(filepath.Join(ws, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func assertNothingIn(t *testing.T, ws string) {
	t.Helper()
	entries, err := os.ReadDir(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the workspace changed: %v", names)
	}
}

// The agent's network is its reach and nothing else: a connection straight out has no route
// from its namespace, and the proxy refuses a host outside its reach (403) while it lets one
// inside it through (502 here only because the name does not resolve: the proxy tried).
func TestAnAgentReachesOnlyTheHostsInItsReach(t *testing.T) {
	requireNamespaces(t)
	r := newRig(t)
	if err := r.st.SetAgentReach(r.cmd, &store.AgentReach{Hosts: []string{"in-reach.test:443"}}); err != nil {
		t.Fatal(err)
	}
	id, _ := r.sessionOn("", "full", "")
	r.done(id, "reach")
	said := r.said(id)
	for _, want := range []string{"direct: failed (", "unlisted: HTTP/1.1 403 agentdesk proxy: not-in-reach.test (port 443) is not in this agent's reach", "listed: HTTP/1.1 502"} {
		if !strings.Contains(said, want) {
			t.Errorf("%q lacks %q", said, want)
		}
	}
}
