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

// closeGrace bounds how long a command waits at its end for cancelled turns to stop.
const closeGrace = 10 * time.Second

// newHeadless is the runtime of a command without a window (run, acp), from the one
// composition root. It does not mark other processes' turns interrupted: only the app that
// owns the data folder does that at start. The host owns st from here on.
func (c *Context) newHeadless(st *store.Store, prov agent.ProviderSource, logw io.Writer) (*host.Host, error) {
	h, err := host.New(st, host.Options{Provider: prov, Messages: c.msgs, DataDir: c.DataDir, Log: logw,
		Getenv: c.Getenv, Version: Version})
	if err == nil && h.CheckpointErr != nil {
		fmt.Fprintln(logw, c.msgs.Error(c.lang, h.CheckpointErr)) // the turn runs, without checkpoints
	}
	return h, err
}

// closeHost ends a command's runtime in order: turns, external agents, subscribers, store.
func closeHost(h *host.Host) error {
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	return h.Close(ctx)
}
