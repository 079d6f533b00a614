package eventlog

import (
	"fmt"
	"testing"

	"agentdesk/backend/mode"
)

func entry(typ, payload string) Entry { return Entry{Type: typ, Payload: []byte(payload)} }

// setTo is the entry a switch to p is stored as.
func setTo(p mode.Preference) Entry {
	raw, err := Encode(NewModeSet(p))
	if err != nil {
		panic(err)
	}
	return Entry{Type: TypeModeSet, Payload: raw}
}

// readOnlySurface is where unreadable switches land: Smart pinned to Analyze.
var readOnlySurface = mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}

func TestFoldLastWins(t *testing.T) {
	log := []Entry{
		setTo(mode.Preference{Interaction: mode.Chat}),
		entry("message.user", `{"text":"hi"}`),
		setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Plan}),
		entry("tool.result", `{}`),
	}
	got := FoldModes(mode.Default, log)
	if got.Preference != (mode.Preference{Interaction: mode.Smart, Override: mode.Plan}) || !got.FromLog || len(got.Unrecognized) != 0 {
		t.Fatalf("Fold = %+v", got)
	}
}

func TestFoldWithoutModeSetKeepsInitial(t *testing.T) {
	got := FoldModes(mode.Preference{Interaction: mode.Chat}, []Entry{entry("message.user", `{}`)})
	if got.Preference != (mode.Preference{Interaction: mode.Chat}) || got.FromLog {
		t.Fatalf("Fold = %+v", got)
	}
}

func TestFoldForkCopiesTheMode(t *testing.T) {
	log := []Entry{setTo(mode.Default), setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Debug})}
	fork := append([]Entry(nil), log...)
	if FoldModes(mode.Default, log).Preference != FoldModes(mode.Default, fork).Preference {
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
			log := []Entry{setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Execute}), entry(TypeModeSet, payload)}
			got := FoldModes(mode.Default, log)
			if got.Preference != readOnlySurface || len(got.Unrecognized) == 0 {
				t.Fatalf("an unreadable switch must read as smart · analyze and be reported, got %+v", got)
			}
		})
	}
}

func TestFoldFoldsRetiredSpellingsInEvents(t *testing.T) {
	got := FoldModes(mode.Default, []Entry{entry(TypeModeSet, `{"interaction_mode":"read-only"}`)})
	if got.Preference != (mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}) || len(got.Unrecognized) != 0 {
		t.Fatalf("Fold = %+v", got)
	}
}

// TestFoldEqualsForwardFold checks the backwards scan against the definition: a left fold in
// which every mode.set replaces the state.
func TestFoldEqualsForwardFold(t *testing.T) {
	payloads := []string{`{"interaction_mode":"chat"}`, `{"interaction_mode":"smart","execution_override":"plan"}`, `garbage`, `{"interaction_mode":"agent"}`}
	for n := 0; n < 200; n++ {
		var log []Entry
		for i := 0; i < n%13; i++ {
			typ := TypeModeSet
			if (n+i)%3 == 0 {
				typ = "message.user"
			}
			log = append(log, entry(typ, payloads[(n*7+i)%len(payloads)]))
		}
		want := mode.Default
		for _, e := range log {
			if e.Type == TypeModeSet {
				want = ReadModeSet(e.Payload).Preference
			}
		}
		if got := FoldModes(mode.Default, log).Preference; got != want {
			t.Fatalf("log %d: Fold = %+v, forward fold = %+v", n, got, want)
		}
	}
}

func TestLastNonPlan(t *testing.T) {
	log := []Entry{
		setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Debug}),
		setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Plan}),
	}
	if got := LastNonPlan(log); got != (mode.Preference{Interaction: mode.Smart, Override: mode.Debug}) {
		t.Fatalf("LastNonPlan = %+v", got)
	}
	if got := LastNonPlan(log[1:]); got != mode.Default {
		t.Fatalf("LastNonPlan with only plan = %+v, want Default", got)
	}
}

func hundredThousandEvents(modeSetEvery int) []Entry {
	log := make([]Entry, 100_000)
	for i := range log {
		log[i] = entry("message.assistant.delta", fmt.Sprintf(`{"text":"chunk %d"}`, i))
		if modeSetEvery > 0 && i%modeSetEvery == 0 {
			log[i] = setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Overrides[i%len(mode.Overrides)]})
		}
	}
	return log
}

// BenchmarkFold100k folds a 100,000-event log whose only mode.set is the first event — the
// worst case, since every entry is visited.
func BenchmarkFold100k(b *testing.B) {
	log := hundredThousandEvents(0)
	log[0] = setTo(mode.Preference{Interaction: mode.Smart, Override: mode.Plan})
	b.ResetTimer()
	for b.Loop() {
		if FoldModes(mode.Default, log).Preference.Override != mode.Plan {
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
		p := mode.Default
		for _, e := range log {
			if e.Type == TypeModeSet {
				p = ReadModeSet(e.Payload).Preference
			}
		}
		_ = p
	}
}
