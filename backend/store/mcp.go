package store

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// MCPServer is an MCP server the person configured: for every workspace (Workspace "") or for
// one. backend/mcp validates it before it is stored and reads it back.
type MCPServer struct {
	ID        string
	Name      string
	Workspace string
	Transport string // "stdio" or "http"
	Command   string
	Args      []string
	Env       map[string]string
	URL       string
	Headers   map[string]string
	// Network lets a stdio server reach the network through its sandbox.
	Network bool
	Enabled bool
	// Source says where it came from: "cli", "settings", or "import:<file>".
	Source    string
	CreatedAt time.Time
}

type mcpServerRow struct {
	ID        string `gorm:"primaryKey"`
	Name      string
	Workspace string
	Transport string
	Command   string
	Args      string
	Env       string
	URL       string
	Headers   string
	Network   bool
	Enabled   bool
	Source    string
	CreatedAt time.Time
}

func (mcpServerRow) TableName() string { return "mcp_servers" }

// MCPTool is one tool of a server as the store keeps it: the definition the person approved
// (Pinned, empty when never approved) and the one the server listed last (Seen). Both are the
// canonical JSON backend/mcp writes; it decides what a difference means.
type MCPTool struct {
	ServerID   string `gorm:"primaryKey"`
	Name       string `gorm:"primaryKey"`
	Pinned     string
	Seen       string
	Disabled   bool
	ApprovedAt *time.Time
	SeenAt     time.Time
}

func (MCPTool) TableName() string { return "mcp_tools" }

func (r mcpServerRow) server() MCPServer {
	s := MCPServer{ID: r.ID, Name: r.Name, Workspace: r.Workspace, Transport: r.Transport, Command: r.Command,
		URL: r.URL, Network: r.Network, Enabled: r.Enabled, Source: r.Source, CreatedAt: r.CreatedAt}
	// A damaged column reads as empty: the server then fails to start, it never gains anything.
	_ = json.Unmarshal([]byte(r.Args), &s.Args)
	_ = json.Unmarshal([]byte(r.Env), &s.Env)
	_ = json.Unmarshal([]byte(r.Headers), &s.Headers)
	return s
}

func serverRow(s MCPServer) (mcpServerRow, error) {
	args, err := json.Marshal(orEmpty(s.Args))
	if err != nil {
		return mcpServerRow{}, errs.Wrap(errs.Internal, err)
	}
	env, _ := json.Marshal(orEmptyMap(s.Env))
	headers, _ := json.Marshal(orEmptyMap(s.Headers))
	return mcpServerRow{ID: s.ID, Name: s.Name, Workspace: s.Workspace, Transport: s.Transport, Command: s.Command,
		Args: string(args), Env: string(env), URL: s.URL, Headers: string(headers), Network: s.Network,
		Enabled: s.Enabled, Source: s.Source, CreatedAt: s.CreatedAt}, nil
}

func orEmpty(v []string) []string {
	if v == nil {
		return []string{}
	}
	return v
}

func orEmptyMap(v map[string]string) map[string]string {
	if v == nil {
		return map[string]string{}
	}
	return v
}

// AddMCPServer stores a server under a fresh id. A second server of the same name in the same
// scope is ALREADY_EXISTS.
func (s *Store) AddMCPServer(srv MCPServer) (MCPServer, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return MCPServer{}, errs.Wrap(errs.Internal, err)
	}
	srv.ID, srv.CreatedAt = id.String(), time.Now().UTC()
	row, err := serverRow(srv)
	if err != nil {
		return MCPServer{}, err
	}
	if err := s.write(func(tx *gorm.DB) error { return tx.Create(&row).Error }); err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			return MCPServer{}, errs.Wrap(errs.AlreadyExists, err, "ID", srv.Name)
		}
		return MCPServer{}, err
	}
	return row.server(), nil
}

// EditMCPServer replaces what a server runs (its command and arguments, or its URL; its
// environment, headers and network) and switches it off: what runs now is another program, whose
// tools the person reviews before it is on again. Its name, scope and transport stay.
func (s *Store) EditMCPServer(srv MCPServer) error {
	row, err := serverRow(srv)
	if err != nil {
		return err
	}
	return s.write(func(tx *gorm.DB) error {
		res := tx.Model(&mcpServerRow{}).Where("id = ?", srv.ID).Updates(map[string]any{"command": row.Command, "args": row.Args,
			"env": row.Env, "url": row.URL, "headers": row.Headers, "network": row.Network, "enabled": false})
		if res.Error == nil && res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", srv.ID)
		}
		return res.Error
	})
}

// MCPServers lists every configured server, global ones first, then by workspace and name.
func (s *Store) MCPServers() ([]MCPServer, error) {
	var rows []mcpServerRow
	if err := s.db.Order("workspace, name").Find(&rows).Error; err != nil {
		return nil, storeErr(err)
	}
	out := make([]MCPServer, len(rows))
	for i, r := range rows {
		out[i] = r.server()
	}
	return out, nil
}

// FindMCPServer is the server named name in scope workspace ("" for global); NOT_FOUND if none.
func (s *Store) FindMCPServer(workspace, name string) (MCPServer, error) {
	var row mcpServerRow
	err := s.db.Where("workspace = ? AND name = ?", workspace, name).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return MCPServer{}, errs.New(errs.NotFound, "ID", name)
	}
	return row.server(), storeErr(err)
}

