package policy

import (
	"fmt"
	"path"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"agentdesk/backend/mode"
)

// FuzzModesFailClosed feeds arbitrary execution-mode and permission strings to the decoders and
// to Evaluate. The invariant: an unrecognized mode never yields allow for write, edit or bash —
// not even with a grant and an allow rule that would otherwise let the call through.
func FuzzModesFailClosed(f *testing.F) {
	for _, m := range []string{"chat", "propose", "analyze", "plan", "execute", "debug", "verified", "agent", "read-only", "", "EXECUTE", "execute ", "full"} {
		for _, p := range []string{"ask", "auto", "full", "bypass", "acceptEdits", "default", "", "Full", "yolo"} {
			f.Add(m, p, uint8(1), true)
		}
	}
	f.Fuzz(func(t *testing.T, rawMode, rawPerm string, kindIndex uint8, inside bool) {
		kind := Kinds[int(kindIndex)%len(Kinds)]
		checkDecoders(t, rawMode, rawPerm)
		call := fuzzCall(kind, inside)
		everything := Input{SensitiveMasked: true,
			Mode: mode.ExecutionMode(rawMode), Permission: PermissionMode(rawPerm), Call: call,
			Grants: []Grant{{Kind: kind}}, Rules: []Rule{{ID: "all", Effect: Allow, Kind: kind}},
		}
		v := Evaluate(everything)
		unrecognized := !everything.Mode.Known() || !everything.Permission.Valid()
		if unrecognized && kind.Mutates() && v.Decision == DecideAllow {
			t.Fatalf("mode %q / permission %q allowed %s (%s)", rawMode, rawPerm, kind, v.ReasonKey)
		}
		decodedMode, modeOK := mode.DecodeExecutionMode(rawMode)
		decodedPerm, permOK := DecodePermission(rawPerm)
		v = Evaluate(Input{SensitiveMasked: true, Mode: decodedMode, Permission: decodedPerm, Call: call})
		if (!modeOK || !permOK) && kind.Mutates() && v.Decision == DecideAllow {
			t.Fatalf("decoded mode %q / permission %q allowed %s (%s)", decodedMode, decodedPerm, kind, v.ReasonKey)
		}
		// Whatever the mode strings, a sensitive path is never read or changed unasked.
		tools := []string{"read", "grep", "edit", "write", "bash"}
		secret := sensitiveCall(tools[int(kindIndex)%len(tools)], ".ssh/id_ed25519")
		v = Evaluate(Input{SensitiveMasked: true, Sandboxed: true, Mode: mode.ExecutionMode(rawMode), Permission: PermissionMode(rawPerm),
			Call: secret, Grants: []Grant{{Kind: secret.Call.Kind}}, Rules: []Rule{{ID: "all", Effect: Allow, Kind: secret.Call.Kind}}})
		if v.Decision == DecideAllow {
			t.Fatalf("mode %q / permission %q allowed a sensitive %s (%s)", rawMode, rawPerm, secret.Call.Kind, v.ReasonKey)
		}
	})
}

func fuzzCall(kind Kind, inside bool) Resolved {
	c := Resolved{Call: Call{Kind: kind, Path: "f", Command: "touch f"}}
	c.Target = Target{Resolved: true, Path: "/elsewhere/f"}
	if inside {
		c.Target = Target{Resolved: true, Path: "/ws/f", Rel: "f", Inside: true}
	}
	return c
}

// checkDecoders holds the decoders to "fold or fail closed, never widen".
func checkDecoders(t *testing.T, rawMode, rawPerm string) {
	if p, ok := DecodePermission(rawPerm); !ok && p != Ask {
		t.Fatalf("unrecognized permission %q read as %s", rawPerm, p)
	} else if !p.Valid() {
		t.Fatalf("DecodePermission(%q) returned a non-canonical %q", rawPerm, p)
	}
	if m, ok := mode.DecodeExecutionMode(rawMode); !ok && m != mode.ModeAnalyze {
		t.Fatalf("unrecognized execution mode %q read as %s", rawMode, m)
	}
	d := mode.DecodePreference(rawMode, rawPerm)
	if err := d.Preference.Validate(); err != nil {
		t.Fatalf("DecodePreference(%q, %q) = invalid %+v", rawMode, rawPerm, d.Preference)
	}
	if !d.Recognized() {
		p := d.Preference
		if p != (mode.Preference{Interaction: mode.Chat}) && p != (mode.Preference{Interaction: mode.Smart, Override: mode.Analyze}) {
			t.Fatalf("unrecognized stored preference (%q, %q) widened to %+v", rawMode, rawPerm, p)
		}
	}
}

