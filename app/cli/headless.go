package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"agentdesk/backend/agent"
	"agentdesk/backend/host"
	"agentdesk/backend/store"
)

// closeGrace bounds how long a command waits at its end for cancelled turns to stop. A
// variable so a test can let a turn outlive it.
var closeGrace = 10 * time.Second

// withHost runs a command without a window (run, acp) over the one composition root. It takes
// st over: st is closed here when the host cannot be built, and by the host's Close otherwise —
// never by the command, because a host whose turns outlive closeGrace leaves the store open
// under them (host.ErrBusy). It does not mark other processes' turns interrupted: only the app
// that owns the data folder does that at start.
func (c *Context) withHost(st *store.Store, prov agent.ProviderSource, logw io.Writer, fn func(*host.Host) int) int {
	h, err := host.New(st, host.Options{Provider: prov, Messages: c.msgs, DataDir: c.DataDir, Log: logw,
		Getenv: c.Getenv, Version: Version})
	if err != nil {
		st.Close()
		return c.exitFor(err)
	}
	if h.CheckpointErr != nil {
		fmt.Fprintln(logw, c.msgs.Error(c.lang, h.CheckpointErr)) // the turn runs, without checkpoints
	}
	defer closeHost(h, logw)
	return fn(h)
}

// closeHost ends a command's runtime in order: turns, external agents, subscribers, store. What
// it could not stop is said on logw, since the exit code is already decided.
func closeHost(h *host.Host, logw io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	if err := h.Close(ctx); err != nil {
		fmt.Fprintln(logw, err)
	}
}
