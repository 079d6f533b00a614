package tool

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

const (
	grepMaxMatches = 1000
	grepByteCap    = 64 << 10 // of output
	grepShownLine  = 500      // bytes of a matching line shown
	grepScanLine   = 64 << 10 // bytes of a line searched; the rest of a longer line is skipped
)

var grepSpec = spec{tool: mode.ToolGrep, params: []param{
	{name: "pattern", typ: "string", title: "Pattern", required: true, nonEmpty: true,
		description: `Regular expression (Go RE2 syntax), e.g. "func \\w+Handler" or "(?i)todo".`},
	{name: "path", typ: "string", title: "Path", nonEmpty: true, def: ".",
		description: "File or folder to search, relative to the workspace folder or absolute. Defaults to the whole workspace."},
}}

const grepDescription = `Searches file contents with a regular expression (Go RE2 syntax; "(?i)" makes it case-insensitive) and returns matching lines as "file:line:text", file paths relative to the workspace folder.
Searches every file under path (default: the workspace folder), in path order. The .git folder, binary files and symlinks are skipped.
At most 1000 matching lines (64 KiB) are returned, and each shown line is cut at 500 bytes; narrow the pattern or path when the output says it was capped.`

type grepInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

type grepTool struct{ about }

var grepSchema = grepSpec.schema()

func (grepTool) decode(input json.RawMessage) (grepInput, *regexp.Regexp, error) {
	var in grepInput
	if err := grepSpec.decode(input, &in); err != nil {
		return in, nil, err
	}
	if in.Path == "" {
		in.Path = "."
	}
	re, err := regexp.Compile(in.Pattern)
	if err != nil {
		return in, nil, errs.Wrap(InvalidPattern, err, "Pattern", in.Pattern, "Problem", err.Error())
	}
	return in, re, nil
}

func (t grepTool) Describe(input json.RawMessage) (Call, error) {
	in, _, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	return Call{Gate: gateCall(mode.ToolGrep, in.Path, ""), Summary: summary("pattern", in.Pattern, "path", in.Path)}, nil
}

func (t grepTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	in, re, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	at, err := locate(mode.ToolGrep, env, in.Path)
	if err != nil {
		return Result{}, err
	}
	defer at.close()
	s := &grepSearch{re: re, sensitive: env.Sensitive}
	if err := s.run(ctx, at); err != nil {
		return Result{}, err
	}
	return s.result(), nil
}

// grepSearch collects matches until a cap is reached.
type grepSearch struct {
	re      *regexp.Regexp
	out     bytes.Buffer
	matches int
	capped  bool
	// sensitive is the list whose files a folder search skips; skipped names what it skipped.
	sensitive policy.SensitiveList
	skipped   []string
}

// grepSkippedShown bounds how many skipped names the output lists; the count is always there.
const grepSkippedShown = 10

var errGrepCap = errors.New("grep cap reached")

func (s *grepSearch) run(ctx context.Context, at *site) error {
	info, err := at.stat()
	if err != nil {
		return err
	}
	switch {
	case info.IsDir():
		err = s.walk(ctx, at)
	case info.Mode().IsRegular():
		err = s.one(at)
	default:
		return errs.New(NotAFile, "Path", at.shown) // a named pipe would block the search
	}
	if errors.Is(err, errGrepCap) {
		return nil
	}
	return err
}

// one searches the single file the call names.
func (s *grepSearch) one(at *site) error {
	f, err := at.openRegular()
	if err != nil {
		return err
	}
	defer f.Close()
	return s.search(f, filepath.ToSlash(at.shown))
}

