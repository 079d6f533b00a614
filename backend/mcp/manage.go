package mcp

import (
	"context"
	"os"
	"sort"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// ServerView is a configured server as Settings and `agentdesk mcp list` show it.
type ServerView struct {
	ID string `json:"id"`
	Config
	Enabled bool       `json:"enabled"`
	Source  string     `json:"source"`
	Status  Status     `json:"status"`
	Tools   []ToolView `json:"tools"`
}

// ToolView is one tool of a server: its state and, when it changed, what changed.
type ToolView struct {
	Name        string    `json:"name"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description"`
	ReadOnly    bool      `json:"readOnly"`
	State       ToolState `json:"state"`
	// Rule is how rules name it: mcp:server/tool.
	Rule string `json:"rule"`
	// Seen is the definition the server lists now; approving sends it back, so what is pinned is
	// exactly what the person reviewed.
	Seen string `json:"seen,omitempty"`
	// Diff is the approved definition against the listed one, line by line, when they differ.
	Diff []DiffLine `json:"diff,omitempty"`
}

// Add stores a new server, switched off; Enable switches it on.
func (h *Host) Add(cfg Config, source string) (ServerView, error) {
	if err := cfg.Validate(); err != nil {
		return ServerView{}, err
	}
	row, err := h.st.AddMCPServer(cfg.record(source))
	if err != nil {
		return ServerView{}, err
	}
	return h.view(row)
}

// Edit replaces what a server runs (command and arguments, or URL; environment, headers,
// network), keeping its name, scope and transport, so a mistyped command is fixed in place. The
// server is switched off and stopped, then started once to list its tools for review, as when it
// was added: a server that still cannot start stays, edited and off, and the error says why.
func (h *Host) Edit(ctx context.Context, id string, cfg Config) (ServerView, error) {
	row, err := h.st.MCPServerByID(id)
	if err != nil {
		return ServerView{}, err
	}
	cfg.Name, cfg.Workspace, cfg.Transport = row.Name, row.Workspace, Transport(row.Transport)
	if err := cfg.Validate(); err != nil {
		return ServerView{}, err
	}
	rec := cfg.record(row.Source)
	rec.ID = id
	if err := h.st.EditMCPServer(rec); err != nil {
		return ServerView{}, err
	}
	h.forget(id)
	if _, err := h.changed(id); err != nil {
		return ServerView{}, err
	}
	return h.Review(ctx, id, "")
}

// Find is the server named name in scope workspace ("" for a global one).
func (h *Host) Find(workspace, name string) (ServerView, error) {
	row, err := h.st.FindMCPServer(workspace, name)
	if err != nil {
		return ServerView{}, err
	}
	return h.view(row)
}

// List shows the servers of workspace (the global ones and its own), or every server when
// workspace is empty.
func (h *Host) List(workspace string) ([]ServerView, error) {
	rows, err := h.st.MCPServers()
	if err != nil {
		return nil, err
	}
	out := []ServerView{}
	for _, r := range rows {
		if workspace != "" && r.Workspace != "" && r.Workspace != workspace {
			continue
		}
		v, err := h.view(r)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Enable starts the server (in its workspace, else in probeWorkspace, else in an empty temp
// folder), lists its tools and pins every one of them as the person's approval, then switches
// the server on. The server is stopped again: sessions start their own.
func (h *Host) Enable(ctx context.Context, id, probeWorkspace string) (ServerView, error) {
	return h.EnableReviewed(ctx, id, probeWorkspace, nil)
}

// EnableReviewed is Enable pinning only what the person reviewed: reviewed maps each tool they
// saw to the definition they saw (ToolView.Seen). A tool listed now with another definition, or
// not reviewed at all, is recorded but not pinned: it waits, off, for its own approval. A nil
// reviewed pins every listed tool.
func (h *Host) EnableReviewed(ctx context.Context, id, probeWorkspace string, reviewed map[string]string) (ServerView, error) {
	defs, err := h.probe(ctx, id, probeWorkspace)
	if err != nil {
		return ServerView{}, err
	}
	pinned := defs
	if reviewed != nil {
		pinned = map[string]string{}
		for name, def := range defs {
			if reviewed[name] == def {
				pinned[name] = def
			}
		}
	}
	if err := h.st.EnableMCPServer(id, pinned); err != nil {
		return ServerView{}, err
	}
	if len(pinned) < len(defs) {
		if _, err := h.st.SeeMCPTools(id, defs); err != nil {
			return ServerView{}, err
		}
	}
	return h.changed(id)
}

// Review starts a server that is off and lists its tools for the person to review, pinning
// none: each is listed as new until the server is enabled with it (EnableReviewed).
func (h *Host) Review(ctx context.Context, id, probeWorkspace string) (ServerView, error) {
	defs, err := h.probe(ctx, id, probeWorkspace)
	if err != nil {
		return ServerView{}, err
	}
	if _, err := h.st.SeeMCPTools(id, defs); err != nil {
		return ServerView{}, err
	}
	return h.changed(id)
}

// probe starts a server once, away from any session, and reads its listing.
func (h *Host) probe(ctx context.Context, id, probeWorkspace string) (map[string]string, error) {
	row, err := h.st.MCPServerByID(id)
	if err != nil {
		return nil, err
	}
	s := h.stored(row)
	ws, cleanup, err := probeFolder(workspaceOf(s, probeWorkspace))
	if err != nil {
		return nil, err
	}
	defer cleanup()
	h.forget(id)
	c, err := dial(ctx, h.spec(s.cfg, ws))
	if err != nil {
		return nil, err
	}
	defs := map[string]string{}
	for _, t := range c.tools() {
		if d, err := defOf(t); err == nil {
			defs[t.Name] = d.canonical()
		}
	}
	c.close()
	return defs, nil
}

// probeFolder is the folder a server is started in to be enabled: the one given, or a fresh
// empty one that cleanup removes.
func probeFolder(ws string) (string, func(), error) {
	if ws != "" {
		return ws, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "agentdesk-mcp-enable-*")
	if err != nil {
		return "", nil, errs.Wrap(errs.Internal, err)
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Disable switches a server off and stops it; its pins stay until the next Enable.
func (h *Host) Disable(id string) (ServerView, error) {
	if err := h.st.DisableMCPServer(id); err != nil {
		return ServerView{}, err
	}
	h.forget(id)
	return h.changed(id)
}

// Remove stops a server and deletes it with its pins. Rules naming it stay (a server added
// again under the same name is held to them).
func (h *Host) Remove(id string) error {
	h.forget(id)
	if err := h.st.DeleteMCPServer(id); err != nil {
		return err
	}
	h.opts.Publish(EventChanged, ChangedView{ServerID: id})
	return nil
}

// Approve pins seen, the listed definition the person reviewed, for one tool, and switches it
// on: a changed or new tool is offered again from the next model request.
func (h *Host) Approve(id, toolName, seen string) (ServerView, error) {
	if err := h.st.ApproveMCPTool(id, toolName, seen); err != nil {
		return ServerView{}, err
	}
	return h.changed(id)
}

// SetToolOff switches one tool off, or back on.
func (h *Host) SetToolOff(id, toolName string, off bool) (ServerView, error) {
	if err := h.st.SetMCPToolDisabled(id, toolName, off); err != nil {
		return ServerView{}, err
	}
	return h.changed(id)
}

func (h *Host) changed(id string) (ServerView, error) {
	row, err := h.st.MCPServerByID(id)
	if err != nil {
		return ServerView{}, err
	}
	h.opts.Publish(EventChanged, ChangedView{ServerID: id, Name: row.Name})
	return h.view(row)
}

// view is a server with its tools as the pins know them: the listing last seen by any of its
// connections, each tool in its state.
func (h *Host) view(row store.MCPServer) (ServerView, error) {
	rows, err := h.st.MCPTools(row.ID)
	if err != nil {
		return ServerView{}, err
	}
	v := ServerView{ID: row.ID, Config: configOf(row), Enabled: row.Enabled, Source: row.Source, Status: h.status(row.ID),
		Tools: []ToolView{}}
	for _, r := range rows {
		v.Tools = append(v.Tools, toolView(row.Name, r))
	}
	sort.Slice(v.Tools, func(i, j int) bool { return v.Tools[i].Name < v.Tools[j].Name })
	return v, nil
}

func toolView(server string, r store.MCPTool) ToolView {
	seen, _ := parseDef(r.Seen)
	tv := ToolView{Name: r.Name, Title: seen.Title, Description: seen.Description, ReadOnly: seen.ReadOnlyHint(),
		State: stateOf(r, true, r.Seen), Rule: "mcp:" + server + "/" + r.Name, Seen: r.Seen}
	if tv.State == Changed {
		pinned, _ := parseDef(r.Pinned)
		tv.Diff = diffLines(pinned.pretty(), seen.pretty())
	}
	return tv
}
