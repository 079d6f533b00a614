package server

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"unicode/utf8"

	acp "github.com/coder/acp-go-sdk"

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
	return out
}

func (v shown) content() []acp.ToolCallContent {
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