// FuzzShellAllowlist feeds arbitrary text to the shell analysis, against the in-memory
// workspace of newMemView. The invariant: nothing that writes, or reads outside the workspace,
// is auto-allowed. The oracle is independent of the analysis code: it re-parses the command,
// walks every node, and a read-only verdict is wrong if the tree holds anything but plain
// commands — a redirection, a substitution, a variable, a subshell, a function, an assignment
// — or if a command word is a known writer, or if a path argument, expanded by the oracle's
// own model of brace and glob expansion, names a file outside the workspace or inside .git.
func FuzzShellAllowlist(f *testing.F) {
	for _, s := range shellSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		view := newMemView()
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				panic(fmt.Sprintf("HANG %q", cmd))
			}
		}()
		sh := AnalyzeShell(cmd, view)
		if !sh.ReadOnly {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("%q does not parse but was allowed", cmd)
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			if why := writesOrHides(n); why != "" {
				t.Fatalf("%q was auto-allowed but holds %s", cmd, why)
			}
			if call, ok := n.(*syntax.CallExpr); ok {
				checkModelPaths(t, view, cmd, call)
			}
			return true
		})
		for _, c := range sh.Commands {
			if w := knownWriter(c); w != "" {
				t.Fatalf("%q was auto-allowed but runs %q", cmd, w)
			}
		}
	})
}

// pathFreeOracle are the allowlisted commands whose arguments are not paths.
var pathFreeOracle = map[string]bool{"echo": true, "pwd": true, "true": true, "whoami": true, "uname": true,
	"which": true, "basename": true, "dirname": true, "git": true}

// checkModelPaths expands each unquoted argument with the oracle's model and checks where it
// leads. Quoted words expand to themselves and are checked as they are written.
func checkModelPaths(t *testing.T, view *memView, cmd string, call *syntax.CallExpr) {
	var words []string
	for _, w := range call.Args {
		raw := cmd[w.Pos().Offset():w.End().Offset()]
		if strings.ContainsAny(raw, "'\"\\$`") {
			return // quoting the model does not undo; such words are checked by the analysis tests
		}
		for _, b := range modelBraces(raw) {
			words = append(words, modelGlob(view, b)...)
		}
	}
	if len(words) == 0 || pathFreeOracle[words[0]] {
		return
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if tgt := view.Resolve(w); !tgt.Inside || tgt.Protected != NotProtected {
			t.Fatalf("%q was auto-allowed but %q leads to %s (protected %q)", cmd, w, tgt.Path, tgt.Protected)
		}
	}
}

// modelBraces is bash's brace expansion, written independently of the analysis: the first
// "{…}" holding a top-level comma, or a "x..y" sequence of letters or numbers, is expanded
// and the results expanded again. An empty result is dropped, as bash drops it.
func modelBraces(w string) []string {
	open, close := braceSpan(w)
	if open < 0 {
		if w == "" {
			return nil
		}
		if strings.HasPrefix(w, "~") {
			w = memHome + w[1:]
		}
		return []string{w}
	}
	var out []string
	for _, alt := range braceAlternatives(w[open+1 : close]) {
		out = append(out, modelBraces(w[:open]+alt+w[close+1:])...)
		if len(out) > 4*maxFields {
			break // the analysis refuses such a word; the model need not finish it
		}
	}
	return out
}

