package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/store"
	"agentdesk/backend/tool"
)

// ToolState is where a listed tool stands with the person.
type ToolState string

const (
	Approved ToolState = "approved" // pinned, unchanged, on: offered to the model
	Changed  ToolState = "changed"  // differs from what the person approved: off until approved again
	New      ToolState = "new"      // listed after the server was enabled: off until approved
	Off      ToolState = "off"      // the person switched it off
	Gone     ToolState = "gone"     // approved once, no longer listed
)

func stateOf(row store.MCPTool, hasRow bool, listed string) ToolState {
	switch {
	case listed == "":
		return Gone
	case !hasRow || row.Pinned == "":
		return New
	case row.Pinned != listed:
		return Changed
	case row.Disabled:
		return Off
	}
	return Approved
}

// Host serves the agent its sessions' MCP tools.
var _ tool.ServedTools = (*Host)(nil)

// Tool is one tool of a server, as the agent calls it. It implements tool.Served; its definition
// is the pinned one (what the person approved), and Run checks again, on the live listing, that
// the server still offers exactly that.
type Tool struct {
	host      *Host
	srv       server
	workspace string
	name      string
	model     string
	def       Def
	// listed is the definition the server lists now (def is the approved one, when it has one).
	listed Def
	state  ToolState
}

var _ tool.ChangedServed = (*Tool)(nil)

// Change is the approved definition against the listed one, line by line, when the tool
// changed since the person approved it; "" otherwise.
func (t *Tool) Change() string {
	if t.state != Changed {
		return ""
	}
	var b strings.Builder
	for i, l := range diffLines(t.def.pretty(), t.listed.pretty()) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.Op + l.Text)
	}
	return b.String()
}

// ApproveChange pins the listed definition, exactly the one the change showed: the call runs
// with it, and the tool is offered again. A definition that changed again meanwhile is not
// pinned (NOT_FOUND).
func (t *Tool) ApproveChange() error {
	if t.state != Changed {
		return nil
	}
	if err := t.srv.pins.approve(t.name, t.listed.canonical()); err != nil {
		return err
	}
	t.def, t.state = t.listed, Approved
	t.host.opts.Publish(EventChanged, ChangedView{ServerID: t.srv.id, Name: t.srv.cfg.Name})
	return nil
}

// ChangeRefusal is the error of a call whose change the person did not approve.
func (t *Tool) ChangeRefusal() error {
	return errs.New(ToolChanged, "Server", t.srv.cfg.Name, "Tool", t.name)
}

// Server is the name of the tool's server.
func (t *Tool) Server() string { return t.srv.cfg.Name }

// ServerTool is the server's own name for the tool.
func (t *Tool) ServerTool() string { return t.name }

// State says whether the tool may run (Approved) or why not.
func (t *Tool) State() ToolState { return t.state }

// ReadOnlyHint is the pinned read-only annotation: a hint for the gate's hard layer only.
func (t *Tool) ReadOnlyHint() bool { return t.def.ReadOnlyHint() }

func (t *Tool) Name() mode.Tool { return mode.Tool(t.model) }

// Description tells the model whose tool it is; the rest is the server's text, as approved.
func (t *Tool) Description() string {
	return fmt.Sprintf("(Tool %q of the MCP server %q.) %s", t.name, t.srv.cfg.Name, t.def.Description)
}

// Schema is the pinned input schema, with "type": "object" added where the server left it out
// (the providers require an object schema).
func (t *Tool) Schema() json.RawMessage {
	var m map[string]any
	if json.Unmarshal(t.def.InputSchema, &m) != nil || m == nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	if _, ok := m["type"]; !ok {
		m["type"] = "object"
	}
	b, _ := json.Marshal(m)
	return b
}

// Describe checks the input against the pinned schema and says what the call is for the gate.
// A changed tool is described too: its call asks the person to approve the change (Change).
func (t *Tool) Describe(input json.RawMessage) (tool.Call, error) {
	if t.state != Changed {
		if err := refusal(t); err != nil {
			return tool.Call{}, err
		}
	}
	args, err := t.arguments(input)
	if err != nil {
		return tool.Call{}, err
	}
	pretty, _ := json.MarshalIndent(args, "", "  ")
	gate := policy.Call{Kind: policy.KindMCP, MCP: policy.MCPCall{Server: t.srv.cfg.Name, Tool: t.name, ReadOnlyHint: t.ReadOnlyHint()}}
	return tool.Call{Gate: gate, Summary: policy.MCPRulePrefix + gate.MCP.Name() + "\n" + string(pretty)}, nil
}

