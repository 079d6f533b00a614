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

// TestMCPColumn pins the MCP column: none in chat, read-only-annotated tools only in the modes
// that may not mutate (and in unknown ones), every tool in the mutating modes.
func TestMCPColumn(t *testing.T) {
	cases := []struct {
		mode            ExecutionMode
		readOnly, other bool
	}{
		{ModeChat, false, false},
		{ModePropose, true, false},
		{ModeAnalyze, true, false},
		{ModePlan, true, false},
		{ModeExecute, true, true},
		{ModeDebug, true, true},
		{ModeVerified, true, true},
		{"agent", true, false},
		{"", true, false},
	}
	for _, c := range cases {
		if got := c.mode.OffersMCP(true); got != c.readOnly {
			t.Errorf("%q offers a read-only MCP tool: %v, want %v", c.mode, got, c.readOnly)
		}
		if got := c.mode.OffersMCP(false); got != c.other {
			t.Errorf("%q offers an MCP tool not marked read-only: %v, want %v", c.mode, got, c.other)
		}
	}
	if (Profile{MCP: "everything"}).OffersMCP(true) {
		t.Error("an unknown MCP access must offer nothing")
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
