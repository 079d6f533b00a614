package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/mode"
)

const (
	globMaxResults = 1000
	// globScanCap bounds memory on a huge tree: the walk stops after this many matches.
	globScanCap = 100_000
)

var globSpec = spec{tool: mode.ToolGlob, params: []param{
	{name: "pattern", typ: "string", title: "Pattern", required: true, nonEmpty: true,
		description: `Glob pattern relative to the workspace folder, such as "**/*.go" or "src/{app,lib}/*.ts". A trailing "/" lists folders.`},
}}

const globDescription = `Finds files by name pattern and returns their paths relative to the workspace folder, one per line, sorted.
Syntax: "*" matches within one path segment, "?" one character, "[abc]" a character class, "**" as a whole segment any number of folders (including none), "{a,b}" alternatives. "*.go" matches only at the top level; use "**/*.go" for every depth.
Matches files (and symlinks); end the pattern with "/" to list folders instead, e.g. "*/" or "src/**/".
The .git folder is skipped and symlinked folders are not followed. At most 1000 paths are returned.`

type globInput struct {
	Pattern string `json:"pattern"`
}

type globTool struct{ about }

var globSchema = globSpec.schema()

func (globTool) decode(input json.RawMessage) (globInput, globPattern, error) {
	var in globInput
	if err := globSpec.decode(input, &in); err != nil {
		return in, globPattern{}, err
	}
	gp, err := compileGlob(in.Pattern)
	if err != nil {
		return in, gp, errs.Wrap(InvalidPattern, err, "Pattern", in.Pattern, "Problem", err.Error())
	}
	return in, gp, nil
}

// Describe names the pattern's static folder as the path, so "../other/**" reaches the gate as
// a path outside the workspace.
func (t globTool) Describe(input json.RawMessage) (Call, error) {
	in, gp, err := t.decode(input)
	if err != nil {
		return Call{}, err
	}
	return Call{Gate: gateCall(mode.ToolGlob, gp.base, ""), Summary: summary("pattern", in.Pattern)}, nil
}

func (t globTool) Run(ctx context.Context, env Env, input json.RawMessage) (Result, error) {
	_, gp, err := t.decode(input)
	if err != nil {
		return Result{}, err
	}
	at, err := locate(mode.ToolGlob, env, gp.base)
	if err != nil {
		return Result{}, err
	}
	defer at.close()
	found, err := gp.find(ctx, at)
	if err != nil {
		return Result{}, err
	}
	return globResult(found), nil
}

// find lists the matches below the pattern's base, shown as base joined with the path below it.
// The walk goes through a root opened at the base, so no symlink leads it out of that folder.
func (gp globPattern) find(ctx context.Context, at *site) ([]string, error) {
	if len(gp.segs) == 0 {
		return gp.literal(at), nil
	}
	dir, err := at.openDir()
	if err != nil {
		if err := at.fail(err); errs.KindOf(err) == TargetChanged {
			return nil, err
		}
		// A base that does not exist has no matches; that is an answer, not a failure.
		return nil, nil
	}
	defer dir.Close()
	var found []string
	err = fs.WalkDir(dir.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return errs.Wrap(ToolCancelled, ctx.Err(), "Tool", string(mode.ToolGlob))
		}
		if err != nil || p == "." {
			return nil // an unreadable folder is skipped, like find(1) does after its message
		}
		return gp.visit(p, d, &found)
	})
	if errors.Is(err, errScanCap) {
		err = nil
	}
	return found, err
}

var errScanCap = errors.New("scan cap reached")

// visit judges one entry; rel is its slash-separated path below the base.
func (gp globPattern) visit(rel string, d fs.DirEntry, found *[]string) error {
	if d.IsDir() && d.Name() == ".git" {
		return fs.SkipDir
	}
	match, deeper := gp.match(strings.Split(rel, "/"))
	if match && d.IsDir() == gp.dirsOnly {
		*found = append(*found, gp.show(rel, d.IsDir()))
		if len(*found) >= globScanCap {
			return errScanCap
		}
	}
	if d.IsDir() && !deeper {
		return fs.SkipDir
	}
	return nil
}

// literal handles a pattern without wildcards: it matches the one path it names, if that exists.
func (gp globPattern) literal(at *site) []string {
	info, err := at.fs.Stat(at.name)
	if err != nil || info.IsDir() != gp.dirsOnly {
		return nil
	}
	return []string{gp.show("", info.IsDir())}
}

// show is how a match is reported: relative to the workspace as the pattern was, so the model
// can pass it straight to read.
func (gp globPattern) show(rel string, dir bool) string {
	p := path.Join(gp.base, rel)
	if dir {
		p += "/"
	}
	return p
}

func globResult(found []string) Result {
	if len(found) == 0 {
		return Result{Output: "No files match the pattern.", Display: display.Say("tool.result.glob.none")}
	}
	slices.Sort(found)
	if len(found) <= globMaxResults {
		return Result{Output: strings.Join(found, "\n")}
	}
	total := fmt.Sprint(len(found))
	if len(found) >= globScanCap {
		total = "more than " + total
	}
	out := strings.Join(found[:globMaxResults], "\n") + fmt.Sprintf(
		"\n[Showing the first %d of %s matches. Use a narrower pattern to see the rest.]", globMaxResults, total)
	return Result{Output: out, Truncated: true,
		Display: display.Say("tool.result.glob.more", "Shown", globMaxResults, "Total", total).Last(1)}
}
