package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
)

// An approval of `bash build.sh` is an approval of what build.sh held when the person saw it:
// the agent can rewrite the file between two calls of the same command text. So Resolve
// records the content of every file a bash command runs as code, and an allow rule or grant
// that recorded them holds only while they are the same. An allow rule or grant stored
// without a record, on a command that runs a file, does not hold: nothing says what it
// approved, and a stored value that cannot be verified must not widen.

// Digest words standing in for a file's SHA-256.
const (
	ScriptAbsent       = "absent"       // nothing there: creating it is a change
	digestUnverifiable = "unverifiable" // not a regular file, too large or unreadable: never holds
)

// maxScriptSize bounds the bytes hashed for one file; a larger one is unverifiable.
const maxScriptSize = 8 << 20

// scriptRunners take the file they run as their first operand.
var scriptRunners = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true,
	"python": true, "python2": true, "python3": true, "perl": true, "ruby": true, "node": true, "nodejs": true,
	"php": true, "lua": true, "tclsh": true, "source": true, ".": true,
}

// inlineCode options hand a runner its code (or a module) instead of a file.
var inlineCode = map[string]bool{"-c": true, "-e": true, "-E": true, "-m": true, "--eval": true, "-p": true, "--print": true}

// optionValues are runners' options that may take the next word as their value (bash -o
// pipefail, python -W error, node -r module).
var optionValues = map[string]bool{"-o": true, "+o": true, "-O": true, "+O": true, "-W": true, "-X": true,
	"-r": true, "--require": true, "-I": true}

// makeNames are the files make reads when none is named, in its order.
var makeNames = []string{"GNUmakefile", "makefile", "Makefile"}

// scriptDigests is the record of the files inside the workspace that sh runs as code, one
// "digest  path" line each (sha256sum's format, workspace-relative paths), sorted; "" when
// the command runs none.
func scriptDigests(v View, sh *Shell) string {
	var lines []string
	moves := changesFolder(sh)
	for _, c := range sh.calls {
		words := scriptWords(c.tokens())
		if c.dynamic && runsFiles(c.tokens()) {
			// A word that is not known statically may be the script itself.
			lines = append(lines, digestUnverifiable+"  "+strings.Join(c.words(), " "))
		}
		for _, word := range words {
			line, ok := digestLine(v, word)
			if moves && !path.IsAbs(word) {
				// After cd, a relative word names a file in another folder than resolved here.
				line, ok = digestUnverifiable+"  "+word, true
			}
			if ok {
				lines = append(lines, line)
			}
		}
	}
	slices.Sort(lines)
	return strings.Join(slices.Compact(lines), "\n")
}

// changesFolder reports a command that may change its working folder (cd, pushd, popd,
// anywhere in it, nested shells included).
func changesFolder(sh *Shell) bool {
	for _, c := range sh.calls {
		for _, t := range c.tokens() {
			if t == "cd" || t == "pushd" || t == "popd" {
				return true
			}
		}
	}
	return false
}

// runsFiles reports a runner or make among tokens: a command that may run a file.
func runsFiles(tokens []string) bool {
	for _, t := range tokens {
		if base := path.Base(t); scriptRunners[base] || base == "make" || base == "gmake" {
			return true
		}
	}
	return false
}

// scriptWords are the words of one command that name a file it runs: the command itself when
// it is a path (./build.sh), the script a runner is given, the makefiles make reads. A word
// taken wrongly only narrows what a grant holds for.
func scriptWords(tokens []string) []string {
	var out []string
	for i, t := range tokens {
		if strings.Contains(t, "/") && (i == 0 || slices.Contains(wrappers, tokens[i-1])) {
			out = append(out, t)
		}
		switch base := path.Base(t); {
		case scriptRunners[base]:
			out = append(out, scriptOperands(tokens[i+1:])...)
		case base == "make" || base == "gmake":
			out = append(out, makefiles(tokens[i+1:])...)
		}
	}
	return out
}

// scriptOperands are the words after a runner's options that may name the file it runs: the
// first operand, and the value of an option that may take one (the word is recorded either
// way, since a runner this table misreads could take it for the script).
func scriptOperands(args []string) []string {
	var out []string
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "--":
			return append(out, args[j+1:min(j+2, len(args))]...)
		case inlineCode[a]:
			return out
		case optionValues[a] && j+1 < len(args):
			out = append(out, args[j+1])
			j++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			return append(out, a)
		}
	}
	return out
}

