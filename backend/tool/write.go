package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// newFileMode is the mode of a new file: readable by all, as an editor would create it.
const newFileMode fs.FileMode = 0o644

var writeSpec = spec{tool: mode.ToolWrite, params: []param{
	{name: "path", typ: "string", title: "Path", required: true, nonEmpty: true,
		description: "The file to create or replace, relative to the workspace folder or absolute."},
	{name: "content", typ: "string", title: "Content", required: true,
		description: "The complete new content of the file."},
}}

const writeDescription = `Creates a file, or replaces an existing file's whole content, with content. Missing parent folders are created.
The file is written atomically (a temporary file renamed into place) and an existing file keeps its permissions.
Prefer edit for changing part of an existing file; read a file before replacing it.`

type writeInput struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type writeTool struct{ about }

var writeSchema = writeSpec.schema()

func (writeTool) decode(input json.RawMessage) (writeInput, error) {
	var in writeInput
	err := writeSpec.decode(input, &in)
	return in, err
}

func (t writeTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	return Call{
		Gate:    gateCall(mode.ToolWrite, in.Path, ""),
		Summary: summary("path", in.Path, "bytes", strconv.Itoa(len(in.Content)), "content", in.Content),
	}, nil
}

func (t writeTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	at, err := locate(mode.ToolWrite, env, in.Path)
	if err != nil {
		return Result{}, err
	}
	defer at.close()
	perm, existed, err := modeToKeep(at)
	if err != nil {
		return Result{}, err
	}
	if err := at.fs.MkdirAll(filepath.Dir(at.name), 0o755); err != nil {
		return Result{}, at.fail(err)
	}
	if err := at.put(ctx, env, []byte(in.Content), perm); err != nil {
		return Result{}, err
	}
	verb, key := "Created", "tool.result.write.created"
	if existed {
		verb, key = "Replaced", "tool.result.write.replaced"
	}
	return Result{Output: fmt.Sprintf("%s %s: wrote %d bytes.", verb, in.Path, len(in.Content)),
		Display: display.Say(key, "Path", in.Path, "Bytes", len(in.Content))}, nil
}

// modeToKeep returns an existing file's permission bits, or the new-file default.
func modeToKeep(at *site) (fs.FileMode, bool, error) {
	info, err := at.fs.Stat(at.name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newFileMode, false, nil
	case err != nil:
		return 0, false, at.fail(err)
	case !info.Mode().IsRegular():
		return 0, false, errs.New(NotAFile, "Path", at.shown)
	}
	return info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky), true, nil
}
