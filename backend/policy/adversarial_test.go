package policy

import (
	"strings"
	"testing"
)

// outsideSpellings name a file outside the workspace, inside .git or the data folder, or
// something only known at run time, in the ways an attacker spells them to slip past a check
// of the command's text: brace lists, globs, tildes, links, "..", quoting, variables.
var outsideSpellings = []string{
	"/etc/passwd", "{/etc/passwd,}", "{,/etc/passwd}", "/e{t,x}c/passwd", "/etc/pass*", "/e?c/passwd", "/[e]tc/passwd",
	`\/etc/passwd`, "'/etc/passwd'", `"/etc/passwd"`, "{/proc/self/environ,}", "/proc/self/environ",
	".{.,}/x", "../x", "./../x", "src/../../x", "~/.ssh/id_rsa", "~/.aws/credentials", "{~,x}/.ssh/id_rsa",
	"~root/x", "x=~/y", "$HOME/.ssh/id_rsa", "${HOME}/x", "$(echo /etc/passwd)", "`echo /etc/passwd`",
	"$'\\x2fetc/passwd'", ".git/config", ".gi?/config", ".[g]it/config", "{.git,x}/config", ".g*/config",
	".git", "{.git,src}", ".GIT/config", "passwd-link", "out/passwd", "out", "docs/up/etc/passwd", "docs/up",
	"~/.local/share/agentdesk/agentdesk.db", "*/../../x",
}

// readers are allowlisted commands whose arguments are paths.
var readers = []string{"cat", "head -c 300", "tail -n 5", "wc -l", "ls -la", "stat", "du -sh", "nl", "grep -n x",
	"diff README.md", "cmp README.md"}

// alwaysAsk are commands that write, run code, reach the network, follow links out of the
// workspace or hide what runs. None may run unasked in Auto.
var alwaysAsk = []string{
	"rm -rf build", "touch x", "mkdir x", "cp a b", "mv a b", "ln -s /etc x", "chmod +x x", "tee f", "dd if=a of=b",
	"sed -i s/a/b/ f", "awk '{print > \"f\"}' a", "sort -o f a", "tree -o f", "xargs rm < list", "env rm x",
	"curl https://example.com", "wget https://example.com", "nc -l 9", "python3 -c 'print(1)'", "node -e 1",
	"bash -c ls", "sh -c ls", "eval ls", "source x", ". x", "exec ls", "command ls", "sudo ls", "make", "npm test",
	"go test ./...", "cat a > b", "cat a >> b", "echo hi &> f", "ls > /dev/tcp/127.0.0.1/80", "echo $(rm x)",
	"echo `rm x`", "cat <(rm x)", "(ls)", "{ ls; }", "ls &", "FOO=bar ls", "ls() { rm x; }; ls", "if true; then ls; fi",
	"for f in *; do cat $f; done", "while true; do ls; done", "l* -la", "{ls,x}", "/bin/ls", "~/bin/ls", "$CMD",
	"${CMD}", "c\\at /etc/passwd", "cat -- /etc/passwd", "grep -R x .", "grep -rR x .", "grep --dereference-recursive x .",
	"rg -L x", "rg --follow x", "find -L . -name x", "find . -follow", "find . -delete", "find . -exec cat {} ;",
	"find . -execdir ls ;", "find . -fprint f", "find -name x -ok rm {} ;", "ls -L out", "du -L .", "diff -r src docs",
	"rg --pre ./x y", "rg --pre=./x y", "rg --pr ./x y", "rg --hostname-bin ./x y", "git push", "git commit -m x",
	"git -c core.pager=sh log", "git -C / status", "git --git-dir=/tmp/x status", "git --work-tree=/ status",
	"git -c alias.st=!sh st", "git status && git push", "git diff --output=f", "git diff --out=f", "git log --ext-diff",
	"git diff --no-index /etc/passwd x", "git show --output=x", "git branch new", "git branch -D main", "git branch -m x",
	"git checkout .", "git reset --hard", "git clean -fdx", "git stash", "git config core.fsmonitor x", "git fetch",
	"git log -- ../x", "git diff /etc/passwd", "git show HEAD:../x", "git blame -- ~/.bashrc", "git ls-files ../",
	"git status; touch x", "git status | sh", "echo 'ls' | bash", "cat x | python3", "ls | xargs rm",
	"grep -f/etc/shadow x", "grep -f ~/.ssh/id_rsa x", "grep --file=/etc/shadow x", "rg --ignore-file=/etc/x y",
	"grep x --exclude-from=../x .", "echo 'unterminated", "", "cat <<EOF\nx\nEOF", "cat <<< $(id)", "ls 2>&1 >f",
	"echo ${A:=b}", "echo $((1+2))", "echo $'\\x41'", "cat $'/etc/passwd'", "echo \"$HOME\"", "ls ~", "ls ~/", "ls ..", "ls /",
	"echo hi | tee /etc/x", "which ls; rm x", "true && rm x", "false || rm x", "pwd; curl x",
}

