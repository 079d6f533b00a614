package tool

import "agentdesk/backend/errs"

// Error kinds of this package. Each has an "error.<KIND>" message in locales/tool.*.json; the
// English message is what the model reads as the tool's error, the person's language is what the
// UI shows. Never rename one: tests and scripts assert them.
const (
	// InvalidToolInput: the model's input does not fit the tool's schema. Args: Tool, Problem.
	InvalidToolInput errs.Kind = "INVALID_TOOL_INPUT"
	// UnknownTool: the model named a tool that does not exist. Args: Tool.
	UnknownTool errs.Kind = "UNKNOWN_TOOL"
	// FileNotFound: the path does not exist. Args: Path.
	FileNotFound errs.Kind = "FILE_NOT_FOUND"
	// NotAFile: the path is a folder (or another non-file) where a file is needed. Args: Path.
	NotAFile errs.Kind = "NOT_A_FILE"
	// BinaryFile: the file holds binary data, which read and edit refuse. Args: Path.
	BinaryFile errs.Kind = "BINARY_FILE"
	// OffsetPastEnd: read's offset lies beyond the last line. Args: Path, Offset, Lines.
	OffsetPastEnd errs.Kind = "OFFSET_PAST_END"
	// InvalidPattern: a glob pattern or regular expression does not compile. Args: Pattern, Problem.
	InvalidPattern errs.Kind = "INVALID_PATTERN"
	// EditNoMatch: old_string does not occur in the file. Args: Path.
	EditNoMatch errs.Kind = "EDIT_NO_MATCH"
	// EditManyMatches: old_string occurs more than once, so the edit is ambiguous. Args: Path, Count.
	EditManyMatches errs.Kind = "EDIT_MANY_MATCHES"
	// EditNoChange: old_string equals new_string. Args: Path.
	EditNoChange errs.Kind = "EDIT_NO_CHANGE"
	// ToolFailed: the operating system refused the work. Args: Tool, Problem.
	ToolFailed errs.Kind = "TOOL_FAILED"
	// ToolCancelled: the turn was cancelled while the tool ran. Args: Tool.
	ToolCancelled errs.Kind = "TOOL_CANCELLED"
	// TargetChanged: the path resolves somewhere other than what the gate approved (a symlink
	// was swapped meanwhile), so the call was not carried out. Args: Path, Approved, Now.
	TargetChanged errs.Kind = "TARGET_CHANGED"
)

// Kinds lists every kind above, for the test that checks each has a message in every language.
var Kinds = []errs.Kind{
	InvalidToolInput, UnknownTool, FileNotFound, NotAFile, BinaryFile, OffsetPastEnd,
	InvalidPattern, EditNoMatch, EditManyMatches, EditNoChange, ToolFailed, ToolCancelled, TargetChanged,
}
