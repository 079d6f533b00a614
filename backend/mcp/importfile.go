package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"agentdesk/backend/errs"
)

// ImportFile is the file a workspace may describe its MCP servers in, in the format Claude Code
// and other clients share: {"mcpServers": {"name": {"command", "args", "env"} | {"type": "http",
// "url", "headers"}}}. AgentDesk never starts what it names on its own: the person reviews what
// Preview shows and confirms the import, since anyone who can write to the workspace (the agent
// included) can write this file.
const ImportFile = ".mcp.json"

// ImportItem is one server of a workspace's .mcp.json: the configuration it would get, or why it
// cannot be imported.
type ImportItem struct {
	Config  Config `json:"config"`
	Problem string `json:"problem,omitempty"`
	// Exists says a server of that name is already configured for the workspace.
	Exists bool `json:"exists,omitempty"`
}

type importEntry struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

// Preview reads the workspace's .mcp.json without starting anything. No file is an empty list.
func (h *Host) Preview(workspace string) ([]ImportItem, error) {
	path := filepath.Join(workspace, ImportFile)
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []ImportItem{}, nil
	}
	if err != nil {
		return nil, errs.Wrap(errs.InvalidInput, err, "Field", path)
	}
	items, err := parseImport(raw, workspace)
	if err != nil {
		return nil, errs.Wrap(errs.InvalidInput, err, "Field", path)
	}
	for i := range items {
		if _, err := h.st.FindMCPServer(workspace, items[i].Config.Name); err == nil {
			items[i].Exists = true
		}
	}
	return items, nil
}

func parseImport(raw []byte, workspace string) ([]ImportItem, error) {
	var file struct {
		Servers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, err
	}
	items := []ImportItem{}
	for name, body := range file.Servers {
		items = append(items, importItem(name, body, workspace))
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Config.Name < items[j].Config.Name })
	return items, nil
}

func importItem(name string, body json.RawMessage, workspace string) ImportItem {
	var e importEntry
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	cfg := Config{Name: name, Workspace: workspace}
	if err := dec.Decode(&e); err != nil {
		return ImportItem{Config: cfg, Problem: err.Error()}
	}
	switch e.Type {
	case "", "stdio":
		cfg.Transport, cfg.Command, cfg.Args, cfg.Env = Stdio, e.Command, e.Args, e.Env
	case "http", "streamable-http":
		cfg.Transport, cfg.URL, cfg.Headers = HTTP, e.URL, e.Headers
	default:
		return ImportItem{Config: cfg, Problem: "transport " + e.Type + " is not supported (stdio and http are)"}
	}
	if err := cfg.Validate(); err != nil {
		return ImportItem{Config: cfg, Problem: err.Error()}
	}
	return ImportItem{Config: cfg}
}

// ImportResult is what became of one server the person confirmed.
type ImportResult struct {
	Name   string      `json:"name"`
	Server *ServerView `json:"server,omitempty"`
	// Error is set when it could not be added or enabled; a server added but not enabled is
	// listed, switched off.
	Error error `json:"-"`
}

// Import adds the servers the person confirmed (by name) from the workspace's .mcp.json, for
// that workspace, and enables each (which pins its tools). Without a confirmation it refuses:
// MCP_IMPORT_NOT_CONFIRMED.
func (h *Host) Import(ctx context.Context, workspace string, confirmed []string) ([]ImportResult, error) {
	if len(confirmed) == 0 {
		return nil, errs.New(ImportNotConfirmed, "Path", filepath.Join(workspace, ImportFile))
	}
	items, err := h.Preview(workspace)
	if err != nil {
		return nil, err
	}
	byName := map[string]ImportItem{}
	for _, it := range items {
		byName[it.Config.Name] = it
	}
	var out []ImportResult
	for _, name := range confirmed {
		out = append(out, h.importOne(ctx, workspace, name, byName))
	}
	return out, nil
}

func (h *Host) importOne(ctx context.Context, workspace, name string, items map[string]ImportItem) ImportResult {
	it, ok := items[name]
	switch {
	case !ok:
		return ImportResult{Name: name, Error: errs.New(errs.NotFound, "ID", name)}
	case it.Problem != "":
		return ImportResult{Name: name, Error: errs.New(errs.InvalidInput, "Field", name+": "+it.Problem)}
	}
	v, err := h.Add(it.Config, "import:"+filepath.Join(workspace, ImportFile))
	if err != nil {
		return ImportResult{Name: name, Error: err}
	}
	enabled, err := h.Enable(ctx, v.ID, workspace)
	if err != nil {
		return ImportResult{Name: name, Server: &v, Error: err}
	}
	return ImportResult{Name: name, Server: &enabled}
}
