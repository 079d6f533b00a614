package agent

import (
	"strings"

	"agentdesk/backend/mode"
)

// Model-facing instructions are part of the protocol with the model, not UI text, so they are
// English and live here rather than in locales/.

const basePrompt = `You are AgentDesk's coding agent, working in the user's workspace folder: %WORKSPACE%.
Use only the tools you are given. Paths are relative to the workspace. Tool errors that start with an
upper-case code (for example WRITE_DISABLED_IN_READ_ONLY or REJECTED_BY_USER) come from the permission
gate or from the person: respect them and do not try to work around them.`

// modePrompts say what each execution mode is for; what a profile adds on top (the debugging
// section) is appended by systemPrompt from the profile's flags.
var modePrompts = map[mode.ExecutionMode]string{
	mode.ModeChat:    "Answer from the conversation and the attachments already supplied. You have no tools in this mode.",
	mode.ModePropose: "The person asked for a proposal only. Read what you need, then propose changes (for example as a patch in your answer). Do not change anything.",
	mode.ModeAnalyze: "Analyze and explain. You can read, but you cannot change files or run commands.",
	mode.ModePlan: "You are in plan mode. Investigate with the read-only tools, ask the person with ask_user when something is unclear, " +
		"then call exit_plan_mode with the complete plan in Markdown (start it with a heading). Do not change anything before the plan is approved.",
	mode.ModeExecute: "Carry out the request.",
	mode.ModeDebug:   "Carry out the request as a debugging task.",
	mode.ModeVerified: "Carry out the request, then verify it: run a command that checks your work (tests, a build, a linter) and make sure it passes. " +
		"If verification keeps failing, say so honestly instead of claiming success.",
}

// debugSection is the prompt of a profile with DebugPrompt.
const debugSection = "Debugging: reproduce the problem first, form a hypothesis, confirm it with evidence " +
	"(logs, a failing test, a minimal reproduction), fix the root cause rather than the symptom, and show that the reproduction now passes."

// systemPrompt is the base prompt plus the execution mode's section and what its profile adds.
func systemPrompt(workspace string, m mode.ExecutionMode) string {
	section, ok := modePrompts[m]
	if !ok {
		section = modePrompts[mode.ModeAnalyze]
	}
	if m.Profile().DebugPrompt {
		section += " " + debugSection
	}
	return strings.ReplaceAll(basePrompt, "%WORKSPACE%", workspace) + "\n\n" + section
}

// verifyNudge is sent when a verified turn tries to finish without a passing verification.
const verifyNudge = "You have not yet run a verification command that passed since your last change. " +
	"Run one now (tests, a build or a linter), or if verification cannot pass, say so honestly."
