package mode

import (
	"reflect"
	"testing"
)

// TestProfileTable pins R-MODE-4 row by row, written out rather than derived.
func TestProfileTable(t *testing.T) {
	all := []Tool{ToolRead, ToolGlob, ToolGrep, ToolBash, ToolEdit, ToolWrite, ToolAskUser}
	cases := []struct {
		mode      ExecutionMode
		tools     []Tool
		mutate    bool
		debug     bool
		verifying bool
	}{
		{ModeChat, nil, false, false, false},
		{ModePropose, []Tool{ToolRead, ToolGlob, ToolGrep}, false, false, false},
		{ModeAnalyze, []Tool{ToolRead, ToolGlob, ToolGrep}, false, false, false},
		{ModePlan, []Tool{ToolRead, ToolGlob, ToolGrep, ToolAskUser, ToolExitPlanMode}, false, false, false},
		{ModeExecute, all, true, false, false},
		{ModeDebug, all, true, true, false},
		{ModeVerified, all, true, false, true},
		{"agent", []Tool{ToolRead, ToolGlob, ToolGrep}, false, false, false},
		{"", []Tool{ToolRead, ToolGlob, ToolGrep}, false, false, false},
	}
	for _, c := range cases {
		p := ProfileOf(c.mode)
		if !reflect.DeepEqual(p.Tools, c.tools) || p.MayMutate != c.mutate || p.DebugPrompt != c.debug || p.RequiresVerification != c.verifying {
			t.Errorf("profile of %q = %+v", c.mode, p)
		}
	}
}

func TestProfileOfReturnsACopy(t *testing.T) {
	p := ProfileOf(ModeAnalyze)
	p.Tools[0] = ToolBash
	if ModeAnalyze.Offers(ToolBash) {
		t.Fatal("a caller edited the profile table")
	}
}

func TestUnknownExecutionModeIsReadOnly(t *testing.T) {
	for _, m := range []ExecutionMode{"agent", "read-only", "EXECUTE", "full", ""} {
		if m.Known() || m.MayMutate() || m.Offers(ToolBash) || m.Offers(ToolWrite) || m.Offers(ToolEdit) {
			t.Errorf("%q must fail closed", m)
		}
	}
}
