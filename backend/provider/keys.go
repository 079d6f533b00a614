package provider

import (
	"errors"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/zalando/go-keyring"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// KeyringService is the OS keyring service that holds the API keys; the keyring user is the
// provider kind ("anthropic", "openai").
const KeyringService = "agentdesk"

// Where HasKey found a key.
const (
	SourceEnv     = "env"
	SourceKeyring = "keyring"
)

// keyEnv names the environment variable of each provider that needs a key.
var keyEnv = map[string]string{
	KindAnthropic: "ANTHROPIC_API_KEY",
	KindOpenAI:    "OPENAI_API_KEY",
}

// keyringTimeout bounds a keyring read. A locked keyring on a machine with no one to unlock it
// can block forever; a headless `agentdesk run` must fail with "no key" instead of hanging.
var keyringTimeout = 10 * time.Second

// SaveKey stores provider's API key in the OS keyring.
func SaveKey(provider, key string) error {
	if err := checkKeyed(provider); err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return errs.New(errs.InvalidInput, "Field", "key")
	}
	if err := keyring.Set(KeyringService, provider, key); err != nil {
		return keyringFailure(provider, err, key)
	}
	return nil
}

// HasKey reports whether provider has a key and where it comes from (SourceEnv or
// SourceKeyring). It never returns the key itself. A keyring that cannot be read counts as no key.
func HasKey(provider string, getenv func(string) string) (source string, ok bool) {
	_, source, ok = findKey(provider, getenv)
	return source, ok
}

// DeleteKey removes provider's key from the OS keyring; deleting a key that is not there is
// not an error.
func DeleteKey(provider string) error {
	if err := checkKeyed(provider); err != nil {
		return err
	}
	err := keyring.Delete(KeyringService, provider)
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return keyringFailure(provider, err, "")
	}
	return nil
}

// findKey looks in the environment first, then the keyring.
func findKey(provider string, getenv func(string) string) (key, source string, ok bool) {
	env, keyed := keyEnv[provider]
	if !keyed {
		return "", "", false
	}
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if key = strings.TrimSpace(getenv(env)); key != "" {
		return key, SourceEnv, true
	}
	if key, ok = keyringGet(provider); ok {
		return key, SourceKeyring, true
	}
	return "", "", false
}

// keyringGet reads a key, treating every failure (no keyring service, locked, timed out, even a
// panic inside the keyring library) as "no key".
func keyringGet(provider string) (string, bool) {
	got := make(chan string, 1)
	go func() {
		defer func() {
			if recover() != nil {
				got <- ""
			}
		}()
		key, err := keyring.Get(KeyringService, provider)
		if err != nil {
			key = ""
		}
		got <- strings.TrimSpace(key)
	}()
	select {
	case key := <-got:
		return key, key != ""
	case <-time.After(keyringTimeout):
		return "", false
	}
}

func checkKeyed(provider string) error {
	if _, ok := keyEnv[provider]; !ok {
		return errs.Invalid("provider", provider, []string{KindAnthropic, KindOpenAI})
	}
	return nil
}

func keyMissing(provider string) error {
	return errs.New(llm.KeyMissing, "Provider", provider, "Env", keyEnv[provider],
		"Service", KeyringService, "User", provider)
}

func keyringFailure(provider string, err error, key string) error {
	detail := llm.Redact(err.Error(), key)
	if noKeyringService(detail) {
		return errs.New(llm.KeyringMissing, "Provider", provider, "Env", keyEnv[provider], "Detail", detail)
	}
	return errs.New(llm.KeyringFailed, "Provider", provider, "Detail", detail)
}

// noKeyringService reports a keyring error that means no keyring runs here at all: no D-Bus
// session to reach one (`exec: "dbus-launch": executable file not found`, no bus address), or
// no Secret Service on it (org.freedesktop.secrets not provided).
func noKeyringService(detail string) bool {
	d := strings.ToLower(detail)
	for _, sign := range []string{"dbus-launch", "org.freedesktop.secrets", "dbus_session_bus_address", "serviceunknown", "autolaunch", "secret service"} {
		if strings.Contains(d, sign) {
			return true
		}
	}
	return false
}

// isLoopback reports whether base points at this machine, where a local model server needs no key.
func isLoopback(base string) bool {
	u, err := url.Parse(base)
	if base == "" || err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
