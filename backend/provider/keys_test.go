package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"agentdesk/backend/errs"
)

func TestSaveHasDeleteKey(t *testing.T) {
	if _, ok := HasKey(KindOpenAI, env()); ok {
		t.Fatal("no key yet")
	}
	if err := SaveKey(KindOpenAI, "sk-saved"); err != nil {
		t.Fatal(err)
	}
	if source, ok := HasKey(KindOpenAI, env()); !ok || source != SourceKeyring {
		t.Fatalf("after save: %q %v", source, ok)
	}
	// The environment wins over the keyring.
	if source, ok := HasKey(KindOpenAI, env("OPENAI_API_KEY", "sk-env")); !ok || source != SourceEnv {
		t.Fatalf("with env: %q %v", source, ok)
	}
	if err := DeleteKey(KindOpenAI); err != nil {
		t.Fatal(err)
	}
	if _, ok := HasKey(KindOpenAI, env()); ok {
		t.Fatal("still there after delete")
	}
	if err := DeleteKey(KindOpenAI); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
}

func TestKeyInputIsChecked(t *testing.T) {
	if err := SaveKey(KindOpenAI, "   "); errs.KindOf(err) != errs.InvalidInput {
		t.Fatalf("empty key: %v", err)
	}
	for _, p := range []string{KindScripted, "gemini"} {
		if err := SaveKey(p, "k"); errs.KindOf(err) != errs.InvalidValue {
			t.Fatalf("SaveKey(%q): %v", p, err)
		}
		if _, ok := HasKey(p, env()); ok {
			t.Fatalf("HasKey(%q)", p)
		}
	}
}

// On a machine without a usable keyring, reads mean "no key" and writes fail with a typed error
// that never repeats the key.
func TestBrokenKeyringMeansNoKey(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided by any service files"))
	t.Cleanup(keyring.MockInit)
	if _, ok := HasKey(KindAnthropic, env()); ok {
		t.Fatal("a broken keyring has no key")
	}
	if _, err := New(Config{Kind: KindAnthropic, Getenv: env()}); errs.KindOf(err) != KeyMissing {
		t.Fatalf("New: %v", err)
	}
	err := SaveKey(KindAnthropic, "sk-secret-value")
	if errs.KindOf(err) != KeyringMissing || strings.Contains(err.Error(), "sk-secret-value") {
		t.Fatalf("SaveKey: %v", err)
	}
	if errs.KindOf(DeleteKey(KindAnthropic)) != KeyringMissing {
		t.Fatal("DeleteKey should report the missing keyring")
	}
}

// No D-Bus session to reach a keyring through is KEYRING_MISSING, naming the variable the key
// may be set in instead; a keyring that is there but refuses stays KEYRING_UNAVAILABLE.
func TestNoKeyringServiceIsTyped(t *testing.T) {
	t.Cleanup(keyring.MockInit)
	keyring.MockInitWithError(errors.New(`exec: "dbus-launch": executable file not found in $PATH`))
	e := errs.As(SaveKey(KindOpenAI, "sk-x"))
	if e.Kind != KeyringMissing || e.Args["Env"] != "OPENAI_API_KEY" || e.Args["Provider"] != KindOpenAI {
		t.Fatalf("no D-Bus: %+v", e)
	}
	keyring.MockInitWithError(errors.New("the collection is locked"))
	if kind := errs.KindOf(SaveKey(KindOpenAI, "sk-x")); kind != KeyringFailed {
		t.Fatalf("a locked keyring: %s", kind)
	}
}
