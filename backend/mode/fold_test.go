package mode

import (
	"fmt"
	"testing"
)

func entry(typ, payload string) LogEntry { return LogEntry{Type: typ, Payload: []byte(payload)} }

func TestFoldLastWins(t *testing.T) {
	log := []LogEntry{
		NewModeSet(Preference{Interaction: Chat}),
		entry("message.user", `{"text":"hi"}`),
		NewModeSet(Preference{Interaction: Smart, Override: Plan}),
		entry("tool.result", `{}`),
	}
	got := Fold(Default, log)
	if got.Preference != (Preference{Interaction: Smart, Override: Plan}) || !got.FromLog || len(got.Unrecognized) != 0 {
		t.Fatalf("Fold = %+v", got)
	}
}

func TestFoldWithoutModeSetKeepsInitial(t *testing.T) {
	got := Fold(Preference{Interaction: Chat}, []LogEntry{entry("message.user", `{}`)})
	if got.Preference != (Preference{Interaction: Chat}) || got.FromLog {
		t.Fatalf("Fold = %+v", got)
	}
}

func TestFoldForkCopiesTheMode(t *testing.T) {
	log := []LogEntry{NewModeSet(Default), NewModeSet(Preference{Interaction: Smart, Override: Debug})}
	fork := append([]LogEntry(nil), log...)
	if Fold(Default, log).Preference != Fold(Default, fork).Preference {
		t.Fatal("a fork must fold to the same mode")
	}
}

func TestFoldFailsClosedOnUnreadableEvents(t *testing.T) {
	cases := map[string]string{
		"bad JSON":                   `{"interaction_mode":`,
		"unknown interaction":        `{"interaction_mode":"yolo"}`,
		"missing interaction":        `{"execution_override":"execute"}`,
		"unknown override":           `{"interaction_mode":"smart","execution_override":"bypass"}`,
		"trailing data":              `{"interaction_mode":"smart"} {"interaction_mode":"chat"}`,
		"wrong type":                 `{"interaction_mode":1}`,
		"JSON that is not an object": `"smart"`,
	}
	for name, payload := range cases {
		t.Run(name, func(t *testing.T) {
			log := []LogEntry{NewModeSet(Preference{Interaction: Smart, Override: Execute}), entry(EventModeSet, payload)}
			got := Fold(Default, log)
			if got.Preference != readOnlySurface || len(got.Unrecognized) == 0 {
				t.Fatalf("an unreadable switch must read as smart · analyze and be reported, got %+v", got)
			}
		})
	}
}

func TestFoldFoldsRetiredSpellingsInEvents(t *testing.T) {
	got := Fold(Default, []LogEntry{entry(EventModeSet, `{"interaction_mode":"read-only"}`)})
	if got.Preference != (Preference{Interaction: Smart, Override: Analyze}) || len(got.Unrecognized) != 0 {
		t.Fatalf("Fold = %+v", got)
	}
}

// TestFoldEqualsForwardFold checks the backwards scan against the definition: a left fold in
// which every mode.set replaces the state.
func TestFoldEqualsForwardFold(t *testing.T) {
	payloads := []string{`{"interaction_mode":"chat"}`, `{"interaction_mode":"smart","execution_override":"plan"}`, `garbage`, `{"interaction_mode":"agent"}`}
	for n := 0; n < 200; n++ {
		var log []LogEntry
		for i := 0; i < n%13; i++ {
			typ := EventModeSet
			if (n+i)%3 == 0 {
				typ = "message.user"
			}
			log = append(log, entry(typ, payloads[(n*7+i)%len(payloads)]))
		}
		want := Default
		for _, e := range log {
			if e.Type == EventModeSet {
				want = DecodeModeSet(e.Payload).Preference
			}
		}
		if got := Fold(Default, log).Preference; got != want {
			t.Fatalf("log %d: Fold = %+v, forward fold = %+v", n, got, want)
		}
	}
}

func TestLastNonPlan(t *testing.T) {
	log := []LogEntry{
		NewModeSet(Preference{Interaction: Smart, Override: Debug}),
		NewModeSet(Preference{Interaction: Smart, Override: Plan}),
	}
	if got := LastNonPlan(log); got != (Preference{Interaction: Smart, Override: Debug}) {
		t.Fatalf("LastNonPlan = %+v", got)
	}
	if got := LastNonPlan(log[1:]); got != Default {
		t.Fatalf("LastNonPlan with only plan = %+v, want Default", got)
	}
}

func hundredThousandEvents(modeSetEvery int) []LogEntry {
	log := make([]LogEntry, 100_000)
	for i := range log {
		log[i] = entry("message.assistant.delta", fmt.Sprintf(`{"text":"chunk %d"}`, i))
		if modeSetEvery > 0 && i%modeSetEvery == 0 {
			log[i] = NewModeSet(Preference{Interaction: Smart, Override: Overrides[i%len(Overrides)]})
		}
	}
	return log
}

// BenchmarkFold100k folds a 100,000-event log whose only mode.set is the first event — the
// worst case, since every entry is visited.
func BenchmarkFold100k(b *testing.B) {
	log := hundredThousandEvents(0)
	log[0] = NewModeSet(Preference{Interaction: Smart, Override: Plan})
	b.ResetTimer()
	for b.Loop() {
		if Fold(Default, log).Preference.Override != Plan {
			b.Fatal("wrong fold")
		}
	}
}

// BenchmarkFold100kForward is the naive left fold that decodes every mode.set, for comparison
// with a log in which every tenth event is a mode.set.
func BenchmarkFold100kForward(b *testing.B) {
	log := hundredThousandEvents(10)
	b.ResetTimer()
	for b.Loop() {
		p := Default
		for _, e := range log {
			if e.Type == EventModeSet {
				p = DecodeModeSet(e.Payload).Preference
			}
		}
		_ = p
	}
}
