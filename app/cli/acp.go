package cli

import (
	"context"
	"flag"
	"io"
	"os"
	"os/signal"
	"syscall"

	"agentdesk/backend/acp/server"
	"agentdesk/backend/host"
	"agentdesk/backend/policy"
)

// runACP is `agentdesk acp`: AgentDesk as an Agent Client Protocol agent on stdin/stdout, for
// Zed and other editors (R-ACP-1). Stdout is the protocol; diagnostics go to stderr, or to
// the --log file.
func runACP(c *Context, args []string) int {
	fs := c.flags("acp")
	fs.String("provider", "", c.T("cli.flag.provider"))
	fs.String("script", "", c.T("cli.flag.script"))
	fs.String("record", "", c.T("cli.flag.record"))
	fs.String("model", "", c.T("cli.flag.model"))
	fs.String("base-url", "", c.T("cli.flag.baseURL"))
	fs.String("permission", "", c.T("cli.flag.permission"))
	logPath := fs.String("log", "", c.T("cli.flag.acpLog"))
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	if perm := flagValue(fs, "permission"); perm != nil {
		if _, err := policy.ParsePermission(*perm); err != nil {
			return c.exitFor(err)
		}
	}
	logw := c.Stderr
	if *logPath != "" {
		f, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return c.exitFor(err)
		}
		defer f.Close()
		logw = f
	}
	st, prov, err := c.openForTurns(fs)
	if err != nil {
		return c.exitFor(err)
	}
	return c.withHost(st, prov, logw, func(h *host.Host) int {
		return c.serveACP(fs, h, logw)
	})
}

// serveACP speaks ACP until the editor hangs up or a signal ends the command.
func (c *Context) serveACP(fs *flag.FlagSet, h *host.Host, logw io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	in := c.Stdin
	if in == nil {
		in = eofReader{}
	}
	opts := server.Options{Store: h.Store, Runtime: h.Runtime, Decisions: h.Decisions, Bus: h.Bus, Messages: c.msgs, Lang: c.lang,
		Version: Version, Log: logw, Permission: flagValue(fs, "permission"), MCP: h.MCP}
	if err := server.Serve(ctx, opts, in, c.Stdout); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
