package mode

import (
	"testing"

	"agentdesk/backend/errs"
)

func TestDecodePreferenceFoldsRetiredSpellings(t *testing.T) {
	cases := []struct {
		interaction, override string
		want                  Preference
	}{
		{"agent", "", Preference{Interaction: Smart}},
		{"chat", "", Preference{Interaction: Chat}},
		{"read-only", "", Preference{Interaction: Smart, Override: Analyze}},
		{"plan", "", Preference{Interaction: Smart, Override: Plan}},
		{"smart", "", Preference{Interaction: Smart}},
		{"agent", "debug", Preference{Interaction: Smart, Override: Debug}},
		{"read-only", "execute", Preference{Interaction: Smart, Override: Analyze}},
	}
	for _, c := range cases {
		d := DecodePreference(c.interaction, c.override)
		if d.Preference != c.want || !d.Recognized() {
			t.Errorf("DecodePreference(%q, %q) = %+v, want %+v recognized", c.interaction, c.override, d, c.want)
		}
	}
}

func TestDecodePreferenceCanonicalValuesPass(t *testing.T) {
	for _, o := range append([]Override{None}, Overrides...) {
		d := DecodePreference("smart", string(o))
		if d.Preference != (Preference{Interaction: Smart, Override: o}) || !d.Recognized() {
			t.Errorf("smart + %q decoded as %+v", o, d)
		}
	}
}

func TestDecodePreferenceFailsClosed(t *testing.T) {
	cases := []struct {
		name, interaction, override string
		want                        Preference
		field, raw                  string
	}{
		{"unknown interaction reads as smart · analyze", "yolo", "", readOnlySurface, "interaction_mode", "yolo"},
		{"unknown interaction ignores a wide override", "bypass", "execute", readOnlySurface, "interaction_mode", "bypass"},
		{"empty interaction reads as smart · analyze", "", "", readOnlySurface, "interaction_mode", ""},
		{"wrong case is not folded", "Smart", "", readOnlySurface, "interaction_mode", "Smart"},
		{"unknown override reads as analyze", "smart", "agent", readOnlySurface, "execution_override", "agent"},
		{"chat with an override reads as chat", "chat", "execute", Preference{Interaction: Chat}, "execution_override", "execute"},
		{"chat with garbage reads as chat", "chat", "???", Preference{Interaction: Chat}, "execution_override", "???"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := DecodePreference(c.interaction, c.override)
			if d.Preference != c.want {
				t.Fatalf("read as %+v, want %+v", d.Preference, c.want)
			}
			if len(d.Unrecognized) != 1 || d.Unrecognized[0] != (Unrecognized{Field: c.field, Raw: c.raw}) {
				t.Fatalf("unrecognized = %+v, want %s=%q", d.Unrecognized, c.field, c.raw)
			}
		})
	}
}

func TestDecodeExecutionMode(t *testing.T) {
	for _, m := range ExecutionModes {
		if got, ok := DecodeExecutionMode(string(m)); got != m || !ok {
			t.Errorf("%s decoded as %s, %v", m, got, ok)
		}
	}
	if got, ok := DecodeExecutionMode("agent"); got != ModeAnalyze || ok {
		t.Errorf("unknown turn mode decoded as %s, %v; want analyze, false", got, ok)
	}
}

func TestRetiredPreferenceRewritesOnlyUnambiguousSpellings(t *testing.T) {
	cases := []struct {
		interaction, override string
		want                  Rewrite
		ok                    bool
	}{
		{"agent", "", Rewrite{"smart", ""}, true},
		{"agent", "plan", Rewrite{"smart", "plan"}, true},
		{"read-only", "", Rewrite{"smart", "analyze"}, true},
		{"read-only", "analyze", Rewrite{"smart", "analyze"}, true},
		{"plan", "", Rewrite{"smart", "plan"}, true},
		{"read-only", "execute", Rewrite{}, false}, // ambiguous: leave it, it reads fail-closed
		{"plan", "garbage", Rewrite{}, false},
		{"chat", "", Rewrite{}, false},  // canonical: nothing to do
		{"smart", "", Rewrite{}, false}, // canonical
		{"yolo", "", Rewrite{}, false},  // unknown: never rewritten
		{"", "", Rewrite{}, false},
	}
	for _, c := range cases {
		got, ok := RetiredPreference(c.interaction, c.override)
		if got != c.want || ok != c.ok {
			t.Errorf("RetiredPreference(%q, %q) = %+v, %v; want %+v, %v", c.interaction, c.override, got, ok, c.want, c.ok)
		}
	}
}

func TestRetiredPreferenceRewriteKeepsMeaningAndIsIdempotent(t *testing.T) {
	for _, in := range [][2]string{{"agent", ""}, {"agent", "debug"}, {"agent", "zzz"}, {"read-only", ""}, {"plan", "plan"}} {
		rw, ok := RetiredPreference(in[0], in[1])
		if !ok {
			t.Fatalf("%v not rewritten", in)
		}
		before := DecodePreference(in[0], in[1]).Preference
		after := DecodePreference(rw.InteractionMode, rw.ExecutionOverride).Preference
		if before != after {
			t.Errorf("rewrite of %v changed its meaning: %+v -> %+v", in, before, after)
		}
		if _, again := RetiredPreference(rw.InteractionMode, rw.ExecutionOverride); again {
			t.Errorf("a second maintenance run would rewrite %v again", rw)
		}
	}
}

func TestStrictParsersRejectRetiredSpellings(t *testing.T) {
	for _, s := range []string{"agent", "read-only", "plan", "", "Smart", "execute"} {
		if _, err := ParseInteraction(s); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("ParseInteraction(%q) err = %v, want INVALID_VALUE", s, err)
		}
	}
	for _, s := range []string{"none", "propose", "chat", "read-only", "Plan"} {
		if _, err := ParseOverride(s); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("ParseOverride(%q) err = %v, want INVALID_VALUE", s, err)
		}
	}
	err := errs.As(mustFail(ParseInteraction("agent")))
	if err.Args["Value"] != "agent" || err.Args["Allowed"] != "smart, chat" {
		t.Errorf("error should name the value and list the allowed ones: %v", err)
	}
}

func mustFail[T any](_ T, err error) error { return err }

func TestParseExecutionAlias(t *testing.T) {
	cases := map[string]Preference{
		"smart":     {Interaction: Smart},
		"chat":      {Interaction: Chat},
		"agent":     {Interaction: Smart},
		"read-only": {Interaction: Smart, Override: Analyze},
		"plan":      {Interaction: Smart, Override: Plan},
		"verified":  {Interaction: Smart, Override: Verified},
	}
	for in, want := range cases {
		if got, err := ParseExecutionAlias(in); err != nil || got != want {
			t.Errorf("ParseExecutionAlias(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	if _, err := ParseExecutionAlias("bypass"); errs.KindOf(err) != errs.InvalidValue {
		t.Errorf("unknown alias accepted: %v", err)
	}
}
