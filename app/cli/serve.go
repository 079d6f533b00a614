package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"agentdesk/app"
	"agentdesk/backend/provider"
)

func runServe(c *Context, args []string) int {
	fs := c.flags("serve")
	addr := fs.String("addr", "127.0.0.1:8765", c.T("cli.flag.addr"))
	fs.String("provider", "", c.T("cli.flag.serveProvider"))
	fs.String("script", "", c.T("cli.flag.script"))
	fs.String("record", "", c.T("cli.flag.record"))
	fs.String("model", "", c.T("cli.flag.model"))
	fs.String("base-url", "", c.T("cli.flag.baseURL"))
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	override, err := c.providerOverride(fs)
	if err != nil {
		return c.exitFor(err)
	}
	svc, closeServices, err := c.openServices(override)
	if err != nil {
		return c.exitFor(err)
	}
	defer closeServices()
	srv, err := app.Listen(svc, *addr, c.Assets)
	if err != nil {
		return c.exitFor(err)
	}
	fmt.Fprintln(c.Stdout, c.T("cli.serve.listening", "URL", srv.URL()))
	fmt.Fprintln(c.Stdout, c.T("cli.serve.tokenHint"))
	if f, ok := c.Stdout.(*os.File); ok {
		f.Sync()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := srv.Serve(ctx); err != nil {
		return c.exitFor(err)
	}
	return ExitOK
}

// providerOverride is the provider named on the command line, which then replaces the Settings
// provider for every turn (tests and scripted demos use it).
func (c *Context) providerOverride(fs *flag.FlagSet) (*provider.Config, error) {
	kind := fs.Lookup("provider").Value.String()
	script := fs.Lookup("script").Value.String()
	if kind == "" && script != "" {
		kind = provider.KindScripted
	}
	if kind == "" {
		return nil, nil
	}
	return &provider.Config{Kind: kind, Model: fs.Lookup("model").Value.String(), BaseURL: fs.Lookup("base-url").Value.String(),
		ScriptPath: script, RecordPath: fs.Lookup("record").Value.String(), Getenv: c.Getenv}, nil
}
