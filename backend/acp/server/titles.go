package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/display"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// tools describes calls for clients; it holds no state, like the runtime's own registry.
var tools = tool.NewRegistry()

// titleLen bounds a tool call's title; the detail goes in its content and locations.
const titleLen = 80

// shown is a tool call as a client sees it: one short title, the same live and on
// session/load, with the full summary as content and the file as a location.
type shown struct {
	title     string
	summary   string
	locations []acp.ToolCallLocation
	// diff shows a write or an edit as the change it makes, which an editor renders as a diff,
	// rather than as its arguments.
	diff *acp.ToolCallContentDiff
}

// where is what describing a session's calls needs to know about the session.
type where struct {
	workspace string
	external  bool // the calls are an external agent's, whose names only look like ours
}

// whereOf is where the session's calls run; a session that cannot be read is described plainly.
func (s *Server) whereOf(sessionID string) where {
	sess, err := s.opts.Store.GetSession(sessionID)
	if err != nil {
		return where{external: true}
	}
	return where{workspace: sess.Workspace, external: sess.ExternalAgent != ""}
}

// describe shows one call. A call of an external agent, or of a tool AgentDesk does not have,
// keeps the name it was recorded under.
func (s *Server) describe(name string, input json.RawMessage, w where) shown {
	t, ok := tools.Get(mode.Tool(name))
	if !ok || w.external {
		return shown{title: clipTitle(name), summary: string(input)}
	}
	workspace := w.workspace
	label := s.t("tool."+name+".label", nil)
	desc, err := t.Describe(input)
	if err != nil {
		return shown{title: label}
	}
	out := shown{title: label, summary: desc.Summary}
	detail := firstLine(desc.Summary)
	switch {
	case desc.Gate.Kind == policy.KindBash:
		detail = firstLine(desc.Gate.Command)
	case desc.Gate.Kind.HasPath() && desc.Gate.Path != "":
		detail = desc.Gate.Path
		path := desc.Gate.Path
		if !filepath.IsAbs(path) && workspace != "" {
			path = filepath.Join(workspace, path)
		}
		out.locations = []acp.ToolCallLocation{{Path: path}}
	}
	if detail != "" {
		out.title = clipTitle(label + ": " + detail)
	}
	if len(out.locations) == 1 {
		out.diff = diffOf(name, input, out.locations[0].Path)
	}
	return out
}

// diffOf is a write or an edit as its arguments say it: the whole new content of a write, the
// replaced text and its replacement of an edit. That is all a call replayed from the log can
// show, the file having changed since; a live call shows the whole file (withChange).
func diffOf(name string, input json.RawMessage, path string) *acp.ToolCallContentDiff {
	var in struct {
		Content   *string `json:"content"`
		OldString *string `json:"old_string"`
		NewString *string `json:"new_string"`
	}
	if json.Unmarshal(input, &in) != nil {
		return nil
	}
	switch {
	case name == string(mode.ToolWrite) && in.Content != nil:
		return acp.ToolDiffContent(path, *in.Content).Diff
	case name == string(mode.ToolEdit) && in.OldString != nil && in.NewString != nil:
		return acp.ToolDiffContent(path, *in.NewString, *in.OldString).Diff
	}
	return nil
}

// withChange shows the call as the whole file before and after, as the runtime previewed it
// before the call ran; a preview that left the content out (binary, too large) keeps the
// arguments' diff.
func (v shown) withChange(c *display.Change) shown {
	if c == nil || c.Omitted != "" || v.diff == nil {
		return v
	}
	d := acp.ToolDiffContent(v.diff.Path, c.After, c.Before).Diff
	if c.Created {
		d.OldText = nil
	}
	v.diff = d
	return v
}

func (v shown) content() []acp.ToolCallContent {
	if v.diff != nil {
		return []acp.ToolCallContent{{Diff: v.diff}}
	}
	if v.summary == "" {
		return nil
	}
	return []acp.ToolCallContent{acp.ToolContent(acp.TextBlock(v.summary))}
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

func clipTitle(s string) string {
	s = firstLine(s)
	if utf8.RuneCountInString(s) > titleLen {
		return string([]rune(s)[:titleLen-1]) + "…"
	}
	return s
}
