package decision

import (
	"strings"
	"testing"
	"time"

	"agentdesk/backend/errs"
)

func TestParseTimeout(t *testing.T) {
	good := map[string]time.Duration{"10m": 10 * time.Minute, "90s": 90 * time.Second, " 1h30m ": 90 * time.Minute,
		"10s": MinTimeout, "24h": MaxTimeout, "never": NoTimeout, " Never ": NoTimeout}
	for in, want := range good {
		if got, err := ParseTimeout(in); err != nil || got != want {
			t.Errorf("ParseTimeout(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "10", "9s", "24h0m1s", "-5m", "0s", "ten minutes", "10 m"} {
		_, err := ParseTimeout(in)
		e := errs.As(err)
		if e.Kind != errs.InvalidValue || e.Args["Value"] != in || e.Args["Field"] != SettingTimeout {
			t.Errorf("ParseTimeout(%q): %v", in, err)
		}
		if allowed, _ := e.Args["Allowed"].(string); !strings.Contains(allowed, "10s") || !strings.Contains(allowed, "24h") || !strings.Contains(allowed, Never) {
			t.Errorf("the error must name the range: %v", err)
		}
	}
}

func TestFormatTimeoutReadsBack(t *testing.T) {
	for _, d := range []time.Duration{NoTimeout, MinTimeout, 90 * time.Second, 10 * time.Minute, MaxTimeout} {
		if got, err := ParseTimeout(FormatTimeout(d)); err != nil || got != d {
			t.Errorf("%v: formatted %q, read back %v, %v", d, FormatTimeout(d), got, err)
		}
	}
	if FormatTimeout(NoTimeout) != "never" {
		t.Errorf("no timeout is written %q", FormatTimeout(NoTimeout))
	}
}

// The setting is read at every ask; unset or damaged reads as the default, which is to wait.
func TestTimeoutSettingIsReadAtEveryAsk(t *testing.T) {
	g := newRig(t, Options{})
	read := TimeoutSetting(g.st)
	if got := read(); got != NoTimeout || DefaultTimeout != NoTimeout {
		t.Fatalf("unset: %v", got)
	}
	g.st.SetSetting(SettingTimeout, "90s")
	if got := read(); got != 90*time.Second {
		t.Fatalf("set: %v", got)
	}
	g.st.SetSetting(SettingTimeout, "forever")
	if got := read(); got != DefaultTimeout {
		t.Fatalf("damaged: %v", got)
	}
	g.st.SetSetting(SettingTimeout, "never")
	if got := read(); got != NoTimeout {
		t.Fatalf("never: %v", got)
	}
	reg := New(g.st, nil, Options{Timeout: func() time.Duration { return -time.Second }})
	if reg.wait() != NoTimeout {
		t.Fatal("a negative timeout must mean no timeout")
	}
}