// makefiles are the files make reads: those named by -f, else the default names, in the
// folder -C names.
func makefiles(args []string) []string {
	var named []string
	dir := ""
	for j := 0; j < len(args); j++ {
		a, next := args[j], ""
		if j+1 < len(args) {
			next = args[j+1]
		}
		switch {
		case a == "-f" || a == "--file" || a == "--makefile":
			named, j = append(named, next), j+1
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			named = append(named, a[strings.IndexByte(a, '=')+1:])
		case strings.HasPrefix(a, "-f") && !strings.HasPrefix(a, "--"):
			named = append(named, a[2:])
		case a == "-C" || a == "--directory":
			dir, j = next, j+1
		case strings.HasPrefix(a, "--directory="):
			dir = a[len("--directory="):]
		}
	}
	if len(named) == 0 {
		named = makeNames
	}
	out := make([]string, 0, len(named))
	for _, f := range named {
		if dir != "" && !path.IsAbs(f) {
			f = dir + "/" + f
		}
		out = append(out, f)
	}
	return out
}

// digestLine resolves word like any path the command names and records its content.
func digestLine(v View, word string) (string, bool) {
	if v == nil || word == "" {
		return "", false
	}
	t := v.Resolve(word)
	switch {
	case !t.Resolved:
		return digestUnverifiable + "  " + word, true
	case !t.Inside:
		return "", false // the agent's own writes stay inside the workspace, save in Full access
	}
	return fileDigest(t.Path) + "  " + t.Rel, true
}

func fileDigest(p string) string {
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ScriptAbsent
	case err != nil || !info.Mode().IsRegular() || info.Size() > maxScriptSize:
		return digestUnverifiable
	}
	f, err := os.Open(p)
	if err != nil {
		return digestUnverifiable
	}
	defer f.Close()
	h := sha256.New()
	if n, err := io.Copy(h, io.LimitReader(f, maxScriptSize+1)); err != nil || n > maxScriptSize {
		return digestUnverifiable
	}
	return hex.EncodeToString(h.Sum(nil))
}

// scriptsHold reports whether an allow rule or grant that recorded approved still holds for a
// call whose files are now as recorded in now: the same files with the same content, each
// one verifiable.
func scriptsHold(approved, now string) bool {
	return approved == now && !strings.Contains(now, digestUnverifiable+"  ")
}

// staleScripts explains an ask that a grant or allow rule would have answered but for the files
// the command runs: they changed since it was approved, or it was approved before their
// content was recorded.
func staleScripts(v Verdict, grants []Grant, rules []Rule, c Resolved, sh *Shell) Verdict {
	if v.Decision != DecideAsk || c.Call.Kind != KindBash || c.Scripts == "" {
		return v
	}
	candidates := make([]Rule, 0, len(grants)+len(rules))
	for _, g := range grants {
		candidates = append(candidates, g.rule())
	}
	for _, r := range rules {
		if r.Effect == Allow {
			candidates = append(candidates, r)
		}
	}
	for _, r := range candidates {
		if r.match(c, sh) != matched || scriptsHold(r.Scripts, c.Scripts) {
			continue
		}
		var names []string
		for _, ch := range ScriptChanges(r.Scripts, c.Scripts) {
			names = append(names, ch.Path)
		}
		switch {
		case strings.Contains(c.Scripts, digestUnverifiable+"  "):
			v.ReasonKey, names = "gate.reason.script_unverifiable", unverifiableScripts(c.Scripts)
		case r.Scripts == "":
			v.ReasonKey = "gate.reason.script_unverified"
		default:
			v.ReasonKey = "gate.reason.script_changed"
		}
		v.ReasonArgs = map[string]any{"Scripts": strings.Join(names, ", ")}
		v.ApprovedScripts = r.Scripts
		return v
	}
	return v
}

func unverifiableScripts(record string) []string {
	var out []string
	for _, f := range ScriptDigests(record) {
		if f.Now == digestUnverifiable {
			out = append(out, f.Path)
		}
	}
	return out
}

// ScriptChange is a file whose content differs from what an approval recorded: Approved and
// Now are SHA-256 digests in hex, or a word standing in for one ("absent", "unverifiable").
type ScriptChange struct {
	Path, Approved, Now string
}

// ScriptChanges lists the files whose record differs between approved and now (every file of
// now when nothing was approved); a file missing from now has Now "".
func ScriptChanges(approved, now string) []ScriptChange {
	was := map[string]string{}
	for _, line := range strings.Split(approved, "\n") {
		if digest, name, ok := strings.Cut(line, "  "); ok {
			was[name] = digest
		}
	}
	var out []ScriptChange
	for _, line := range strings.Split(now, "\n") {
		digest, name, ok := strings.Cut(line, "  ")
		if ok && was[name] != digest {
			out = append(out, ScriptChange{Path: name, Approved: was[name], Now: digest})
		}
		delete(was, name)
	}
	for _, name := range slices.Sorted(maps.Keys(was)) { // no longer run from inside the workspace
		out = append(out, ScriptChange{Path: name, Approved: was[name]})
	}
	return out
}

// ScriptDigests lists the files of a record with their digests, as ScriptChanges does.
func ScriptDigests(record string) []ScriptChange {
	return ScriptChanges("", record)
}
