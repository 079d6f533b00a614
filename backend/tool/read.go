package tool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

const (
	readDefaultLimit = 2000
	readByteCap      = 256 << 10 // of formatted output; a larger page is cut and labelled partial
	readLineCap      = 2000      // bytes per line; longer lines are cut and labelled
)

var readSpec = spec{tool: mode.ToolRead, params: []param{
	{name: "path", typ: "string", title: "Path", required: true, nonEmpty: true,
		description: "The file to read, relative to the workspace folder or absolute."},
	{name: "offset", typ: "integer", title: "First line", min: 1, def: 1,
		description: "The 1-based line number to start at."},
	{name: "limit", typ: "integer", title: "Number of lines", min: 1, def: readDefaultLimit,
		description: "How many lines to read at most."},
}}

const readDescription = `Reads a text file and returns its lines numbered like "cat -n" (line number, tab, text).
Reads up to 2000 lines from the start by default; use offset (1-based) and limit to page through a long file.
Output is capped at 256 KiB and lines longer than 2000 bytes are cut. Whenever you get less than the whole file, the output starts with a "[Partial read ...]" line that says which lines you got and where to continue; never treat such output as the full file.
Binary files and folders are refused; use glob to list a folder.`

type readInput struct {
	Path   string `json:"path"`
	Offset int    `json:"offset"`
	Limit  int    `json:"limit"`
}

type readTool struct{ about }

var readSchema = readSpec.schema()

func (readTool) decode(input json.RawMessage) (readInput, error) {
	var in readInput
	if err := readSpec.decode(input, &in); err != nil {
		return in, err
	}
	if in.Offset == 0 {
		in.Offset = 1
	}
	if in.Limit == 0 {
		in.Limit = readDefaultLimit
	}
	return in, nil
}

func (t readTool) Describe(input json.RawMessage) (Call, error) {
	in, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	pairs := []string{"path", in.Path}
	if in.Offset != 1 || in.Limit != readDefaultLimit {
		pairs = append(pairs, "offset", strconv.Itoa(in.Offset), "limit", strconv.Itoa(in.Limit))
	}
	return Call{Gate: gateCall(mode.ToolRead, in.Path, ""), Summary: summary(pairs...)}, nil
}

func (t readTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	at, err := locate(mode.ToolRead, env, in.Path)
	if err != nil {
		return Result{}, err
	}
	defer at.close()
	f, err := at.openRegular()
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	if isBinary(r) {
		return Result{}, errs.New(BinaryFile, "Path", in.Path)
	}
	pg, err := readPage(ctx, r, in.Offset, in.Limit)
	if err != nil {
		return Result{}, fileError(mode.ToolRead, in.Path, err)
	}
	return pg.result(in.Path, in.Offset)
}

// page is the part of a file one read returns.
type page struct {
	text   bytes.Buffer
	last   int  // the last line shown; offset-1 when none
	total  int  // lines in the file
	cut    int  // shown lines cut at readLineCap
	capped bool // stopped at readByteCap before limit
}

func readPage(ctx context.Context, r *bufio.Reader, offset, limit int) (*page, error) {
	pg := &page{last: offset - 1}
	n, stopped := 0, false
	err := eachLine(r, readLineCap, func(line []byte, cut bool) bool {
		n++
		if n < offset {
			return true
		}
		if stopped = n-offset >= limit || !pg.add(n, line, cut); stopped {
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	pg.total = n
	if stopped {
		rest, err := countLines(ctx, r)
		pg.total += rest
		return pg, err
	}
	return pg, nil
}

// add appends line n unless that would pass readByteCap.
func (pg *page) add(n int, line []byte, cut bool) bool {
	entry := fmt.Sprintf("%6d\t%s", n, line)
	if cut {
		entry += fmt.Sprintf(" [line cut at %d bytes]", readLineCap)
	}
	if pg.text.Len()+len(entry)+1 > readByteCap {
		pg.capped = true
		return false
	}
	pg.text.WriteString(entry)
	pg.text.WriteByte('\n')
	pg.last = n
	if cut {
		pg.cut++
	}
	return true
}

// result labels anything less than the whole file as partial, first thing in the output, so a
// partial read is never mistaken for a full one (R-MODE-3).
func (pg *page) result(path string, offset int) (Result, error) {
	if offset > pg.total && !(offset == 1 && pg.total == 0) {
		return Result{}, errs.New(OffsetPastEnd, "Path", path, "Offset", offset, "Lines", pg.total)
	}
	if pg.total == 0 {
		return Result{Output: fmt.Sprintf("[%s is empty]", path), Display: display.Say("tool.result.read.empty", "Path", path)}, nil
	}
	if offset == 1 && pg.last == pg.total && pg.cut == 0 {
		return Result{Output: pg.text.String()}, nil
	}
	return Result{Output: pg.label(path, offset) + "\n" + pg.text.String(), Truncated: true,
		Display: display.Say("tool.result.read.partial", "Path", path, "From", offset, "To", pg.last, "Lines", pg.total).First(1)}, nil
}

func (pg *page) label(path string, offset int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[Partial read of %s: lines %d-%d of %d.", path, offset, pg.last, pg.total)
	if pg.capped {
		fmt.Fprintf(&b, " Output stopped at the %d KiB limit.", readByteCap>>10)
	}
	if pg.cut > 0 {
		fmt.Fprintf(&b, " %d long line(s) were cut at %d bytes.", pg.cut, readLineCap)
	}
	if pg.last < pg.total {
		fmt.Fprintf(&b, " Continue with offset=%d.", pg.last+1)
	}
	b.WriteString("]")
	return b.String()
}

// countLines counts the lines left in r; a last line without a newline counts too.
func countLines(ctx context.Context, r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		if err := ctx.Err(); err != nil {
			return n, errs.Wrap(ToolCancelled, err, "Tool", string(mode.ToolRead))
		}
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte("\n"))
			last = buf[k-1]
		}
		if err == io.EOF {
			if last != '\n' {
				n++
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
