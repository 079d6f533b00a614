package tool

import (
	"agentdesk/backend/display"
	"agentdesk/backend/netproxy"
	"context"
	"encoding/json"

	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/sandbox"
)

// Tool is one tool the model may call.
type Tool interface {
	Name() mode.Tool
	// Description is the English text the model reads; model-facing text is not UI text.
	Description() string
	// Schema is the JSON Schema of the input object: type object, properties with titles and
	// descriptions (enough to build the fn-form), required, additionalProperties false.
	Schema() json.RawMessage
	// Describe validates the raw input and says what the call touches, for the gate and for the
	// approval summary.
	Describe(input json.RawMessage) (Call, error)
	// Run executes a call the gate allowed.
	Run(ctx context.Context, env Env, input json.RawMessage) (Result, error)
}

// Call is what Describe learned about one call.
type Call struct {
	Gate policy.Call
	// Summary is the full command or parameters, for the approval card (which truncates it).
	Summary string
}

// Result is what a tool hands back to the model.
type Result struct {
	Output string
	// IsError marks an outcome the model must treat as a failure of the call.
	IsError bool
	// Truncated says Output is not everything: a cap cut it or a read was partial.
	Truncated bool
	// Display says in the person's language what Output says in English where Output is the
	// tool speaking; nil where Output is only data (a file's lines, a command's output).
	Display *display.Message
	// Answered marks Output as the person's own answer (to a question, a plan review): the
	// model may have to treat it as a failure of the call, the person is not shown an error.
	Answered bool
}

// Env is what a running tool may use besides its input.
type Env struct {
	Workspace string
	// Ask puts a question to the person (ask_user). Implemented by the agent with the decision
	// registry. Nil means no one can answer: the question is declined.
	Ask func(ctx context.Context, q Question) (Answer, error)
	// ReviewPlan asks the person to review a plan (exit_plan_mode). Implemented by the agent.
	// Nil means there is no reviewer: the plan is declined and the mode stays plan.
	ReviewPlan func(ctx context.Context, plan string) (PlanReview, error)
	// Elicit puts an MCP server's form to the person. Nil means no one can answer: declined.
	Elicit Elicitor
	// Sample lets an MCP server use the session's model, as the person decides. Nil means no
	// one can decide: declined.
	Sample Sampler
	// Progress, when set, receives an MCP call's progress notifications as they arrive.
	Progress func(Progress)
	// Output, when set, receives bash output as it arrives, from one goroutine at a time, in
	// order, split only at UTF-8 boundaries. The UI shows it live.
	Output func(chunk string)
	// Target is the path the gate resolved (and, when it asked, the person approved) for a
	// read, write or edit call. A file tool refuses with TARGET_CHANGED when the path resolves
	// elsewhere at the moment it acts. Nil for calls without a path, and for direct tests.
	Target *policy.Target
	// Shell says how a bash call is confined; the zero value is the strictest sandbox.
	Shell ShellOptions
	// Sensitive is the sensitive paths list: grep skips what it covers inside a folder it
	// searches, since the gate asked about the folder, not each file in it. The zero value is
	// the default list.
	Sensitive policy.SensitiveList
	// Files, when set, receives the new content of a write or an edit in place of the disk
	// write: an editor holding the file open (ACP's fs/write_text_file) then has it in its
	// buffer. What is read, checked and previewed before is the same either way.
	Files FileWriter
}

// FileWriter writes a whole text file at an absolute path, as the session's editor does.
type FileWriter interface {
	WriteTextFile(ctx context.Context, path, content string) error
}

// ShellOptions are the per-call facts the bash tool needs to confine a command (R-GATE).
type ShellOptions struct {
	// Network: the person approved this call reaching the network (an escalation).
	Network bool
	// Proxy is the policy of the network proxy the call reaches the network through, where
	// commands have a network namespace of their own; nil means no proxy (no network there).
	Proxy *netproxy.Config
	// Unsandboxed: the person approved running this call outside the kernel sandbox.
	Unsandboxed bool
	// GitWrite: the person approved this call changing the workspace's .git (commit, add …).
	GitWrite bool
	// HardenGit: the call runs because it is in Auto's read-only shell class, so git runs with a
	// hardened environment (no discovery above the workspace, no fsmonitor, pager, aliases …),
	// and the kernel confines its reads to the workspace and the toolchain.
	HardenGit bool
	// DataDir is the app's data folder, which the sandbox hides from the command.
	DataDir string
	// Hide lists the paths deny rules and the sensitive paths list cover, which the sandbox hides
	// from the command where namespaces work, so no spelling the gate cannot see (a script)
	// reads them.
	Hide []string
	// PassEnv names environment variables kept even though they look like secrets (Settings).
	PassEnv []string
	// Task names the git folders of the session's own worktree when it runs in one, so git add
	// and commit work there inside the sandbox (sandbox.Policy.Task).
	Task *sandbox.TaskGit
}

// Question is an ask_user call as the person sees it.
type Question struct {
	Text     string
	Options  []string
	Multiple bool
}

// Answer is the person's reply to a Question.
type Answer struct {
	Values []string
	// Declined means no answer came (rejected, timed out, cancelled, no one to ask); Reason says
	// why to the model, Why to the person.
	Declined bool
	Reason   string
	Why      *display.Message
}

// PlanReview is the person's verdict on a plan.
type PlanReview struct {
	Approved bool
	// Feedback is what the person wrote; when they keep planning it reaches the model verbatim.
	Feedback string
	// Declined means no review came (timeout, abort, no reviewer); Reason says why to the
	// model, Why to the person.
	Declined bool
	Reason   string
	Why      *display.Message
}
