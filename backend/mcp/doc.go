// Package mcp hosts the Model Context Protocol servers the person configured, with the official
// Go SDK, and serves their tools to the agent behind the same gate as the built-in ones.
//
// Transports: stdio (a child process under the shell's kernel sandbox, in its own process
// group; process.go says what it may touch) and Streamable HTTP. Servers are configured for
// every workspace or for one; a workspace's .mcp.json is imported only after the person
// confirms (importfile.go).
//
// Pinning: enabling a server lists its tools and pins each one's title, description, input
// schema and annotations as the person's approval (def.go). Every later listing, at a restart or
// after the server announces a change, is compared with the pins: a tool that changed, or that
// appeared later, is off until the person reviews the diff and approves it; Run checks again on
// the live listing right before each call.
//
// Calls: each MCP tool is a tool.Served the agent offers by the mode's profile (the MCP column)
// and decides with policy.Evaluate as the kind "mcp" with its server and tool names. A server's
// elicitations reach the person as decisions through tool.Env.Elicit. Results are capped like
// the built-in tools'. A server that crashes fails the call with MCP_SERVER_CRASHED and starts
// again at the next call.
package mcp