// confined are commands Auto may run: read-only, every path resolved inside the workspace.
// They keep the table honest: a gate that asked for everything would fail here.
var confined = []string{
	"ls", "ls -la", "ls src", "ls *.go", "ls src/*.go", "ls {src,docs}", "cat README.md", "cat {README.md,go.mod}",
	"cat src/*.go", "head -n 5 main.go", "wc -l src/*.go", "grep -rn x src", "grep -r x .", "rg x", "rg -n x src",
	"find . -name '*.go'", "find src -type f", "git status", "git diff", "git log --oneline -n 5", "git show HEAD",
	"git branch -a", "pwd", "echo hi", "cat README.md | grep x", "ls; pwd", "du -sh src", "stat go.mod", "nl main.go",
	"diff main.go main_test.go", "cat inner/a.go", "ls docs", "cat ./src/../main.go",
}

// TestAdversarialShell drives at least 300 hostile commands through the gate in Auto with the
// sandbox on (where the read-only class is enabled): every one must ask or be denied. The
// confined list must run, so the test can fail both ways.
func TestAdversarialShell(t *testing.T) {
	view := newMemView()
	var hostile []string
	for _, r := range readers {
		for _, p := range outsideSpellings {
			hostile = append(hostile, r+" "+p)
		}
	}
	for _, p := range outsideSpellings {
		hostile = append(hostile, "find "+p+" -name x", "rg x "+p)
	}
	hostile = append(hostile, alwaysAsk...)
	if len(hostile) < 300 {
		t.Fatalf("only %d hostile commands", len(hostile))
	}
	decide := func(cmd string) Verdict {
		sh := AnalyzeShell(cmd, view)
		return Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Sandboxed: true,
			Call: Resolved{Call: Call{Kind: KindBash, Command: cmd}, Shell: &sh}})
	}
	for _, cmd := range hostile {
		if v := decide(cmd); v.Decision == DecideAllow {
			t.Errorf("hostile %q ran unasked in auto (%s)", cmd, v.ReasonKey)
		}
	}
	for _, cmd := range confined {
		if v := decide(cmd); v.Decision != DecideAllow {
			t.Errorf("confined %q asked in auto (%s)", cmd, v.ReasonKey)
		}
	}
	t.Logf("%d hostile commands asked, %d confined ones ran", len(hostile), len(confined))
}

// TestAdversarialDenyRules bypasses deny rules the ways the attack report found, under Full
// access: each must be denied or ask, never run.
func TestAdversarialDenyRules(t *testing.T) {
	view := newMemView()
	rules := []Rule{{ID: "rm", Effect: Deny, Command: "rm"}, {ID: "push", Effect: Deny, Command: "git push"},
		{ID: "secrets", Effect: Deny, Path: "secrets/**"}}
	var bypasses []string
	for _, rm := range []string{"rm", "{rm,x}", "rm{,}", "/bin/r?", "/bin/rm", `\rm`, "'rm'", `"rm"`, "r''m", "/b*/rm", "$'rm'"} {
		for _, wrap := range []string{"", "sudo ", "env ", "env -i ", "command ", "exec ", "nice -n 5 ", "timeout 5 ", "xargs ", "nohup ", "time "} {
			bypasses = append(bypasses, wrap+rm+" f")
		}
	}
	for _, g := range []string{"git push", "git --no-pager push", "git -C . push", "git -c x=y push", "git --git-dir=.git push",
		"git -c alias.x='!rm -f f' x", "git --config-env=alias.x=E x", "/usr/bin/git push", "{git,} push", "git pu\\sh",
		"bash -c 'git push'", "sh -c 'rm f'", "echo rm f | sh", "python3 -c 'import os; os.remove(\"f\")'", "node -e 'x'",
		"eval 'rm f'", "cat secrets/key.txt", "cat secret?/key.txt", "cp secrets/key.txt /tmp", "tar cf - secrets"} {
		bypasses = append(bypasses, g)
	}
	for _, cmd := range bypasses {
		sh := AnalyzeShell(cmd, view)
		v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Rules: rules,
			Call: Resolved{Call: Call{Kind: KindBash, Command: cmd}, Shell: &sh}})
		if v.Decision == DecideAllow {
			t.Errorf("%q ran past the deny rules", cmd)
		}
	}
	for _, ok := range []string{"ls", "git status", "git log --grep push", "cat README.md", "echo rmdir-free"} {
		sh := AnalyzeShell(ok, view)
		v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Rules: rules,
			Call: Resolved{Call: Call{Kind: KindBash, Command: ok}, Shell: &sh}})
		if v.Decision != DecideAllow {
			t.Errorf("%q: %s (%s), want allow", ok, v.Decision, v.ReasonKey)
		}
	}
	if !strings.Contains(strings.Join(bypasses, "\n"), "{rm,x} f") {
		t.Fatal("the table lost the brace bypass")
	}
}
