package policy

import (
	"fmt"
	"strings"
	"testing"

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
		everything := Input{
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
		v = Evaluate(Input{Mode: decodedMode, Permission: decodedPerm, Call: call})
		if (!modeOK || !permOK) && kind.Mutates() && v.Decision == DecideAllow {
			t.Fatalf("decoded mode %q / permission %q allowed %s (%s)", decodedMode, decodedPerm, kind, v.ReasonKey)
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

// FuzzShellAllowlist feeds arbitrary text to the shell analysis. The invariant: nothing that
// writes is auto-allowed. The oracle is independent of the allowlist code: it re-parses the
// command and walks every node, and a read-only verdict is wrong if the tree holds anything
// but plain commands of literal words — a redirection, a substitution, an expansion, a
// subshell, a function, an assignment — or if any command word is a known writer.
func FuzzShellAllowlist(f *testing.F) {
	for _, s := range shellSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		sh := AnalyzeShell(cmd)
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
			return true
		})
		for _, c := range sh.Commands {
			if w := knownWriter(c); w != "" {
				t.Fatalf("%q was auto-allowed but runs %q", cmd, w)
			}
		}
	})
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
}
