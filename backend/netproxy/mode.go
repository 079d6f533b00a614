package netproxy

import "net/http"

// Mode is how much network a session's commands get through the proxy.
type Mode string

const (
	// Off refuses everything.
	Off Mode = "off"
	// ReadOnly lets through only forward requests that read (GET, HEAD, OPTIONS), the model of
	// Codex's "limited" mode. CONNECT is refused: inside the TLS tunnel the proxy cannot see
	// whether a request reads or writes.
	ReadOnly Mode = "read-only"
	// Full lets through every request to an approved host.
	Full Mode = "full"
)

// Modes lists every mode, in the order of increasing access.
var Modes = []Mode{Off, ReadOnly, Full}

// effective fails closed: a value that is not a known mode (a typo, a newer setting read by an
// older build) acts as Off.
func (m Mode) effective() Mode {
	switch m {
	case ReadOnly, Full:
		return m
	}
	return Off
}

// readsOnly reports whether a forward request's method cannot change anything on the server,
// by HTTP's definition of safe methods.
func readsOnly(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}
