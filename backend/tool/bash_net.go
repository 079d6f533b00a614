package tool

import (
	"context"
	"os"
	"path/filepath"

	"agentdesk/backend/netproxy"
	"agentdesk/backend/sandbox"
)

// AnyPublicHost is the proxy policy of a command the person let reach the network: any host
// whose addresses are public (the proxy refuses loopback, private, link-local and metadata
// addresses whatever the policy says).
func AnyPublicHost(context.Context, string, int) netproxy.Verdict { return netproxy.Approve() }

// startProxy serves the command's network proxy on a socket in a private folder, where the
// sandbox gives commands a network namespace of their own and the call has a proxy policy. The
// returned stop closes it and removes the folder; socket is "" when there is no proxy.
func startProxy(opts ShellOptions) (socket string, stop func(), err error) {
	if opts.Proxy == nil || opts.Unsandboxed || !sandbox.Status().Namespaces {
		return "", func() {}, nil
	}
	dir, err := os.MkdirTemp("", "agentdesk-net-*")
	if err != nil {
		return "", nil, err
	}
	p, err := netproxy.Listen(filepath.Join(dir, "proxy.sock"), *opts.Proxy)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return p.Path(), func() { p.Close(); os.RemoveAll(dir) }, nil
}
