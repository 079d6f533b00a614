package mcp

import "agentdesk/backend/errs"

// Error kinds of this package. Each has an "error.<KIND>" message in locales/mcp.*.json; the
// English one is what the model reads as the call's error. Never rename one.
const (
	// ServerCrashed: the server process ended (or its connection broke) during the call. It is
	// started again at the next call. Args: Server, Problem.
	ServerCrashed errs.Kind = "MCP_SERVER_CRASHED"
	// ServerUnavailable: the server could not be started or reached. Args: Server, Problem.
	ServerUnavailable errs.Kind = "MCP_SERVER_UNAVAILABLE"
	// ToolChanged: the tool's definition differs from the one the person approved; it stays
	// off until they approve the change. Args: Server, Tool.
	ToolChanged errs.Kind = "MCP_TOOL_CHANGED"
	// ToolNotApproved: the server lists a tool the person never approved. Args: Server, Tool.
	ToolNotApproved errs.Kind = "MCP_TOOL_NOT_APPROVED"
	// ToolOff: the person switched the tool, or its server, off. Args: Server, Tool.
	ToolOff errs.Kind = "MCP_TOOL_OFF"
	// ToolGone: the server no longer lists the tool. Args: Server, Tool.
	ToolGone errs.Kind = "MCP_TOOL_GONE"
	// CallFailed: the server answered the call with a protocol error. Args: Server, Tool, Problem.
	CallFailed errs.Kind = "MCP_CALL_FAILED"
	// ImportNotConfirmed: a workspace's .mcp.json is imported only after the person confirms.
	// Args: Path.
	ImportNotConfirmed errs.Kind = "MCP_IMPORT_NOT_CONFIRMED"
	// CommandNotFound: a stdio server's program is not installed, or not on PATH. Args: Server,
	// Command.
	CommandNotFound errs.Kind = "MCP_COMMAND_NOT_FOUND"
	// ServerUnreachable: nothing answered at an HTTP server's address (refused, no such host,
	// no route). Args: Server, URL.
	ServerUnreachable errs.Kind = "MCP_SERVER_UNREACHABLE"
	// ServerRefused: an HTTP server answered with an error status. Args: Server, URL, Status
	// (the code and its text).
	ServerRefused errs.Kind = "MCP_SERVER_REFUSED"
	// ServerUnauthorized: an HTTP server answered 401 or 403. Args: Server, URL, Status.
	ServerUnauthorized errs.Kind = "MCP_SERVER_UNAUTHORIZED"
	// ServerSilent: the server did not finish starting in time. Args: Server, Seconds.
	ServerSilent errs.Kind = "MCP_SERVER_SILENT"
	// LogUnreadable: a server's log file could not be read. Args: Path, Problem.
	LogUnreadable errs.Kind = "MCP_LOG_UNREADABLE"
)

// Kinds lists every kind above, for the test that checks each has a message in every language.
var Kinds = []errs.Kind{ServerCrashed, ServerUnavailable, ToolChanged, ToolNotApproved, ToolOff, ToolGone, CallFailed,
	ImportNotConfirmed, CommandNotFound, ServerUnreachable, ServerRefused, ServerUnauthorized, ServerSilent, LogUnreadable}
