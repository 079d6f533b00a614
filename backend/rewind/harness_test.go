package rewind_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/bus"
	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/i18n"
	"agentdesk/backend/provider"
	"agentdesk/backend/provider/scripted"
	"agentdesk/backend/rewind"
	"agentdesk/backend/sandbox"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// TestMain lets bash calls re-execute this test binary as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}

// rig is the whole runtime on real files: a SQLite store and a checkpoint store in a data
// folder, the real gate, tools and sandbox, the decision registry (every approval answered
// "allow once" from another goroutine, as a person would), the scripted provider behind the
// recorder, and the review service over them.
type rig struct {
	t         *testing.T
	dataDir   string
	st        *store.Store
	cps       *checkpoint.Store
	rt        *agent.Runtime
	reg       *decision.Registry
	svc       *rewind.Service
	session   string
	workspace string
	record    string

	mu     sync.Mutex
	answer func(decision.Decision) *decision.Resolution
}

func newRig(t *testing.T, script string, opts checkpoint.Options) *rig {
	t.Helper()
	r := &rig{t: t, dataDir: t.TempDir(), workspace: t.TempDir(), record: filepath.Join(t.TempDir(), "record.json")}
	var err error
	if r.st, err = store.Open(r.dataDir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.st.Close() })
	if r.cps, err = checkpoint.Open(r.dataDir, opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cps.Close() })
	b := bus.New()
	b.Subscribe(r.observe)
	r.reg = decision.New(r.st, b.Publish, decision.Options{Timeout: func() time.Duration { return time.Minute }})
	prov, err := scripted.FromBytes("test script", []byte(script))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := provider.Record(prov, r.record)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	r.rt = agent.New(agent.Options{Store: r.st, Publish: b.Publish, Decisions: r.reg, Tools: tool.NewRegistry(),
		Provider: agent.Fixed(rec), Messages: msgs, DataDir: r.dataDir, Checkpoints: r.cps})
	r.svc = &rewind.Service{Store: r.st, Checkpoints: r.cps, Publish: b.Publish,
		Running: func(id string) bool { _, ok := r.rt.Running(id); return ok }}
	perm := "ask"
	v, err := (&session.Service{Store: r.st}).Create(session.CreateInput{Title: "t", Workspace: r.workspace, Permission: &perm})
	if err != nil {
		t.Fatal(err)
	}
	r.session = v.ID
	r.onDecision(func(decision.Decision) *decision.Resolution {
		res := decision.Approval(decision.AllowOnce, "")
		return &res
	})
	return r
}

func (r *rig) observe(e bus.Event) {
	if e.Name != decision.EventAsked {
		return
	}
	r.mu.Lock()
	answer := r.answer
	r.mu.Unlock()
	d := e.Data.(decision.Decision)
	if res := answer(d); res != nil {
		go r.reg.Resolve(d.ID, *res)
	}
}

func (r *rig) onDecision(fn func(decision.Decision) *decision.Resolution) {
	r.mu.Lock()
	r.answer = fn
	r.mu.Unlock()
}

// send runs one message to the end of its turn and returns the turn's id.
func (r *rig) send(text string) string {
	r.t.Helper()
	ack, err := r.rt.Send(agent.Input{SessionID: r.session, Text: text})
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.rt.Wait(ctx, r.session); err != nil {
		r.t.Fatal(err)
	}
	return ack.TurnID
}

// checkpoints are the log's checkpoint events of the session, in order.
func (r *rig) checkpoints() []eventlog.Checkpoint {
	r.t.Helper()
	log, err := r.st.Log(r.session)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []eventlog.Checkpoint
	for _, rec := range log {
		if c, ok := rec.Payload.(eventlog.Checkpoint); ok {
			out = append(out, c)
		}
	}
	return out
}

// turnCheckpoint is the id of the checkpoint taken before the turn.
func (r *rig) turnCheckpoint(turnID string) int64 {
	r.t.Helper()
	for _, c := range r.checkpoints() {
		if c.TurnID == turnID && c.Reason == checkpoint.ReasonTurn {
			return c.CheckpointID
		}
	}
	r.t.Fatalf("no checkpoint before turn %s", turnID)
	return 0
}

// requests are the recorded model requests: each message's text and tool results.
func (r *rig) requests() []string {
	r.t.Helper()
	raw, err := os.ReadFile(r.record)
	if err != nil {
		r.t.Fatal(err)
	}
	var rec struct {
		Requests []struct {
			Messages []struct {
				Text        string `json:"text"`
				ToolResults []struct {
					Content string `json:"content"`
				} `json:"tool_results"`
			} `json:"messages"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		r.t.Fatal(err)
	}
	var out []string
	for _, q := range rec.Requests {
		var b strings.Builder
		for _, m := range q.Messages {
			b.WriteString(m.Text + "\n")
			for _, tr := range m.ToolResults {
				b.WriteString(tr.Content + "\n")
			}
		}
		out = append(out, b.String())
	}
	return out
}

func put(t *testing.T, root, rel, content string, perm fs.FileMode) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tree is every file and link below root, .git excepted, with its mode and content (or
// target): what a byte-identical restore must give back.
func tree(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			link, _ := os.Readlink(p)
			fmt.Fprintf(&b, "%s -> %s\n", rel, link)
			return nil
		}
		content, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s %v %q\n", rel, info.Mode().Perm(), content)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// gitState is everything of a .git folder: each file's path and content hash, and how many
// objects it holds.
func gitState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	objects := 0
	err := filepath.WalkDir(filepath.Join(dir, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		content, err := os.ReadFile(p)
		if strings.Contains(p, "/objects/") {
			objects++
		}
		fmt.Fprintf(&b, "%s %x\n", p, sha256.Sum256(content))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "objects %d\n", objects)
	return b.String()
}

func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", script, err, out)
	}
}

func script(responses ...string) string {
	return `{"responses":[` + strings.Join(responses, ",") + `]}`
}

func call(name string, input map[string]any) string {
	b, _ := json.Marshal(map[string]any{"tool_calls": []map[string]any{{"name": name, "input": input}}})
	return string(b)
}
