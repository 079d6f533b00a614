package llm

import (
	"strings"

	"agentdesk/backend/errs"
)

// Error kinds of the providers. The UI translates "error." + kind (locales/provider.*.json);
// tests assert them. Never rename one.
const (
	// KeyMissing: no API key in the environment or the OS keyring. Args: Provider, Env, Service, User.
	KeyMissing errs.Kind = "PROVIDER_KEY_MISSING"
	// HTTPFailed: the vendor answered with an error status. Args: Provider, Status, Message.
	HTTPFailed errs.Kind = "PROVIDER_HTTP"
	// StreamFailed: the response stream broke or carried an error event. Args: Provider, Message.
	StreamFailed errs.Kind = "PROVIDER_STREAM"
	// Unreachable: no HTTP answer at all (refused, DNS, TLS). Args: Provider, Detail.
	Unreachable errs.Kind = "PROVIDER_UNREACHABLE"
	// ScriptExhausted: a scripted provider was asked for more responses than its file has.
	// Args: File, Count.
	ScriptExhausted errs.Kind = "SCRIPT_EXHAUSTED"
	// ScriptInvalid: a script file could not be read or parsed. Args: File, Detail.
	ScriptInvalid errs.Kind = "SCRIPT_INVALID"
	// RecordFailed: the --record file could not be written. Args: Path, Detail.
	RecordFailed errs.Kind = "RECORD_FAILED"
	// KeyringFailed: the OS keyring refused to store or delete a key. Args: Provider, Detail.
	KeyringFailed errs.Kind = "KEYRING_UNAVAILABLE"
	// KeyringMissing: no keyring service runs on this system (no Secret Service on a D-Bus
	// session, as on a bare Linux desktop or a server), so no key can be kept there. Args:
	// Provider, Env (the variable the key may be set in instead), Detail.
	KeyringMissing errs.Kind = "KEYRING_MISSING"
	// ContextOverflow: the model refused the request as longer than its context window; the
	// runtime summarises the conversation and tries once more. Args: Provider, Message.
	ContextOverflow errs.Kind = "PROVIDER_CONTEXT_OVERFLOW"
)

// ErrorKinds lists every kind above, for tests that check each has a message in every locale.
var ErrorKinds = []errs.Kind{
	KeyMissing, HTTPFailed, StreamFailed, Unreachable, ScriptExhausted, ScriptInvalid,
	RecordFailed, KeyringFailed, KeyringMissing, ContextOverflow,
}

// Redact removes secret from s, so a vendor or transport message that echoes the API key never
// reaches an error, a log or a record.
func Redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}

// StreamError reports a broken stream or an error event from provider.
func StreamError(provider, message, secret string) *errs.Error {
	return errs.New(StreamFailed, "Provider", provider, "Message", Redact(message, secret))
}

// HTTPError reports an error status from provider with the vendor's message.
func HTTPError(provider string, status int, message, secret string) *errs.Error {
	return errs.New(HTTPFailed, "Provider", provider, "Status", status, "Message", Redact(message, secret))
}

// UnreachableError reports a request that got no HTTP answer.
func UnreachableError(provider string, err error, secret string) *errs.Error {
	return errs.New(Unreachable, "Provider", provider, "Detail", Redact(err.Error(), secret))
}
