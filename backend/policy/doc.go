// Package policy is the permission gate (R-GATE). It decides every tool call in two steps:
//
//   - Resolve is the only impure step. It turns a call's path into facts about the real file
//     system (inside the workspace? protected?) and parses a shell command once.
//   - Evaluate is a pure function of the execution mode, the permission mode, the rules, the
//     session's grants and the resolved call. It applies R-GATE-1 in its fixed order and says
//     which layer decided, so the UI can show "allowed by rule".
//
// The sensitive paths list (sensitive.go) is one of Evaluate's inputs, like the rules: a call
// that reads or changes a listed path, or a shell command that names one, asks (is denied in
// Full), and a shell command asks wherever the sandbox cannot hide the listed files from it.
// Finding those files (SensitiveMasks) is impure, like Resolve, and happens before Evaluate.
//
// The gate is negative: an unknown execution mode gets the read-only surface and an unknown
// permission mode asks for everything that could change something. Nothing here returns
// user-visible text; verdicts carry error kinds and locale keys.
//
// Besides the standard library, the package imports mvdan.cc/sh/v3/syntax, a pure shell parser:
// deciding whether a command only reads cannot be done honestly with string matching.
package policy
