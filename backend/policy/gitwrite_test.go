package policy

import (
	"testing"

	"agentdesk/backend/errs"
)

func TestWritesGitFindsTheSubcommandsThatChangeTheRepository(t *testing.T) {
	for cmd, want := range map[string]bool{
		"git commit -m fix":                         true,
		"git add . && git commit -m x":              true,
		"git -C . -c user.name=x commit -m y":       true,
		"sudo git checkout main":                    true,
		"bash -c 'git reset --hard'":                true,
		"git branch -d old":                         true,
		"git tag v1":                                true,
		"git stash":                                 true,
		"git stash push":                            true,
		"git status":                                false,
		"git diff HEAD~1 && git log --oneline -5":   false,
		"git branch -a":                             false,
		"git tag":                                   false,
		"git stash list":                            false,
		"git config --get user.name":                false,
		"go test ./... # a digit, not a git":        false,
		"ls legit":                                  false,
		"gitk":                                      false,
		"make && git push origin main":              true,
		"git --no-pager log | head && git rebase x": true,
	} {
		if got := WritesGit(cmd); got != want {
			t.Errorf("WritesGit(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestTheGitEscalationAsksUntilTheSessionAllowsIt(t *testing.T) {
	commit := Resolved{Call: Call{Kind: KindBash, Command: "git commit -m fix", Escalation: EscalateGit}}
	network := Resolved{Call: Call{Kind: KindBash, Command: "curl -sO https://example.com/x", Escalation: EscalateNetwork}}
	granted := []Grant{{Kind: KindGitWrite}}
	for _, c := range []struct {
		name string
		in   Input
		want Decision
	}{
		{"a git write asks even with full access", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Call: commit}, DecideAsk},
		{"a bash grant does not answer it", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Call: commit, Grants: []Grant{{Kind: KindBash}}}, DecideAsk},
		{"the session's git grant lifts it: full access runs the commit", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Call: commit, Grants: granted}, DecideAllow},
		{"then Ask still asks for the command itself", Input{SensitiveMasked: true, Mode: "execute", Permission: Ask, Sandboxed: true, Call: commit, Grants: granted}, DecideAsk},
		{"a read-only mode still denies it", Input{SensitiveMasked: true, Mode: "plan", Permission: Full, Sandboxed: true, Call: commit, Grants: granted}, DecideDeny},
		{"a deny rule still denies it", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Call: commit, Grants: granted,
			Rules: []Rule{{ID: "no-commit", Effect: Deny, Command: "git commit"}}}, DecideDeny},
		{"the git grant never answers another escalation", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, Call: network, Grants: granted}, DecideAsk},
	} {
		if v := Evaluate(c.in); v.Decision != c.want {
			t.Errorf("%s: got %+v", c.name, v)
		}
	}
}

func TestTheGitGrantMatchesNoCall(t *testing.T) {
	g := Grant{Kind: KindGitWrite}
	for _, k := range Kinds {
		c := Resolved{Call: Call{Kind: k, Command: "git commit", Path: "x"}, Target: Target{Resolved: true, Inside: true, Rel: "x"}}
		sh := AnalyzeShell("git commit", nil)
		if g.rule().match(c, &sh) != noMatch {
			t.Errorf("the git-write grant matches a %s call", k)
		}
	}
}

// In a task's own worktree (the sandbox opens its git folders), a git write is judged as any
// command; without the sandbox, or for another escalation, nothing changes.
func TestATasksOwnGitNeedsNoEscalation(t *testing.T) {
	commit := Resolved{Call: Call{Kind: KindBash, Command: "git commit -m fix", Escalation: EscalateGit}}
	network := Resolved{Call: Call{Kind: KindBash, Command: "curl -sO https://example.com/x", Escalation: EscalateNetwork}}
	for _, c := range []struct {
		name string
		in   Input
		want Decision
		code errs.Kind
	}{
		{"full access runs the task's commit", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, TaskGit: true, Call: commit}, DecideAllow, ""},
		{"Auto asks for it as a command, not as an escalation", Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Sandboxed: true, TaskGit: true, Call: commit}, DecideAsk, ""},
		{"without the sandbox it is still an escalation", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, TaskGit: true, Call: commit}, DecideAsk, SandboxEscalation},
		{"a read-only mode still denies it", Input{SensitiveMasked: true, Mode: "plan", Permission: Full, Sandboxed: true, TaskGit: true, Call: commit}, DecideDeny, ""},
		{"another escalation still asks", Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Sandboxed: true, TaskGit: true, Call: network}, DecideAsk, SandboxEscalation},
	} {
		v := Evaluate(c.in)
		if v.Decision != c.want || c.code != "" && v.Code != c.code || c.code == "" && v.Code == SandboxEscalation {
			t.Errorf("%s: got %+v", c.name, v)
		}
	}
}
