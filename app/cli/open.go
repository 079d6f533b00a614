package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"agentdesk/app"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// openServices opens the store in the data folder and wires the facades over it. The returned
// close ends them in order (turns, external agents, subscribers, store: host.Host.Close).
func (c *Context) openServices(override *provider.Config) (*app.Services, func(), error) {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return nil, nil, err
	}
	svc, err := app.NewServices(st, c.msgs, app.Options{Info: app.Info{Version: Version, DataDir: c.DataDir, LaunchFolder: c.Folder},
		EnvLang: c.lang, Getenv: c.Getenv, Provider: override})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, func() {
		ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
		defer cancel()
		if err := svc.Close(ctx); err != nil {
			fmt.Fprintln(c.Stderr, err)
		}
	}, nil
}

// absPath makes a path absolute against the working directory, so a session never depends on
// where the command was run.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