// walk searches regular files only, through a root opened at the folder: symlinks are not
// followed, so the search stays in the folder the gate resolved even if one is swapped in
// meanwhile, and devices or pipes could block forever.
func (s *grepSearch) walk(ctx context.Context, at *site) error {
	dir, err := at.openDir()
	if err != nil {
		return at.fail(err)
	}
	defer dir.Close()
	shown := filepath.ToSlash(at.shown)
	// A folder that is itself sensitive was asked about and approved as a whole.
	_, approved := s.sensitive.Match(at.abs)
	return fs.WalkDir(dir.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return errs.Wrap(ToolCancelled, ctx.Err(), "Tool", string(mode.ToolGrep))
		}
		switch {
		case err != nil:
			return nil // an unreadable folder or file is skipped, as grep -r goes on after one
		case d.IsDir() && d.Name() == ".git":
			return fs.SkipDir
		case p != "." && !approved && s.sensitiveEntry(at.abs, p):
			s.skipped = append(s.skipped, path.Join(shown, p))
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		case !d.Type().IsRegular():
			return nil
		}
		return s.file(dir, p, path.Join(shown, p))
	})
}

// sensitiveEntry reports an entry of the walk the sensitive list covers, by its path below
// the folder searched (links are not followed, so that is where it really is).
func (s *grepSearch) sensitiveEntry(root, p string) bool {
	_, ok := s.sensitive.Match(filepath.Join(root, filepath.FromSlash(p)))
	return ok
}

// file searches one file met in the walk; an unreadable one is skipped silently, as grep -r does.
func (s *grepSearch) file(dir *os.Root, name, shown string) error {
	f, err := dir.Open(filepath.FromSlash(name))
	if err != nil {
		return nil
	}
	defer f.Close()
	return s.search(f, shown)
}

// search scans r line by line; a binary file is skipped silently, as grep -rI does.
func (s *grepSearch) search(f io.Reader, shown string) error {
	r := bufio.NewReaderSize(f, 64<<10)
	if isBinary(r) {
		return nil
	}
	var stop error
	n := 0
	// A read error part way through ends this file's search; what matched so far stands.
	_ = eachLine(r, grepScanLine, func(line []byte, _ bool) bool {
		n++
		if s.re.Match(line) {
			stop = s.add(shown, n, line)
		}
		return stop == nil
	})
	return stop
}

func (s *grepSearch) add(file string, n int, line []byte) error {
	text := cutRunes(line, grepShownLine)
	entry := fmt.Sprintf("%s:%d:%s", file, n, text)
	if len(text) < len(line) {
		entry += " […]"
	}
	if s.matches >= grepMaxMatches || s.out.Len()+len(entry)+1 > grepByteCap {
		s.capped = true
		return errGrepCap
	}
	s.out.WriteString(entry)
	s.out.WriteByte('\n')
	s.matches++
	return nil
}

func (s *grepSearch) result() Result {
	r := s.matched()
	if len(s.skipped) == 0 {
		return r
	}
	names := s.skipped
	if len(names) > grepSkippedShown {
		names = append(names[:grepSkippedShown:grepSkippedShown], "…")
	}
	list := strings.Join(names, ", ")
	r.Output += fmt.Sprintf("\n[Skipped %d sensitive file(s) or folder(s) on the sensitive paths list, unread: %s. Reading one by its path asks the person first (with full access it is refused).]",
		len(s.skipped), list)
	switch {
	case r.Display == nil:
		r.Display = display.Say("tool.grep.sensitive_skipped", "Count", len(s.skipped), "Names", list).Last(1)
	case s.matches == 0:
		// Nothing matched in what was read: the skipped files are the news.
		r.Display = display.Say("tool.grep.sensitive_skipped", "Count", len(s.skipped), "Names", list)
	}
	return r
}

func (s *grepSearch) matched() Result {
	if s.matches == 0 {
		return Result{Output: "No matches.", Display: display.Say("tool.result.grep.none")}
	}
	out := strings.TrimSuffix(s.out.String(), "\n")
	if !s.capped {
		return Result{Output: out}
	}
	out += fmt.Sprintf("\n[Stopped after %d matching lines (limit %d lines or %d KiB). Narrow the pattern or path to see the rest.]",
		s.matches, grepMaxMatches, grepByteCap>>10)
	return Result{Output: out, Truncated: true, Display: display.Say("tool.result.grep.more", "Count", s.matches).Last(1)}
}