// MCPServerByID is one server; NOT_FOUND if none.
func (s *Store) MCPServerByID(id string) (MCPServer, error) {
	var row mcpServerRow
	err := s.db.Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return MCPServer{}, errs.New(errs.NotFound, "ID", id)
	}
	return row.server(), storeErr(err)
}

// DeleteMCPServer removes a server and its tools' pins.
func (s *Store) DeleteMCPServer(id string) error {
	return s.write(func(tx *gorm.DB) error {
		res := tx.Where("id = ?", id).Delete(&mcpServerRow{})
		if res.Error == nil && res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", id)
		}
		return res.Error
	})
}

// EnableMCPServer switches a server on and pins the definitions given (tool name to canonical
// definition) as approved, in one transaction: the tools it had before and no longer lists go,
// so what the person approved is exactly what they saw.
func (s *Store) EnableMCPServer(id string, defs map[string]string) error {
	now := time.Now().UTC()
	return s.write(func(tx *gorm.DB) error {
		if err := setEnabled(tx, id, true); err != nil {
			return err
		}
		if err := tx.Where("server_id = ?", id).Delete(&MCPTool{}).Error; err != nil {
			return err
		}
		for name, def := range defs {
			row := MCPTool{ServerID: id, Name: name, Pinned: def, Seen: def, ApprovedAt: &now, SeenAt: now}
			if err := tx.Create(&row).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// DisableMCPServer switches a server off; its pins stay for the next enable to replace.
func (s *Store) DisableMCPServer(id string) error {
	return s.write(func(tx *gorm.DB) error { return setEnabled(tx, id, false) })
}

func setEnabled(db *gorm.DB, id string, on bool) error {
	res := db.Model(&mcpServerRow{}).Where("id = ?", id).Update("enabled", on)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return errs.New(errs.NotFound, "ID", id)
	}
	return nil
}

// MCPTools lists a server's tools by name.
func (s *Store) MCPTools(serverID string) ([]MCPTool, error) {
	var out []MCPTool
	err := s.db.Where("server_id = ?", serverID).Order("name").Find(&out).Error
	return out, storeErr(err)
}

// SeeMCPTools records what the server lists now (tool name to canonical definition): a tool it
// never listed before gets a row with nothing pinned; a known one gets its Seen updated when it
// differs. Nothing is written when nothing changed. It returns every row of the server.
func (s *Store) SeeMCPTools(serverID string, defs map[string]string) ([]MCPTool, error) {
	known, err := s.MCPTools(serverID)
	if err != nil {
		return nil, err
	}
	byName := map[string]MCPTool{}
	for _, t := range known {
		byName[t.Name] = t
	}
	if !anyNew(byName, defs) {
		return known, nil
	}
	now := time.Now().UTC()
	if err := s.write(func(tx *gorm.DB) error { return recordSeen(tx, serverID, defs, now) }); err != nil {
		return nil, err
	}
	return s.MCPTools(serverID)
}

// recordSeen writes the listing's changes to a server's rows, read again under the write lock
// so that what another listing recorded meanwhile is compared too.
func recordSeen(tx *gorm.DB, serverID string, defs map[string]string, now time.Time) error {
	var rows []MCPTool
	if err := tx.Where("server_id = ?", serverID).Find(&rows).Error; err != nil {
		return err
	}
	byName := map[string]MCPTool{}
	for _, t := range rows {
		byName[t.Name] = t
	}
	for name, def := range defs {
		t, ok := byName[name]
		switch {
		case !ok:
			if err := tx.Create(&MCPTool{ServerID: serverID, Name: name, Seen: def, SeenAt: now}).Error; err != nil {
				return err
			}
		case t.Seen != def:
			if err := tx.Model(&MCPTool{}).Where("server_id = ? AND name = ?", serverID, name).
				Updates(map[string]any{"seen": def, "seen_at": now}).Error; err != nil {
				return err
			}
		}
	}
	return nil
}

// ApproveMCPTool pins seen, the definition the person reviewed, as the approved one of a tool.
// It does so only while the server's last listing is still that definition: one that changed
// again meanwhile is NOT_FOUND, so no one approves what they did not see.
func (s *Store) ApproveMCPTool(serverID, name, seen string) error {
	now := time.Now().UTC()
	return s.write(func(tx *gorm.DB) error {
		res := tx.Model(&MCPTool{}).Where("server_id = ? AND name = ? AND seen <> '' AND seen = ?", serverID, name, seen).
			Updates(map[string]any{"pinned": gorm.Expr("seen"), "approved_at": now, "disabled": false})
		if res.Error == nil && res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", name)
		}
		return res.Error
	})
}

// SetMCPToolDisabled switches one tool off (or back on) without touching its pin.
func (s *Store) SetMCPToolDisabled(serverID, name string, disabled bool) error {
	return s.write(func(tx *gorm.DB) error {
		res := tx.Model(&MCPTool{}).Where("server_id = ? AND name = ?", serverID, name).Update("disabled", disabled)
		if res.Error == nil && res.RowsAffected == 0 {
			return errs.New(errs.NotFound, "ID", name)
		}
		return res.Error
	})
}

// anyNew reports whether defs holds a tool not known or listed differently than last time.
func anyNew(known map[string]MCPTool, defs map[string]string) bool {
	for name, def := range defs {
		if t, ok := known[name]; !ok || t.Seen != def {
			return true
		}
	}
	return false
}