// arguments decodes the input as an object and validates it where the schema can be read.
func (t *Tool) arguments(input json.RawMessage) (map[string]any, error) {
	var args map[string]any
	if len(strings.TrimSpace(string(input))) == 0 {
		input = json.RawMessage(`{}`)
	}
	if err := json.Unmarshal(input, &args); err != nil || args == nil {
		return nil, errs.New(tool.InvalidToolInput, "Tool", t.model, "Problem", "the input must be a JSON object")
	}
	if resolved := t.resolvedSchema(); resolved != nil {
		if err := resolved.Validate(args); err != nil {
			return nil, errs.New(tool.InvalidToolInput, "Tool", t.model, "Problem", err.Error())
		}
	}
	return args, nil
}

// resolvedSchema is the input schema ready to validate with; nil when the SDK's JSON Schema
// library cannot read it (then the server validates alone).
func (t *Tool) resolvedSchema() *jsonschema.Resolved {
	var s jsonschema.Schema
	if t.state == Changed {
		// The call asks the person to approve the change first; it is checked against the new
		// schema once they have (Run), not against either one before.
		return nil
	}
	if json.Unmarshal(t.def.InputSchema, &s) != nil {
		return nil
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil
	}
	return r
}

// Run calls the tool on the live server: started (again) if need be, still listing exactly the
// approved definition, with elicitations going to the person. A crash fails this call with
// MCP_SERVER_CRASHED; the next call starts the server afresh.
func (t *Tool) Run(ctx context.Context, env tool.Env, input json.RawMessage) (tool.Result, error) {
	c, err := t.host.connect(ctx, t.srv, t.workspace)
	if err != nil {
		return tool.Result{}, err
	}
	// The listing is read afresh right before the call: a server that changed a tool a moment
	// ago, without saying so yet, is caught here rather than called with the old meaning.
	if err := c.list(ctx); err != nil {
		t.host.drop(t.srv, t.workspace, c)
		return tool.Result{}, c.crashError(err)
	}
	if err := t.host.stillApproved(t, c); err != nil {
		return tool.Result{}, err
	}
	args, err := t.arguments(input)
	if err != nil {
		return tool.Result{}, err
	}
	raw, _ := json.Marshal(args)
	res, err := c.call(ctx, t.name, raw, callHooks{elicit: t.elicitor(env.Elicit), sample: t.sampler(env.Sample),
		progress: env.Progress})
	if err != nil {
		if errs.KindOf(err) == ServerCrashed {
			t.host.drop(t.srv, t.workspace, c)
		}
		return tool.Result{}, err
	}
	out, truncated := tool.CapOutput(resultText(res), tool.OutputCap)
	return tool.Result{Output: out, IsError: res.IsError, Truncated: truncated}, nil
}

func (t *Tool) elicitor(ask tool.Elicitor) tool.Elicitor {
	return func(ctx context.Context, e tool.Elicitation) (tool.ElicitAnswer, error) {
		if ask == nil {
			return tool.ElicitAnswer{Action: "cancel"}, nil
		}
		e.Tool = t.name
		return ask(ctx, e)
	}
}

// sampler names the tool in its server's sampling requests; with no one to decide, declined.
func (t *Tool) sampler(ask tool.Sampler) tool.Sampler {
	if ask == nil {
		return nil
	}
	return func(ctx context.Context, r tool.SamplingRequest) (tool.SamplingResult, error) {
		r.Tool = t.name
		return ask(ctx, r)
	}
}

// stillApproved checks the live listing right before a call: after a restart the server may
// list something other than what the person approved.
func (h *Host) stillApproved(t *Tool, c *conn) error {
	tools, err := h.toolsOf(t.srv, t.workspace, c)
	if err != nil {
		return err
	}
	for _, now := range tools {
		if now.name == t.name {
			return refusal(now)
		}
	}
	return errs.New(ToolGone, "Server", t.srv.cfg.Name, "Tool", t.name)
}

// refusal is why a tool in state st may not run; nil when it may.
func refusal(t *Tool) error {
	kv := []any{"Server", t.srv.cfg.Name, "Tool", t.name}
	switch t.state {
	case Approved:
		return nil
	case Changed:
		return errs.New(ToolChanged, kv...)
	case New:
		return errs.New(ToolNotApproved, kv...)
	case Off:
		return errs.New(ToolOff, kv...)
	}
	return errs.New(ToolGone, kv...)
}

// drop forgets a connection that broke, so the next call dials afresh.
func (h *Host) drop(s server, workspace string, c *conn) {
	sl, err := h.slot(slotKey{s.id, workspace})
	if err != nil {
		return
	}
	if sl.take(c) != nil {
		go c.close()
	}
}

