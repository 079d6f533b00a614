package external

import (
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/policy"
)

// Reach is what an external agent's process may reach from inside the sandbox: the hosts its
// model traffic goes to (through AgentDesk's proxy, nothing else) and the folders where it keeps
// its own state (read-write). Hosts are "name", "name:port" or "*.domain"; a local model server
// is "localhost:PORT". Folders are absolute or start with "~/".
type Reach struct {
	Hosts   []string `json:"hosts"`
	Folders []string `json:"folders"`
}

// Confinement is how one agent process is held: the sandbox's namespaces and Landlock, with the
// workspace writable only in a mode and permission that let changes run unasked.
type Confinement struct {
	// Writable: the workspace is read-write (Auto and Full, in a mode that may change files).
	// Otherwise it is read-only, and the agent's changes come through fs/write_text_file and
	// terminal/create, which AgentDesk's gate answers.
	Writable bool
	Reach    Reach
	DataDir  string // hidden from the agent, like from every sandboxed command
}

// NeedsSandbox refuses an external agent outside Full access where the kernel offers no
// sandbox to hold it: its process would change files nobody asked about.
const NeedsSandbox errs.Kind = "EXTERNAL_AGENT_NEEDS_SANDBOX"

// BadReach refuses a host or folder the sandbox could not hold an agent to.
const BadReach errs.Kind = "EXTERNAL_AGENT_REACH_INVALID"

// OutsideReach is the proxy's refusal of a connection the agent's reach does not name: the
// agent reads it, and its log shows it, so it says where the reach is set rather than how to ask.
const OutsideReach errs.Kind = "EXTERNAL_AGENT_HOST_OUTSIDE_REACH"

// knownReach are the defaults for agents seen in use: the API hosts their stock configuration
// talks to and the folders they keep their sessions and settings in.
var knownReach = map[string]Reach{
	"opencode": {Hosts: []string{"api.openai.com", "api.anthropic.com", "models.dev", "opencode.ai", "models.opencode.ai", "registry.npmjs.org"},
		Folders: []string{"~/.config/opencode", "~/.local/share/opencode", "~/.local/state/opencode", "~/.cache/opencode"}},
	"codex":  {Hosts: []string{"api.openai.com", "chatgpt.com"}, Folders: []string{"~/.codex"}},
	"claude": {Hosts: []string{"api.anthropic.com"}, Folders: []string{"~/.claude", "~/.claude.json"}},
	"gemini": {Hosts: []string{"generativelanguage.googleapis.com", "oauth2.googleapis.com"}, Folders: []string{"~/.gemini"}},
	"goose": {Hosts: []string{"api.openai.com", "api.anthropic.com"},
		Folders: []string{"~/.config/goose", "~/.local/share/goose", "~/.local/state/goose"}},
}

// DefaultReach is the reach of an agent the person saved none for: a known agent's API hosts and
// folders, else no host and the usual folders under its name.
func DefaultReach(command string) Reach {
	name := AgentName(command)
	for _, suffix := range []string{"-ai", "-acp", "-code-acp", "-code", "-cli"} {
		if r, ok := knownReach[strings.TrimSuffix(name, suffix)]; ok {
			return r
		}
	}
	if r, ok := knownReach[name]; ok {
		return r
	}
	return Reach{Hosts: []string{}, Folders: []string{"~/.config/" + name, "~/.local/share/" + name,
		"~/.local/state/" + name, "~/.cache/" + name}}
}

// Check refuses a reach the sandbox cannot hold an agent to: a host that is not a name, a
// "name:port" or a "*.domain", and a folder that is relative, the home folder itself or "/".
func (r Reach) Check() error {
	for _, h := range r.Hosts {
		if _, _, ok := parseHost(h); !ok {
			return errs.New(BadReach, "Value", h)
		}
	}
	for _, f := range r.Folders {
		clean := filepath.Clean(strings.TrimSpace(f))
		if !(filepath.IsAbs(clean) || strings.HasPrefix(clean, "~/")) || clean == "/" || clean == "~" {
			return errs.New(BadReach, "Value", f)
		}
	}
	return nil
}

// parseHost reads "name", "name:port" or "*.domain[:port]"; port 0 is any port.
func parseHost(entry string) (host string, port int, ok bool) {
	entry = strings.TrimSpace(entry)
	host = entry
	if h, p, err := net.SplitHostPort(entry); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return "", 0, false
		}
		host, port = h, n
	}
	host = policy.NormalHost(host)
	name := strings.TrimPrefix(host, "*.")
	if name == "" || strings.Contains(name, "*") || strings.ContainsAny(name, " /\\") {
		return "", 0, false
	}
	return host, port, true
}

// Allows reports whether the agent may open a connection to host at port: an exact name, or a
// "*.domain" entry covering it, at the entry's port or any port when the entry names none.
func (r Reach) Allows(host string, port int) bool {
	host = policy.NormalHost(host)
	for _, entry := range r.Hosts {
		h, p, ok := parseHost(entry)
		if !ok || p != 0 && p != port {
			continue
		}
		if h == host || strings.HasPrefix(h, "*.") && strings.HasSuffix(host, h[1:]) {
			return true
		}
	}
	return false
}

// LocalPorts are the ports of the local services the reach names (localhost, 127.0.0.1 or ::1
// with a port): the proxy dials those on loopback, which it refuses otherwise.
func (r Reach) LocalPorts() []int {
	var ports []int
	for _, entry := range r.Hosts {
		h, p, ok := parseHost(entry)
		if ok && p != 0 && (h == "localhost" || h == "127.0.0.1" || h == "::1") && !slices.Contains(ports, p) {
			ports = append(ports, p)
		}
	}
	return ports
}

// FoldersIn are the reach's folders as absolute paths, "~/" taken from home; a "~/" folder is
// dropped when there is no home to take it from.
func (r Reach) FoldersIn(home string) []string {
	var out []string
	for _, f := range r.Folders {
		f = filepath.Clean(strings.TrimSpace(f))
		if rest, ok := strings.CutPrefix(f, "~/"); ok {
			if home == "" || !filepath.IsAbs(home) || home == "/" {
				continue
			}
			f = filepath.Join(home, rest)
		}
		if filepath.IsAbs(f) && f != "/" {
			out = append(out, f)
		}
	}
	return out
}
