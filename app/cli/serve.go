package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"agentdesk/app"
)

func runServe(c *Context, args []string) int {
	fs := c.flags("serve")
	addr := fs.String("addr", "127.0.0.1:8765", c.T("cli.flag.addr"))
	if code, ok := c.parse(fs, args); !ok {
		return code
	}
	svc, closeStore, err := c.openServices()
	if err != nil {
		return c.exitFor(err)
	}
	defer closeStore()
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