// braceSpan finds the first brace pair that expands: one with a comma at its own level or a
// sequence.
func braceSpan(w string) (int, int) {
	for open := 0; open < len(w); open++ {
		if w[open] != '{' {
			continue
		}
		depth := 0
		for i := open; i < len(w); i++ {
			switch w[i] {
			case '{':
				depth++
			case '}':
				depth--
			}
			if depth == 0 {
				if len(braceAlternatives(w[open+1:i])) > 1 {
					return open, i
				}
				break
			}
		}
	}
	return -1, -1
}

func braceAlternatives(body string) []string {
	if seq := braceSequence(body); seq != nil {
		return seq
	}
	var alts []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				alts, start = append(alts, body[start:i]), i+1
			}
		}
	}
	if alts == nil {
		return nil
	}
	return append(alts, body[start:])
}

func braceSequence(body string) []string {
	from, to, ok := strings.Cut(body, "..")
	if !ok || len(from) != 1 || len(to) != 1 || !alnum(from[0]) || !alnum(to[0]) {
		return nil // bash sequences run between letters or digits only
	}
	var out []string
	for c := from[0]; c <= to[0] && c >= from[0]; c++ {
		out = append(out, string(c))
		if c == 255 {
			break
		}
	}
	return out
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// modelGlob expands "*", "?" and "[…]" segment by segment against the view; a pattern that
// matches nothing stays as written, as in bash.
func modelGlob(view *memView, w string) []string {
	if !strings.ContainsAny(w, "*?[") {
		return []string{w}
	}
	base := memRoot
	if strings.HasPrefix(w, "/") {
		base = "/"
	}
	matches := []string{""}
	for _, seg := range strings.Split(strings.Trim(w, "/"), "/") {
		var next []string
		for _, m := range matches {
			next = append(next, modelSegment(view, base, m, seg)...)
		}
		if matches = next; len(matches) == 0 {
			return []string{w}
		}
	}
	if base == "/" {
		for i := range matches {
			matches[i] = "/" + matches[i]
		}
	}
	return matches
}

func modelSegment(view *memView, base, dir, seg string) []string {
	join := func(name string) string {
		if dir == "" {
			return name
		}
		return dir + "/" + name
	}
	if !strings.ContainsAny(seg, "*?[") {
		return []string{join(seg)}
	}
	entries, _ := view.ReadDir(path.Join(base, dir))
	var out []string
	for _, e := range entries {
		ok, err := path.Match(seg, e.Name())
		if err == nil && ok && (!strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(seg, ".")) {
			out = append(out, join(e.Name()))
		}
	}
	return out
}

// writesOrHides names a node that can write or hide what runs; "" for the harmless ones.
func writesOrHides(n syntax.Node) string {
	switch n := n.(type) {
	case nil, *syntax.File, *syntax.Word, *syntax.Lit, *syntax.Comment: // nil: Walk leaving a node
		return ""
	case *syntax.Stmt:
		if len(n.Redirs) > 0 || n.Background || n.Coprocess || n.Disown {
			return "a redirection or background job"
		}
		return ""
	case *syntax.CallExpr:
		if len(n.Assigns) > 0 {
			return "an assignment"
		}
		return ""
	case *syntax.BinaryCmd:
		if n.Op == syntax.AndStmt || n.Op == syntax.OrStmt || n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
			return ""
		}
		return "operator " + n.Op.String()
	case *syntax.SglQuoted:
		if n.Dollar {
			return "an ANSI-C string"
		}
		return ""
	case *syntax.DblQuoted:
		if n.Dollar {
			return "a localized string"
		}
		return ""
	}
	return fmt.Sprintf("a %T", n)
}

// knownWriters are command words that write, delete, run other programs or reach the network.
var knownWriters = map[string]bool{
	"rm": true, "mv": true, "cp": true, "dd": true, "tee": true, "touch": true, "mkdir": true, "rmdir": true,
	"chmod": true, "chown": true, "ln": true, "install": true, "truncate": true, "shred": true, "sed": true,
	"awk": true, "perl": true, "python": true, "python3": true, "node": true, "sh": true, "bash": true,
	"zsh": true, "eval": true, "exec": true, "source": true, ".": true, "xargs": true, "env": true,
	"sudo": true, "curl": true, "wget": true, "make": true, "npm": true, "go": true, "cd": true,
	"export": true, "unset": true, "alias": true, "sort": true, "uniq": true, "tree": true, "patch": true,
}

