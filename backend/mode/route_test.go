package mode

import "testing"

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

func TestRouteNeverMatchesInsideWords(t *testing.T) {
	// "explain" contains "plan", "prefix" contains "fix", "terror" contains "error".
	for text, want := range map[string]ExecutionMode{
		"Explain the cache":               ModeAnalyze,
		"Add a prefix option to the CLI":  ModeExecute,
		"Add a terrorism filter to input": ModeExecute,
	} {
		if got := Route(text).Mode; got != want {
			t.Errorf("Route(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestRouteIsStatelessAndDeterministic(t *testing.T) {
	first := Route("Design a caching layer")
	Route("Fix the crash")
	again := Route("Design a caching layer")
	if first.Mode != again.Mode || first.ReasonKey != again.ReasonKey {
		t.Fatalf("routing changed between identical requests: %+v then %+v", first, again)
	}
	if Route("Add a flag").Mode != ModeExecute {
		t.Fatal("an earlier plan request leaked into a later turn")
	}
}

func TestProposeNeverMutates(t *testing.T) {
	if ModePropose.MayMutate() || ModePropose.Offers(ToolWrite) || ModePropose.Offers(ToolEdit) || ModePropose.Offers(ToolBash) {
		t.Fatal("propose must never mutate")
	}
}

func TestResolve(t *testing.T) {
	cases := []struct {
		name string
		pref Preference
		text string
		want ExecutionMode
		key  string
	}{
		{"chat runs as chat whatever the text says", Preference{Interaction: Chat}, "Fix the crash", ModeChat, "route.reason.chat"},
		{"an override wins over the router", Preference{Interaction: Smart, Override: Plan}, "Fix the crash", ModePlan, "route.reason.override"},
		{"plain smart asks the router", Preference{Interaction: Smart}, "Fix the crash", ModeDebug, "route.reason.debug"},
		{"an unknown interaction reads as analyze", Preference{Interaction: "agent"}, "Add a flag", ModeAnalyze, "route.reason.unrecognized"},
		{"an unknown override reads as analyze", Preference{Interaction: Smart, Override: "yolo"}, "Add a flag", ModeAnalyze, "route.reason.unrecognized"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Resolve(c.pref, c.text, "")
			if got.Mode != c.want || got.ReasonKey != c.key {
				t.Fatalf("got %s/%s, want %s/%s", got.Mode, got.ReasonKey, c.want, c.key)
			}
		})
	}
}

// The everyday messages of issue reports, each with the reason the person sees.
func TestRouteReasons(t *testing.T) {
	cases := []struct {
		text     string
		previous ExecutionMode
		want     ExecutionMode
		key      string
	}{
		{"hello", "", ModeChat, "route.reason.greeting"},
		{"你好", "", ModeChat, "route.reason.greeting"},
		{"thanks!", "", ModeChat, "route.reason.thanks"},
		{"谢谢！", "", ModeChat, "route.reason.thanks"},
		{"What can you do?", "", ModeChat, "route.reason.smalltalk"},
		{"Carry on", ModePlan, ModePlan, "route.reason.continue"},
		{"继续", ModeAnalyze, ModeAnalyze, "route.reason.continue"},
		{"Carry on", "", ModeChat, "route.reason.continue_none"},
		{"Carry on", "agent", ModeAnalyze, "route.reason.unrecognized"},
		{"List the files here", "", ModeAnalyze, "route.reason.read"},
		{"列出这里的文件", "", ModeAnalyze, "route.reason.read"},
		{"why does the test fail?", "", ModeDebug, "route.reason.debug_why"},
		{"为什么测试失败了？", "", ModeDebug, "route.reason.debug_why"},
		{"Change the default log level to debug", "", ModeExecute, "route.reason.execute"},
		{"Suggest how I could refactor X, don't change anything", "", ModePropose, "route.reason.propose"},
		// Only a bare "carry on" reads the previous turn; a request with a task of its own does not.
		{"Keep going until the tests pass", ModePlan, ModeVerified, "route.reason.verified"},
		{"thanks, now add a --json flag", ModePlan, ModeExecute, "route.reason.execute"},
		// A listing request that also asks for a change is a change.
		{"List the files and delete the temporary ones", "", ModeExecute, "route.reason.execute"},
	}
	for _, c := range cases {
		got := RouteAfter(c.text, c.previous)
		if got.Mode != c.want || got.ReasonKey != c.key {
			t.Errorf("RouteAfter(%q, %q) = %s/%s %v, want %s/%s", c.text, c.previous, got.Mode, got.ReasonKey, got.ReasonArgs, c.want, c.key)
		}
	}
	if d := RouteAfter("carry on", ModeDebug); d.ReasonArgs["Mode"] != "debug" {
		t.Errorf("the carry-on reason names the mode it keeps: %v", d.ReasonArgs)
	}
}

// Resolve hands the previous turn's mode to the router only in plain Smart.
func TestResolveCarriesOnOnlyInSmart(t *testing.T) {
	if got := Resolve(Preference{Interaction: Smart}, "continue", ModeDebug); got.Mode != ModeDebug {
		t.Fatalf("smart: %+v", got)
	}
	if got := Resolve(Preference{Interaction: Chat}, "continue", ModeDebug); got.Mode != ModeChat {
		t.Fatalf("chat: %+v", got)
	}
	if got := Resolve(Preference{Interaction: Smart, Override: Plan}, "continue", ModeDebug); got.Mode != ModePlan {
		t.Fatalf("override: %+v", got)
	}
}
