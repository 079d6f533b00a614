package client

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"agentdesk/backend/agent/external"
	"agentdesk/backend/errs"
	"agentdesk/backend/netproxy"
	"agentdesk/backend/sandbox"
)

// agentCommand builds the agent's process: inside the sandbox with the session's confinement,
// or, without one, unconfined under the helper's supervision. cleanup removes what the
// confinement made (the proxy, the private temp folder) once the process exited.
func agentCommand(s external.Session, args []string, logw io.Writer) (cmd *exec.Cmd, cleanup func(), err error) {
	if s.Confine == nil {
		return sandbox.Supervised(args[0], args[1:], os.Environ()), func() {}, nil
	}
	if !sandbox.Status().Namespaces {
		return nil, nil, errs.New(external.NeedsSandbox, "Agent", s.Command)
	}
	program, err := exec.LookPath(args[0])
	if err != nil {
		return nil, nil, err
	}
	tmp, err := os.MkdirTemp("", "agentdesk-agent-*")
	if err != nil {
		return nil, nil, err
	}
	proxy, err := reachProxy(s, logw)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	ports := s.Confine.Reach.LocalPorts()
	closeLocal, err := serveLocalPorts(proxy.Path(), ports)
	if err != nil {
		proxy.Close()
		os.RemoveAll(filepath.Dir(proxy.Path()))
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	cleanup = func() { closeLocal(); proxy.Close(); os.RemoveAll(filepath.Dir(proxy.Path())); os.RemoveAll(tmp) }
	home, _ := os.UserHomeDir()
	// Agents serve themselves on loopback (opencode's ACP mode does): its own namespace's lo.
	p := sandbox.Policy{Workspace: s.Workspace, DataDir: s.Confine.DataDir, TempDir: tmp, ProxySocket: proxy.Path(), LocalNet: true, LocalPorts: ports,
		WorkspaceReadOnly: !s.Confine.Writable, Writable: stateFolders(s.Confine.Reach.FoldersIn(home)),
		Expose: programFolders(append([]string{program}, args[1:]...))}
	cmd, err = sandbox.Command(p, program, args[1:], os.Environ())
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	return cmd, cleanup, nil
}

// reachProxy serves the agent's network: the hosts its reach names, nothing else, each refusal
// written to the agent's log so the person can see what it tried.
func reachProxy(s external.Session, logw io.Writer) (*netproxy.Proxy, error) {
	dir, err := os.MkdirTemp("", "agentdesk-net-*")
	if err != nil {
		return nil, err
	}
	reach := s.Confine.Reach
	p, err := netproxy.Listen(filepath.Join(dir, "proxy.sock"), netproxy.Config{Mode: netproxy.Full, LocalPorts: reach.LocalPorts(),
		Decide: func(_ context.Context, host string, port int) netproxy.Verdict {
			if reach.Allows(host, port) {
				return netproxy.Approve()
			}
			return netproxy.Verdict{Refusal: errs.New(external.OutsideReach, "Host", host, "Port", port)}
		},
		Log: func(ev netproxy.Event) {
			if !ev.Allowed {
				fmt.Fprintf(logw, "agentdesk: %s may not reach %s:%d (not in its reach in Settings)\n", external.AgentName(s.Command), ev.Host, ev.Port)
			}
		}})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return p, nil
}

// serveLocalPorts serves, for each local service port the reach names, the socket the sandbox
// bridges 127.0.0.1:port to inside the agent's namespace; each connection is passed on to that
// port on this machine's loopback. The returned stop closes them.
func serveLocalPorts(proxySocket string, ports []int) (stop func(), err error) {
	var lns []net.Listener
	stop = func() {
		for _, ln := range lns {
			ln.Close()
		}
	}
	for _, port := range ports {
		ln, err := net.Listen("unix", sandbox.LocalPortSocket(proxySocket, port))
		if err != nil {
			stop()
			return nil, err
		}
		lns = append(lns, ln)
		go passOn(ln, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	}
	return stop, nil
}

func passOn(ln net.Listener, addr string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			up, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer up.Close()
			done := make(chan struct{})
			go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); close(done) }()
			io.Copy(c, up)
			<-done
		}()
	}
}

// stateFolders creates the agent's state folders that are missing, so a first run can keep its
// sessions; a name that looks like a file (".claude.json") is shown only when it exists.
func stateFolders(folders []string) []string {
	for _, f := range folders {
		base := filepath.Base(f)
		if _, err := os.Lstat(f); os.IsNotExist(err) && !strings.Contains(strings.TrimPrefix(base, "."), ".") {
			_ = os.MkdirAll(f, 0o700)
		}
	}
	return folders
}

// programFolders are the folders the agent's program needs to run, shown read-only: for the
// program and every argument naming a file, its package (the outermost node_modules holding
// it, else the nearest folder with a package.json), else its own folder, both as named and as
// its links resolve.
func programFolders(paths []string) []string {
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			continue
		}
		names := []string{p}
		if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
			names = append(names, real)
		}
		for _, n := range names {
			out = append(out, packageOf(n))
		}
	}
	return out
}

func packageOf(file string) string {
	if i := strings.Index(file, "/node_modules/"); i >= 0 {
		return file[:i+len("/node_modules")]
	}
	home, _ := os.UserHomeDir()
	for dir := filepath.Dir(file); dir != "/" && dir != home; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
			return dir
		}
	}
	return filepath.Dir(file)
}

// confineKey says under which terms a process runs; a session asking for other terms gets its
// agent restarted (it loads its own session again where it can).
func confineKey(c *external.Confinement) string {
	if c == nil {
		return ""
	}
	b, _ := json.Marshal(c)
	return string(b)
}
