package server

import (
	"context"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/i18n"
	"agentdesk/backend/session"
	"agentdesk/backend/store"
)

// The permission option changes the session and nothing else: a refused Full access leaves it,
// and the mode option set next still announces its switch after its own reply, so the
// permission's reply took no one's place in the replies kept for set_config_option.
func TestPermissionOptionChangesTheSessionOnly(t *testing.T) {
	conn, c, _, st := serve(t, `{"responses":[]}`)
	ctx := context.Background()
	conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber})
	s, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: t.TempDir(), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	set := func(configID, value string) (acp.SetSessionConfigOptionResponse, error) {
		return conn.SetSessionConfigOption(ctx, acp.SetSessionConfigOptionRequest{ValueId: &acp.SetSessionConfigOptionValueId{
			SessionId: s.SessionId, ConfigId: acp.SessionConfigId(configID), Value: acp.SessionConfigValueId(value)}})
	}
	if _, err := set(ConfigPermission, "auto"); err != nil {
		t.Fatal(err)
	}
	asked := 0
	answer := OptKeep
	c.mu.Lock()
	c.pick = func(req acp.RequestPermissionRequest) string {
		asked++
		return answer
	}
	c.mu.Unlock()
	_, err = set(ConfigPermission, "full")
	if re, ok := err.(*acp.RequestError); !ok || asked != 1 || !strings.Contains(re.Message, "Auto") {
		t.Fatalf("Full access kept out is an error naming what is kept: %v (asked %d)", err, asked)
	}
	if sess, _ := st.GetSession(string(s.SessionId)); sess.PermissionMode != "auto" {
		t.Fatalf("declined, still: %q", sess.PermissionMode)
	}
	answer = OptFullAccess
	res, err := set(ConfigPermission, "full")
	if err != nil || currentOf(res.ConfigOptions, ConfigPermission) != "full" {
		t.Fatalf("confirmed Full access: %v %+v", err, res)
	}
	if sess, _ := st.GetSession(string(s.SessionId)); sess.PermissionMode != "full" {
		t.Fatalf("stored: %q", sess.PermissionMode)
	}
	if def, err := st.GetDefaultPermission(); err != nil || def.Mode != "ask" {
		t.Fatalf("the default in Settings is untouched: %+v %v", def, err)
	}
	if _, err := set(ConfigMode, "debug"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !c.saw("current_mode_update") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !c.saw("current_mode_update") {
		t.Fatal("the mode set after the permission was never announced")
	}
	_, err = set(ConfigPermission, "root")
	if re, ok := err.(*acp.RequestError); !ok || re.Code != -32602 || !strings.Contains(re.Message, "root") {
		t.Fatalf("an unknown permission is invalid params naming it: %v", err)
	}
}

func (c *client) saw(kind string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.updates {
		if kind == "current_mode_update" && n.Update.CurrentModeUpdate != nil {
			return true
		}
	}
	return false
}

func currentOf(options []acp.SessionConfigOption, id string) string {
	for _, o := range options {
		if o.Select != nil && string(o.Select.Id) == id {
			return string(o.Select.CurrentValue)
		}
	}
	return ""
}

// A live call shows the whole file, a replayed one its arguments, and a preview that left the
// content out (binary, too large) falls back to the arguments rather than to an empty diff.
func TestWritesAndEditsShowAsDiffs(t *testing.T) {
	edit := diffOf("edit", []byte(`{"path":"a.txt","old_string":"b","new_string":"B"}`), "/w/a.txt")
	if edit == nil || edit.Path != "/w/a.txt" || *edit.OldText != "b" || edit.NewText != "B" {
		t.Fatalf("edit: %+v", edit)
	}
	write := diffOf("write", []byte(`{"path":"n.txt","content":"x\n"}`), "/w/n.txt")
	if write == nil || write.OldText != nil || write.NewText != "x\n" {
		t.Fatalf("write: %+v", write)
	}
	if diffOf("bash", []byte(`{"command":"ls"}`), "/w") != nil {
		t.Fatal("only writes and edits are diffs")
	}
	v := shown{diff: edit}
	whole := v.withChange(&display.Change{Path: "a.txt", Before: "a\nb\n", After: "a\nB\n"})
	if *whole.diff.OldText != "a\nb\n" || whole.diff.NewText != "a\nB\n" || whole.diff.Path != "/w/a.txt" {
		t.Fatalf("whole file: %+v", whole.diff)
	}
	if created := (shown{diff: write}).withChange(&display.Change{After: "x\n", Created: true}); created.diff.OldText != nil {
		t.Fatalf("a created file has no old text: %+v", created.diff)
	}
	if kept := v.withChange(&display.Change{Omitted: "too_large"}); kept.diff != edit {
		t.Fatalf("an omitted preview keeps the arguments: %+v", kept.diff)
	}
	if got := whole.content(); len(got) != 1 || got[0].Diff == nil {
		t.Fatalf("content is the diff alone: %+v", got)
	}
}

// An approval asked again after a restart, whose call this server never saw, still shows the
// change from the decision's own preview.
func TestAnApprovalAskedAgainShowsItsChange(t *testing.T) {
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	v, err := (&session.Service{Store: st}).Create(session.CreateInput{Title: "t", Workspace: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{opts: Options{Store: st, Messages: msgs, Lang: "en"}, calls: map[string]agent.ToolCallView{}}
	p := decision.ApprovalPayload{Tool: "edit", Path: "/w/a.txt", Summary: "path: a.txt",
		Change: &display.Change{Path: "a.txt", Before: "a\n", After: "A\n"}}
	d := s.callOf("unseen", p, v.ID)
	if d.diff == nil || d.diff.Path != "/w/a.txt" || *d.diff.OldText != "a\n" || d.diff.NewText != "A\n" {
		t.Fatalf("diff: %+v", d.diff)
	}
	p.Change.Omitted = "binary"
	if d := s.callOf("unseen", p, v.ID); d.diff != nil || d.content()[0].Content == nil {
		t.Fatalf("no preview to show: the summary, %+v", d)
	}
}
