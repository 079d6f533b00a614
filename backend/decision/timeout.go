package decision

import (
	"strings"
	"time"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// SettingTimeout is the settings key of how long a decision waits for its answer (R-DEC-5).
const SettingTimeout = "decision-timeout"

// Timeout bounds. Below the minimum a person cannot read an approval before it expires; above
// the maximum a forgotten decision would hold its turn open for days.
const (
	DefaultTimeout = 10 * time.Minute
	MinTimeout     = 10 * time.Second
	MaxTimeout     = 24 * time.Hour
)

// timeoutRange is shown in the INVALID_VALUE message; it names MinTimeout and MaxTimeout.
const timeoutRange = "10s–24h"

// ParseTimeout reads a decision-timeout value: a Go duration such as "90s" or "10m", within
// MinTimeout and MaxTimeout.
func ParseTimeout(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < MinTimeout || d > MaxTimeout {
		return 0, errs.New(errs.InvalidValue, "Field", SettingTimeout, "Value", s, "Allowed", timeoutRange)
	}
	return d, nil
}

// TimeoutSetting reads decision-timeout from the settings at every ask, so a change applies to
// the next decision without a restart. Unset reads as the default; so does a stored value that
// no longer parses, since writes go through ParseTimeout and only damage gets here.
func TimeoutSetting(st *store.Store) func() time.Duration {
	return func() time.Duration {
		raw, ok, err := st.GetSetting(SettingTimeout)
		if err != nil || !ok {
			return DefaultTimeout
		}
		d, err := ParseTimeout(raw)
		if err != nil {
			return DefaultTimeout
		}
		return d
	}
}
