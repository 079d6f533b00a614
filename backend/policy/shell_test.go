package policy

import (
	"strings"
	"testing"
)

// TestShellAllowlist pins which commands auto runs without asking.
func TestShellAllowlist(t *testing.T) {
	cases := []struct {
		cmd      string
		readOnly bool
	}{
		// Read-only: auto runs them.
		{"ls", true},
		{"ls -la src", true},
		{"ls *.go", true},
		{"cat README.md", true},
		{"head -n 20 main.go", true},
		{"tail -n 5 go.sum", true},
		{"wc -l src/*.go", true},
		{"pwd", true},
		{"echo hello world", true},
		{`grep -rn "func Evaluate" backend`, true},
		{"rg -n TODO --glob '*.go'", true},
		{"find . -name '*.go' -type f", true},
		{"git status", true},
		{"git status --short", true},
		{"git diff HEAD~1 -- backend/policy", true},
		{"git log --oneline -n 10", true},
		{"git log main..feature", true},
		{"git show HEAD:go.mod", true},
		{"git branch", true},
		{"git branch -a -v", true},
		{"ls; pwd", true},
		{"git status && git diff", true},
		{"cat go.mod | grep require", true},
		{"ls src || echo missing", true},
		{"l\\s", true},
		{"# just a comment\nls", true},

		// Must ask.
		{"ls; rm -rf x", false},
		{"cat a > b", false},
		{"cat a >> b", false},
		{"echo hi &> out.txt", false},
		{"echo $(rm x)", false},
		{"echo `rm x`", false},
		{"git status && git push", false},
		{"git push", false},
		{"git branch new-feature", false},
		{"git branch -D main", false},
		{"git -c core.pager=rm log", false},
		{"git diff --output=patch.txt", false},
		{"git diff --out=patch.txt", false},
		{"git log --ext-diff", false},
		{"find . -name '*.tmp' -delete", false},
		{"find . -exec rm {} ;", false},
		{"find . -fprint out.txt", false},
		{"find . *", false},
		{"rg --pre ./evil.sh foo", false},
		{"rm -rf /", false},
		{"(ls)", false},
		{"{ ls; }", false},
		{"ls &", false},
		{"FOO=bar ls", false},
		{"cat $HOME/.ssh/id_rsa", false},
		{"cat /etc/passwd", false},
		{"cat ../secrets.txt", false},
		{"cat ~/.aws/credentials", false},
		{"cat .git/config", false},
		{"grep -f/etc/shadow x", false},
		{"cat <(rm x)", false},
		{"cat <<EOF > f\nhi\nEOF", false},
		{"if true; then rm x; fi", false},
		{"for f in *; do rm $f; done", false},
		{"ls() { rm -rf x; }; ls", false},
		{"/bin/ls", false},
		{"sed -i s/a/b/ f", false},
		{"xargs rm < list", false},
		{"echo 'unterminated", false},
		{"", false},
		{"eval ls", false},
		{"l* -la", false},
		{"$CMD", false},
	}
	for _, c := range cases {
		t.Run(c.cmd, func(t *testing.T) {
			if got := AnalyzeShell(c.cmd, newMemView()).ReadOnly; got != c.readOnly {
				t.Fatalf("ReadOnly(%q) = %v, want %v", c.cmd, got, c.readOnly)
			}
		})
	}
}

func TestShellPlainCommands(t *testing.T) {
	sh := AnalyzeShell(`npm test -- --watch=false && go "test" ./...`, nil)
	if !sh.Plain || len(sh.Commands) != 2 || sh.Commands[1][1] != "test" {
		t.Fatalf("AnalyzeShell = %+v", sh)
	}
	if AnalyzeShell("npm test > log", nil).Plain {
		t.Fatal("a redirection is not plain")
	}
}

// An interpreter that reads its code from a pipe or a redirection runs code the analysis cannot
// see, even with arguments that are not a code flag; the same interpreter run on a script file
// named as an argument does not read standard input as code here.
func TestInterpreterFedCodeIsIndirect(t *testing.T) {
	for cmd, want := range map[string]bool{
		"echo 'rm -rf x' | bash -s":   true,
		"cat cmds.txt | sh -s -- a b": true,
		"bash -s a < cmds.txt":        true,
		"python3 - x < script.py":     true,
		"bash -s a":                   false,
		"echo hi | grep h":            false,
	} {
		if sh := AnalyzeShell(cmd, newMemView()); sh.Indirect != want {
			t.Errorf("%q: Indirect = %v, want %v", cmd, sh.Indirect, want)
		}
	}
	rules := []Rule{{ID: "rm", Effect: Deny, Command: "rm"}}
	if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Rules: rules, Call: Resolved{Call: Call{Kind: KindBash, Command: "cat cmds.txt | bash -s"}}}); v.Decision != DecideAsk {
		t.Errorf("a fed interpreter with a deny rule in full: %s, want ask", v.Decision)
	}
}

// Past the expansion's bounds a command is not known statically: a deny rule cannot be ruled
// out (it asks) and Auto's read-only class does not take it. Each command would otherwise be
// a read-only echo or ls.
func TestExpansionPastItsBoundsIsUncertain(t *testing.T) {
	const size = 16 << 10
	rules := []Rule{{ID: "rm", Effect: Deny, Command: "rm"}}
	for name, cmd := range map[string]string{
		"nested braces":               "echo " + strings.Repeat("{", size/2) + strings.Repeat("}", size/2),
		"too many braces in one word": "echo " + strings.Repeat("{a,b}", maxWordBraces+1),
		"too many fields on the line": strings.Repeat("echo {a,b}{c,d}{e,f}{g,h}; ", maxLineFields/16+1),
		"a glob listing every level":  "ls " + strings.Repeat("*/", size/2),
	} {
		sh := AnalyzeShell(cmd, newMemView())
		if sh.ReadOnly {
			t.Errorf("%s: read-only", name)
		}
		call := Resolved{Call: Call{Kind: KindBash, Command: cmd}, Shell: &sh}
		if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Rules: rules, Call: call}); v.ReasonKey != "gate.reason.rule_uncertain" {
			t.Errorf("%s: %s (%s) under a deny rule, want it uncertain", name, v.Decision, v.ReasonKey)
		}
	}
	for _, cmd := range []string{"echo " + strings.Repeat("{a,b}", 8), "cat {README.md,go.mod} src/*.go"} {
		if sh := AnalyzeShell(cmd, newMemView()); !sh.ReadOnly {
			t.Errorf("%q within the bounds is not read-only", cmd)
		}
	}
}

// make runs what its makefile and its command-line variables say (make test CC='rm -rf ~'), so
// no prefix is offered for it and a prefix grant never widens to it.
func TestMakeGetsNoPrefix(t *testing.T) {
	sh := AnalyzeShell("make test", newMemView())
	if p := SuggestPrefix(&sh); p != "" {
		t.Fatalf("SuggestPrefix(make test) = %q", p)
	}
	cmd := "make test CC='rm -rf x'"
	wide := AnalyzeShell(cmd, newMemView())
	v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Sandboxed: true,
		Grants: []Grant{{Kind: KindBash, Command: "make test", Scope: ScopePrefix}},
		Call:   Resolved{Call: Call{Kind: KindBash, Command: cmd}, Shell: &wide}})
	if v.Decision != DecideAsk {
		t.Fatalf("a prefix grant on make test let %q through: %s", cmd, v.ReasonKey)
	}
}