// toolsOf is the server's live listing read against its pins, every tool in its state.
func (h *Host) toolsOf(s server, workspace string, c *conn) ([]*Tool, error) {
	rows, err := s.pins.rows()
	if err != nil {
		return nil, err
	}
	byName := map[string]store.MCPTool{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	var out []*Tool
	for _, lt := range c.tools() {
		listed, err := defOf(lt)
		if err != nil {
			continue
		}
		row, hasRow := byName[lt.Name]
		t := &Tool{host: h, srv: s, workspace: workspace, name: lt.Name, model: ModelName(s.cfg.Name, lt.Name),
			def: listed, listed: listed, state: stateOf(row, hasRow, listed.canonical())}
		if pinned, ok := parseDef(row.Pinned); ok && t.state != New {
			t.def = pinned
		}
		out = append(out, t)
	}
	return out, nil
}

// all is every listed tool of every enabled server in scope, in every state, servers started
// as needed (in parallel). A server that cannot start is left out: its failure is its status.
func (h *Host) all(ctx context.Context, sessionID, workspace string) ([]*Tool, error) {
	tools, _, err := h.listAll(ctx, sessionID, workspace)
	return tools, err
}

// listAll lists the tools of every server in scope, and why each server that could not be
// reached was not.
func (h *Host) listAll(ctx context.Context, sessionID, workspace string) ([]*Tool, map[string]error, error) {
	servers, err := h.inScope(sessionID, workspace)
	if err != nil {
		return nil, nil, err
	}
	lists := make([][]*Tool, len(servers))
	failures := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := workspaceOf(s, workspace)
			c, err := h.connect(ctx, s, ws)
			if err != nil {
				failures[i] = err
				return
			}
			lists[i], _ = h.toolsOf(s, ws, c)
		}()
	}
	wg.Wait()
	var out []*Tool
	failed := map[string]error{}
	for i, l := range lists {
		out = append(out, l...)
		if failures[i] != nil {
			failed[servers[i].cfg.Name] = failures[i]
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].model < out[j].model })
	return out, failed, nil
}

// Offered lists the tools a session in workspace may be offered: enabled, approved, unchanged.
// The agent filters them further by the execution mode (the read-only hint).
func (h *Host) Offered(ctx context.Context, sessionID, workspace string) []tool.Served {
	tools, err := h.all(ctx, sessionID, workspace)
	if err != nil {
		return nil
	}
	var out []tool.Served
	for _, t := range tools {
		if t.state == Approved {
			out = append(out, t)
		}
	}
	return out
}

// Lookup finds a tool by the name the model called it, in any state: one that may not run
// fails its call with the reason (changed, not approved, off). A tool of a server that could
// not be reached is that server's error, which says why; a name no server in scope has is
// (nil, nil).
func (h *Host) Lookup(ctx context.Context, sessionID, workspace, name string) (tool.Served, error) {
	if !strings.HasPrefix(name, "mcp__") {
		return nil, nil
	}
	tools, failed, err := h.listAll(ctx, sessionID, workspace)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.model == name {
			return h.fresh(ctx, t), nil
		}
	}
	for server, err := range failed {
		if strings.HasPrefix(name, ModelName(server, "")) {
			return nil, err
		}
	}
	return nil, nil
}

// fresh is t as the server lists it right now: a server that changed the tool without saying
// so yet is caught before the person is asked about the call, so the question shows the change.
// Should the listing fail, t stays as it was (the call's own listing reports the failure).
func (h *Host) fresh(ctx context.Context, t *Tool) *Tool {
	c, err := h.connect(ctx, t.srv, t.workspace)
	if err != nil || c.list(ctx) != nil {
		return t
	}
	tools, err := h.toolsOf(t.srv, t.workspace, c)
	if err != nil {
		return t
	}
	for _, now := range tools {
		if now.name == t.name {
			return now
		}
	}
	return t
}

// resultText is a call's result as the model reads it: the text parts in order, other content
// named with its type and size, structured content as JSON when there is nothing else.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, string(b))
	}
	if len(parts) == 0 {
		return "(no output)"
	}
	return strings.Join(parts, "\n")
}

func contentText(c mcp.Content) string {
	switch v := c.(type) {
	case *mcp.TextContent:
		return v.Text
	case *mcp.ImageContent:
		return fmt.Sprintf("[image %s, %d bytes]", v.MIMEType, len(v.Data))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio %s, %d bytes]", v.MIMEType, len(v.Data))
	case *mcp.ResourceLink:
		return fmt.Sprintf("[resource %s %s]", v.URI, v.Name)
	case *mcp.EmbeddedResource:
		if v.Resource == nil {
			return "[resource]"
		}
		if v.Resource.Text != "" {
			return v.Resource.Text
		}
		return fmt.Sprintf("[resource %s %s, %d bytes]", v.Resource.URI, v.Resource.MIMEType, len(v.Resource.Blob))
	}
	return fmt.Sprintf("[%T content]", c)
}
