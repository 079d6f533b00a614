package tool

import (
	"bytes"
	"encoding/json"
	"slices"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// Def is a tool definition as a provider sends it to the model.
type Def struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Registry holds every tool. It has no state besides the tools, which have none either, so one
// registry can serve every session at once.
type Registry struct {
	tools map[mode.Tool]Tool
}

// order is the registry's stable order. Defs follows it whatever order a caller lists tools in,
// so the same profile always yields byte-identical definitions (and provider prompt caches hold).
var order = []mode.Tool{
	mode.ToolRead, mode.ToolGlob, mode.ToolGrep, mode.ToolBash,
	mode.ToolEdit, mode.ToolWrite, mode.ToolAskUser, mode.ToolExitPlanMode,
}

// NewRegistry returns a registry with all eight tools.
func NewRegistry() *Registry {
	r := &Registry{tools: map[mode.Tool]Tool{}}
	for _, t := range []Tool{
		readTool{about{mode.ToolRead, readDescription, readSchema}},
		globTool{about{mode.ToolGlob, globDescription, globSchema}},
		grepTool{about{mode.ToolGrep, grepDescription, grepSchema}},
		bashTool{about{mode.ToolBash, bashDescription, bashSchema}},
		editTool{about{mode.ToolEdit, editDescription, editSchema}},
		writeTool{about{mode.ToolWrite, writeDescription, writeSchema}},
		askUserTool{about{mode.ToolAskUser, askUserDescription, askUserSchema}},
		exitPlanModeTool{about{mode.ToolExitPlanMode, exitPlanModeDescription, exitPlanModeSchema}},
	} {
		r.tools[t.Name()] = t
	}
	return r
}

// about is what a tool says of itself before it runs, for the model and the forms.
type about struct {
	name        mode.Tool
	description string
	schema      json.RawMessage
}

func (a about) Name() mode.Tool         { return a.name }
func (a about) Description() string     { return a.description }
func (a about) Schema() json.RawMessage { return bytes.Clone(a.schema) }

// Get returns the tool named name.
func (r *Registry) Get(name mode.Tool) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Names lists every tool in the registry's stable order.
func (r *Registry) Names() []mode.Tool {
	return append([]mode.Tool(nil), order...)
}

// Defs returns the definitions of the listed tools (a profile's Tools), in the registry's
// stable order, once each; names the registry does not know are left out. An empty list — the
// chat profile — yields no definitions at all (R-MODE-3).
func (r *Registry) Defs(tools []mode.Tool) []Def {
	var defs []Def
	for _, name := range order {
		t, ok := r.tools[name]
		if !ok || !slices.Contains(tools, name) {
			continue
		}
		defs = append(defs, Def{Name: string(name), Description: t.Description(), InputSchema: t.Schema()})
	}
	return defs
}

// gateCall is the call the gate decides on. The kind comes from policy.KindOfTool, so the tool
// to kind mapping lives in one place.
func gateCall(t mode.Tool, path, command string) policy.Call {
	kind, _ := policy.KindOfTool(t)
	return policy.Call{Kind: kind, Path: path, Command: command}
}
