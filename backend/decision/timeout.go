package decision

import (
	"strings"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// SettingTimeout is the settings key of how long a decision waits for its answer (R-DEC-5).
const SettingTimeout = "decision-timeout"

// NoTimeout means a decision waits for the person however long that takes. It is the default:
// stepping away from the window must not decline a question or a plan behind the person's back.
// A headless run without a terminal does not wait at all — it declines at once — so nothing
// hangs where no one can answer.
const NoTimeout time.Duration = 0

// Never is how NoTimeout is written in the setting, the CLI and the Settings page.
const Never = "never"

// Timeout bounds. Below the minimum a person cannot read an approval before it expires; above
// the maximum a forgotten decision would hold its turn open for days (use never for that).
const (
	DefaultTimeout = NoTimeout
	MinTimeout     = 10 * time.Second
	MaxTimeout     = 24 * time.Hour
)

// timeoutRange is shown in the INVALID_VALUE message; it names the choices.
const timeoutRange = "never, or 10s–24h"

// ParseTimeout reads a decision-timeout value: never, or a Go duration such as "90s" or "10m"
// within MinTimeout and MaxTimeout.
func ParseTimeout(s string) (time.Duration, error) {
	v := strings.TrimSpace(s)
	if strings.EqualFold(v, Never) {
		return NoTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < MinTimeout || d > MaxTimeout {
		return 0, errs.New(errs.InvalidValue, "Field", SettingTimeout, "Value", s, "Allowed", timeoutRange)
	}
	return d, nil
}

// FormatTimeout writes a timeout as ParseTimeout reads it: never, or a whole-second duration.
func FormatTimeout(d time.Duration) string {
	if d <= 0 {
		return Never
	}
	return d.Round(time.Second).String()
}

// TimeoutSetting reads decision-timeout from the settings at every ask, so a change applies to
// the next decision without a restart. Unset reads as the default (no timeout); so does a stored
// value that no longer parses, since writes go through ParseTimeout and only damage gets here.
func TimeoutSetting(st Settings) func() time.Duration {
	return func() time.Duration { return store.SettingOr(st, SettingTimeout, ParseTimeout, DefaultTimeout) }
}
