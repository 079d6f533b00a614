package cli

import (
	"path/filepath"

	"agentdesk/app"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// openServices opens the store in the data folder and wires the facades over it.
func (c *Context) openServices(override *provider.Config) (*app.Services, func(), error) {
	st, err := store.Open(c.DataDir)
	if err != nil {
		return nil, nil, err
	}
	svc, err := app.NewServices(st, c.msgs, app.Options{Info: app.Info{Version: Version, DataDir: c.DataDir},
		EnvLang: c.lang, Getenv: c.Getenv, Provider: override})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return svc, func() { st.Close() }, nil
}

// OpenDesktop opens the store and the window; main passes it as Env.Desktop.
func OpenDesktop(c *Context) error {
	svc, closeStore, err := c.openServices(nil)
	if err != nil {
		return err
	}
	defer closeStore()
	return app.RunWindow(svc, c.Assets)
}

// absPath makes a path absolute against the working directory, so a session never depends on
// where the command was run.
func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}
