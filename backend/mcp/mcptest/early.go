package mcptest

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// EarlyNoticeEnv, set to "1", makes the stdio fixture announce tools/list_changed before it
// answers initialize and again right after, as some servers do while they register tools: the
// client must not act on the notice before its session exists.
const EarlyNoticeEnv = "MCP_FIXTURE_EARLY_NOTICE"

// EarlyNotice wraps a transport so the first response the server sends (initialize's) is
// preceded and followed by a tools/list_changed notification.
type EarlyNotice struct{ mcp.Transport }

func (e EarlyNotice) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := e.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &earlyConn{Connection: c}, nil
}

type earlyConn struct {
	mcp.Connection
	once sync.Once
}

func (c *earlyConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	first := false
	if _, ok := msg.(*jsonrpc.Response); ok {
		c.once.Do(func() { first = true })
	}
	if !first {
		return c.Connection.Write(ctx, msg)
	}
	notice := &jsonrpc.Request{Method: "notifications/tools/list_changed"}
	if err := c.Connection.Write(ctx, notice); err != nil {
		return err
	}
	if err := c.Connection.Write(ctx, msg); err != nil {
		return err
	}
	return c.Connection.Write(ctx, notice)
}
