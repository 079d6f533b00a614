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

// describe shows one call of the session over workspace. A call of a tool AgentDesk does not
// have (an external agent's) keeps the name it was recorded under.
func (s *Server) describe(name string, input json.RawMessage, workspace string) shown {
	t, ok := tools.Get(mode.Tool(name))
	if !ok {
		return shown{title: clipTitle(name), summary: string(input)}
	}
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
