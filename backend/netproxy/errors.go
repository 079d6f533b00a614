package netproxy

import "agentdesk/backend/errs"

// Error kinds of this package. Each has an "error.<KIND>" message in locales/netproxy.*.json;
// the proxy also renders it in English as the one-line body of its refusal, which is what a
// command's stderr (and so the model) sees. Never rename one: tests and scripts assert them.
const (
	// NotApproved: the host (and port) is not approved for the session. Args: Host, Port.
	NotApproved errs.Kind = "PROXY_NOT_APPROVED"
	// AddressForbidden: the host is or resolves to an address commands may never reach.
	// Args: Host, Address, Class.
	AddressForbidden errs.Kind = "PROXY_ADDRESS_FORBIDDEN"
	// NetworkOff: the session's network mode is off. Args: Host.
	NetworkOff errs.Kind = "PROXY_NETWORK_OFF"
	// ReadOnlyMethod: a read-only session's request that could change something. Args: Method, Host.
	ReadOnlyMethod errs.Kind = "PROXY_READ_ONLY_METHOD"
	// ReadOnlyTunnel: a read-only session's CONNECT, whose methods the proxy cannot see. Args: Host.
	ReadOnlyTunnel errs.Kind = "PROXY_READ_ONLY_TUNNEL"
	// ResolveFailed: the approved name has no address. Args: Host, Problem.
	ResolveFailed errs.Kind = "PROXY_RESOLVE_FAILED"
	// DialFailed: no connection to the approved, checked address. Args: Host, Problem.
	DialFailed errs.Kind = "PROXY_DIAL_FAILED"
	// BadRequest: not a request a proxy can serve. Args: Problem.
	BadRequest errs.Kind = "PROXY_BAD_REQUEST"
	// FolderNotPrivate: the socket's folder is reachable by other users. Args: Folder.
	FolderNotPrivate errs.Kind = "PROXY_FOLDER_NOT_PRIVATE"
	// ListenFailed: the socket could not be created. Args: Path, Problem.
	ListenFailed errs.Kind = "PROXY_LISTEN_FAILED"
	// Declined: the person (or a deny rule, or no one being there to ask) refused the host.
	// Args: Host.
	Declined errs.Kind = "PROXY_DECLINED"
	// InvalidPattern: an allowlist entry that is not a host, *.domain or host:port. Args: Pattern.
	InvalidPattern errs.Kind = "PROXY_INVALID_PATTERN"
)

// Kinds lists every kind above, for the test that checks each has a message in every language.
var Kinds = []errs.Kind{NotApproved, AddressForbidden, NetworkOff, ReadOnlyMethod, ReadOnlyTunnel,
	ResolveFailed, DialFailed, BadRequest, FolderNotPrivate, ListenFailed, InvalidPattern, Declined}