var gitWritersWords = map[string]bool{
	"push": true, "commit": true, "reset": true, "checkout": true, "switch": true, "merge": true,
	"rebase": true, "pull": true, "fetch": true, "clean": true, "stash": true, "tag": true, "rm": true,
	"mv": true, "add": true, "apply": true, "restore": true, "config": true, "init": true, "clone": true,
}

func knownWriter(words []string) string {
	name := words[0]
	switch {
	case knownWriters[name] || strings.Contains(name, "/"):
		return name
	case name == "git" && (len(words) < 2 || gitWritersWords[words[1]] || strings.HasPrefix(words[1], "-")):
		return strings.Join(words, " ")
	case name == "git" && words[1] == "branch" && len(words) > 2 && !strings.HasPrefix(words[2], "-"):
		return strings.Join(words, " ")
	}
	for _, w := range words[1:] {
		for _, bad := range []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprintf", "-fprint0", "-fls"} {
			if name == "find" && w == bad {
				return "find " + w
			}
		}
		if strings.HasPrefix(w, "--output") || (name == "rg" && strings.HasPrefix(w, "--pre")) {
			return name + " " + w
		}
	}
	return ""
}

// shellSeeds seeds the fuzzer with allowed commands and near misses.
var shellSeeds = []string{
	"ls", "ls -la", "cat README.md", "git status", "git diff HEAD", "git log --oneline", "echo hi",
	"grep -rn foo .", "rg foo", "find . -name '*.go'", "ls; pwd", "git status && git diff",
	"cat a | grep b", "ls; rm -rf x", "cat a > b", "echo $(rm x)", "git status && git push",
	"echo hi >> f", "cat <<EOF\nx\nEOF", "FOO=1 ls", "(ls)", "{ ls; }", "ls &", "find . -delete",
	"git branch -D x", "echo `id`", "cat <(ls)", "x=1", "ls 2>&1", "echo ${A:=b}", "echo $((1+2))",
	"git -c a=b status", "l\\s", "'ls'", "\"ls\"", "ls # > f", "echo '>' f", "echo \">\" f",
	"cat {/etc/passwd,}", "cat .{.,}/x", "head -c 300 {/proc/self/environ,}", "cat .gi?/config", "cat .[g]it/config",
	"cat {.git,x}/config", "cat passwd-link", "grep -R x .", "rg -L x", "find -L .", "cat {~,x}/.ssh/id_rsa",
	"ls src/*.go", "cat {README.md,go.mod}", "cat out/passwd", "ls docs/up", "cat /e?c/passwd", "ls {a..c}",
	"make", "awk -f x", "awk '{print}' x", "git -c a=b log", "GIT_DIR=x git status", "git show HEAD:secrets/key.txt",
	"echo {{{{{{a,b}}}}}}", "echo {a,b}{a,b}{a,b}{a,b}{a,b}{a,b}", "ls */*/*/*/*", "ls docs/up/*/*",
}

// FuzzPlainLiteral holds the expander's shortcut to the library's own expansion: a word it takes
// as written must expand, through mvdan's expander, to exactly itself.
func FuzzPlainLiteral(f *testing.F) {
	for _, s := range []string{"git", "-la", "src/a.go", "a=b", "x:y", "@", "$", "a}b", "--file=x", "%", "!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, word string) {
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("x "+word), "")
		if err != nil || len(file.Stmts) != 1 {
			return
		}
		call, ok := file.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 2 {
			return
		}
		text, plain := plainLiteral(call.Args[1])
		if !plain {
			return
		}
		slow := newExpander(nil)
		var got []string
		for s, err := range expand.FieldsSeq(slow.cfg, call.Args[1]) {
			if err != nil {
				t.Fatalf("%q: taken as written but the expander fails: %v", word, err)
			}
			got = append(got, s)
		}
		if len(got) != 1 || got[0] != text {
			t.Fatalf("%q: taken as %q, the expander gives %q", word, text, got)
		}
	})
}
