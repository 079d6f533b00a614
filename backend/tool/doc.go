// Package tool holds the tools the model may call (R-RUN-2): read, glob, grep, bash, edit, write,
// ask_user and exit_plan_mode, one file each, and the Registry that offers them per profile.
//
// A call goes through three steps, and this package owns the first and the last:
//
//  1. Describe validates the model's raw input strictly (unknown fields, wrong types and missing
//     required fields are INVALID_TOOL_INPUT errors naming the tool and the problem) and says what
//     the call touches: a policy.Call for the gate and a Summary for the approval card.
//  2. The agent resolves that call (policy.Resolve) and asks the gate (policy.Evaluate). The gate is
//     not this package's job.
//  3. Run executes a call the gate allowed.
//
// Paths follow policy.Resolve: a relative path is relative to the workspace root, joined by plain
// concatenation, so the operating system follows "link/.." exactly as the gate did. Describe
// returns the path as the model gave it; policy.Resolve makes it absolute. write and edit replace
// files through temp file + rename, so they first follow symlinks with policy.Resolve and write to
// the real file, never over the link. glob and grep never follow symlinks while walking, so a
// walk cannot leave the folder the gate saw.
//
// Errors and results. Run returns an error (an *errs.Error whose kind has an "error.<KIND>"
// message in locales/tool.*.json) when the call could not do its work: a missing file, an
// ambiguous edit, a cancelled context. It returns a Result with IsError set when the tool ran and
// the outcome is a failure the model must read: a non-zero exit status, a declined question, a
// plan the person wants reworked. Result.Output is model-facing English, like the descriptions
// and schemas; user-visible labels for the fn-form live in the locale files under
// "tool.<name>.label", "tool.<name>.hint" and "tool.<name>.param.<property>".
package tool
