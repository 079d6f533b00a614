package tool

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

// previewCap bounds each side of a preview: an approval shows a change a person can read, and a
// bigger file is summed up as too large rather than shipped whole to the window.
const previewCap = 256 << 10

// Previewer is a tool whose call changes one file and can say how before it runs.
type Previewer interface {
	Preview(env Env, input json.RawMessage) (*display.Change, error)
}

// Preview reads the file the way Run would (the same target, the same os.Root confinement) and
// computes the new content; nil when the call could not run as it stands (Run will say why).
func (t writeTool) Preview(env Env, input json.RawMessage) (*display.Change, error) {
	in, err := t.decode(input)
	if err != nil {
		return nil, err
	}
	before, exists, err := readPreview(mode.ToolWrite, env, in.Path)
	if err != nil {
		return nil, nil
	}
	return bounded(&display.Change{Path: in.Path, Before: string(before), After: in.Content, Created: !exists}), nil
}

// Preview applies the one replacement to the file as Run would.
func (t editTool) Preview(env Env, input json.RawMessage) (*display.Change, error) {
	in, err := t.decode(input)
	if err != nil {
		return nil, err
	}
	data, exists, err := readPreview(mode.ToolEdit, env, in.Path)
	if err != nil || !exists {
		return nil, nil
	}
	at, err := uniqueIndex(data, []byte(in.OldString), in.Path)
	if err != nil {
		return nil, nil
	}
	after := string(data[:at]) + in.NewString + string(data[at+len(in.OldString):])
	return bounded(&display.Change{Path: in.Path, Before: string(data), After: after}), nil
}

// readPreview reads a file's current content for a preview; exists is false for a file to create.
func readPreview(tool mode.Tool, env Env, p string) (data []byte, exists bool, err error) {
	at, err := locate(tool, env, p)
	if err != nil {
		return nil, false, err
	}
	defer at.close()
	f, err := at.openRegular()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errs.KindOf(err) == FileNotFound {
			return nil, false, nil
		}
		return nil, false, err
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, previewCap+1))
	return data, true, err
}

// bounded leaves out what a person cannot read in a card: a binary file or a huge one.
func bounded(c *display.Change) *display.Change {
	switch {
	case bytes.IndexByte([]byte(c.Before), 0) >= 0 || bytes.IndexByte([]byte(c.After), 0) >= 0:
		c.Before, c.After, c.Omitted = "", "", "binary"
	case len(c.Before) > previewCap || len(c.After) > previewCap:
		c.Before, c.After, c.Omitted = "", "", "too_large"
	}
	return c
}
