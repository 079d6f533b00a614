package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// Transport is how AgentDesk talks to a server.
type Transport string

const (
	// Stdio starts the server as a child process (under the sandbox where the kernel has one)
	// and speaks newline-delimited JSON-RPC over its standard input and output.
	Stdio Transport = "stdio"
	// HTTP speaks MCP's Streamable HTTP transport to a URL.
	HTTP Transport = "http"
)

// Transports lists the supported transports.
var Transports = []Transport{Stdio, HTTP}

// Config is a server as the person configures it.
type Config struct {
	Name string `json:"name"`
	// Workspace limits the server to one workspace; "" makes it available in every workspace.
	Workspace string            `json:"workspace,omitempty"`
	Transport Transport         `json:"transport"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	// Network lets a stdio server reach the network from inside its sandbox.
	Network bool `json:"network,omitempty"`
}

var (
	serverName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$`)
	envName    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	headerName = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
)

// Validate checks a configuration before it is stored; every problem is INVALID_VALUE naming
// the field and what it accepts.
func (c Config) Validate() error {
	// No "__" and no trailing "_": the model's name for a tool, mcp__server__tool, must read
	// back to its server.
	if !serverName.MatchString(c.Name) || strings.Contains(c.Name, "__") || strings.HasSuffix(c.Name, "_") {
		return errs.Invalid("name", c.Name, []string{"1–32 letters, digits, _ or - (no __, not ending in _)"})
	}
	if c.Workspace != "" && (!filepath.IsAbs(c.Workspace) || filepath.Clean(c.Workspace) != c.Workspace) {
		return errs.Invalid("workspace", c.Workspace, []string{"an absolute, clean path", "empty for every workspace"})
	}
	switch c.Transport {
	case Stdio:
		return c.validateStdio()
	case HTTP:
		return c.validateHTTP()
	}
	return errs.Invalid("transport", string(c.Transport), names(Transports))
}

func (c Config) validateStdio() error {
	switch {
	case strings.TrimSpace(c.Command) == "":
		return errs.New(errs.MissingArgument, "Name", "command")
	case c.URL != "" || len(c.Headers) > 0:
		return errs.Invalid("url", c.URL, []string{"none for a stdio server"})
	}
	for k := range c.Env {
		if !envName.MatchString(k) {
			return errs.Invalid("env", k, []string{"NAME=VALUE with a name of letters, digits and _"})
		}
	}
	return nil
}

func (c Config) validateHTTP() error {
	u, err := url.Parse(c.URL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return errs.Invalid("url", c.URL, []string{"http://… or https://…"})
	case c.Command != "" || len(c.Args) > 0 || len(c.Env) > 0:
		return errs.Invalid("command", c.Command, []string{"none for an http server"})
	case c.Network:
		return errs.Invalid("network", "true", []string{"only for stdio servers (http servers are reached over the network already)"})
	}
	for k := range c.Headers {
		if !headerName.MatchString(k) {
			return errs.Invalid("header", k, []string{"Name: value"})
		}
	}
	return nil
}

func (c Config) record(source string) store.MCPServer {
	return store.MCPServer{Name: c.Name, Workspace: c.Workspace, Transport: string(c.Transport), Command: c.Command,
		Args: c.Args, Env: c.Env, URL: c.URL, Headers: c.Headers, Network: c.Network, Source: source}
}

func configOf(s store.MCPServer) Config {
	return Config{Name: s.Name, Workspace: s.Workspace, Transport: Transport(s.Transport), Command: s.Command,
		Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers, Network: s.Network}
}

// expandVars replaces ${NAME} and ${NAME:-default} in s with the variables getenv knows, so
// secrets stay in the environment rather than in the database. A variable that is not set and
// has no default is an error naming it.
func expandVars(s string, getenv func(string) string) (string, error) {
	var b strings.Builder
	for {
		start := strings.Index(s, "${")
		if start < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		end := strings.Index(s[start:], "}")
		if end < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:start])
		name, def, hasDef := strings.Cut(s[start+2:start+end], ":-")
		v := getenv(name)
		switch {
		case v != "":
			b.WriteString(v)
		case hasDef:
			b.WriteString(def)
		default:
			return "", errs.New(errs.MissingArgument, "Name", "$"+name)
		}
		s = s[start+end+1:]
	}
}

// ModelName is the name the model calls a server's tool by: mcp__server__tool, with characters
// the providers refuse replaced and kept within their 64-character limit.
func ModelName(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, s)
	}
	name := "mcp__" + clean(server) + "__" + clean(tool)
	if len(name) <= 64 && clean(tool) == tool {
		return name
	}
	sum := sha256.Sum256([]byte(server + "/" + tool))
	suffix := "_" + hex.EncodeToString(sum[:4])
	return name[:min(len(name), 64-len(suffix))] + suffix
}

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
