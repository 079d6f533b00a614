//go:build linux

package sandbox

import (
	"io"
	"net"
	"path/filepath"
	"strconv"
	"sync"
)

// ProxyPort is where a namespaced command finds AgentDesk's network proxy: a bridge the helper
// runs on the namespace's own loopback, forwarding each connection to the proxy's Unix socket
// outside (Policy.ProxySocket). The namespace has no other way out.
const ProxyPort = 3128

// proxyEnv points the usual proxy variables of curl, git, pip, npm and Go at the bridge. With
// localNet, loopback bypasses the proxy: the command's own servers and the host's local services
// bridged in (Policy.LocalPorts) are there.
func proxyEnv(env []string, localNet bool) []string {
	url := "http://127.0.0.1:" + strconv.Itoa(ProxyPort)
	for _, name := range []string{"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy",
		"npm_config_proxy", "npm_config_https_proxy"} {
		env = append(without(env, name+"="), name+"="+url)
	}
	for _, name := range []string{"ALL_PROXY", "all_proxy"} {
		env = append(without(env, name+"="), name+"=socks5h://127.0.0.1:"+strconv.Itoa(ProxyPort))
	}
	noProxy := ""
	if localNet {
		noProxy = "localhost,127.0.0.1,::1"
	}
	for _, name := range []string{"NO_PROXY", "no_proxy"} {
		env = append(without(env, name+"="), name+"="+noProxy)
	}
	return env
}

// startBridge listens on the namespace's loopback and forwards every connection to socket. It
// runs on the helper's other threads, which Landlock does not confine (only the shell's thread
// is); the namespace is what confines them. It ends with the helper.
func startBridge(port int, socket string) error {
	ln, err := net.Listen("tcp4", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return err
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go forward(c, socket)
		}
	}()
	return nil
}

func forward(c net.Conn, socket string) {
	defer c.Close()
	up, err := net.Dial("unix", socket)
	if err != nil {
		return
	}
	defer up.Close()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(up, c)
		if u, ok := up.(*net.UnixConn); ok {
			_ = u.CloseWrite()
		}
	}()
	_, _ = io.Copy(c, up)
	if t, ok := c.(*net.TCPConn); ok {
		_ = t.CloseWrite()
	}
	wg.Wait()
}

// proxyFolder is the folder holding the proxy's socket, shown inside the namespace.
func proxyFolder(socket string) string { return filepath.Dir(socket) }
