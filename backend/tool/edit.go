package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

var editSpec = spec{tool: mode.ToolEdit, params: []param{
	{name: "path", typ: "string", title: "Path", required: true, nonEmpty: true,
		description: "The file to change, relative to the workspace folder or absolute."},
	{name: "old_string", typ: "string", title: "Text to replace", required: true, nonEmpty: true,
		description: "The exact text to find, including white space and indentation. It must occur exactly once in the file."},
	{name: "new_string", typ: "string", title: "Replacement", required: true,
		description: "The text to put in its place; empty deletes old_string."},
}}

const editDescription = `Changes a file by replacing one exact occurrence of old_string with new_string.
old_string must match the file byte for byte (white space, indentation and line endings included) and must occur exactly once: the call fails when it occurs zero or several times. To make it unique, include a few surrounding lines. Do not include the line-number prefix that read shows.
Read the file first. The file keeps its permissions; the change is written atomically. Use write to create a file.`

type editInput struct {
	Path      string `json:"path"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

type editTool struct{ about }

var editSchema = editSpec.schema()

func (editTool) decode(input json.RawMessage) (editInput, error) {
	var in editInput
	if err := editSpec.decode(input, &in); err != nil {
		return in, err
	}
	if in.OldString == in.NewString {
		return in, errs.New(EditNoChange, "Path", in.Path)
	}
	return in, nil
}

// Describe shows both strings in full: the person approves the exact change.
func (t editTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	return Call{
		Gate:    gateCall(mode.ToolEdit, in.Path, ""),
		Summary: summary("path", in.Path, "old_string", in.OldString, "new_string", in.NewString),
	}, nil
}

func (t editTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	file, err := locate(mode.ToolEdit, env, in.Path)
	if err != nil {
		return Result{}, err
	}
	defer file.close()
	data, perm, err := readForEdit(file)
	if err != nil {
		return Result{}, err
	}
	at, err := uniqueIndex(data, []byte(in.OldString), in.Path)
	if err != nil {
		return Result{}, err
	}
	changed := make([]byte, 0, len(data)-len(in.OldString)+len(in.NewString))
	changed = append(append(append(changed, data[:at]...), in.NewString...), data[at+len(in.OldString):]...)
	if err := file.put(ctx, env, changed, perm); err != nil {
		return Result{}, err
	}
	line := bytes.Count(data[:at], []byte("\n")) + 1
	return Result{Output: fmt.Sprintf("Edited %s: replaced 1 occurrence starting at line %d.", in.Path, line),
		Display: display.Say("tool.result.edit.done", "Path", in.Path, "Line", line)}, nil
}

// readForEdit reads a regular text file and its permission bits, which the rewrite keeps.
func readForEdit(at *site) ([]byte, fs.FileMode, error) {
	f, err := at.openRegular()
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, 0, at.fail(err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, 0, at.fail(err)
	}
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		return nil, 0, errs.New(BinaryFile, "Path", at.shown)
	}
	return data, info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky), nil
}

// uniqueIndex finds the one occurrence of old. Overlapping occurrences count too ("aa" in
// "aaa" is two), since either could be the one meant.
func uniqueIndex(data, old []byte, shown string) (int, error) {
	at := bytes.Index(data, old)
	if at < 0 {
		return 0, errs.New(EditNoMatch, "Path", shown)
	}
	if n := countOverlapping(data, old); n > 1 {
		return 0, errs.New(EditManyMatches, "Path", shown, "Count", n)
	}
	return at, nil
}

func countOverlapping(data, sub []byte) int {
	n := 0
	for i := bytes.Index(data, sub); i >= 0; {
		n++
		next := bytes.Index(data[i+1:], sub)
		if next < 0 {
			break
		}
		i += next + 1
	}
	return n
}
