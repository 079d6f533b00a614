package policy

import "strings"

// The workspace's .git is read-only inside the sandbox: its hooks and config run, unconfined,
// the next time the person uses git, and the rest (the index, refs, commondir, modules) can
// point git at them. A git command that changes the repository therefore steps out of that
// part of the sandbox: it carries the "git" escalation, which asks, and which the person may
// allow for the rest of the session (a grant of kind KindGitWrite).

// KindGitWrite is the kind of the session grant that answers the "git" escalation. No call has
// this kind, so the grant never matches anything else.
const KindGitWrite Kind = "git-write"

// gitReaders are the git subcommands that leave the repository as it is (a refreshed index
// aside, which git skips when it cannot write it). config and remote are readers here too:
// the escalation would not make .git/config writable anyway. send-pack and bundle read the
// local repository and write elsewhere (a remote, a file).
var gitReaders = map[string]bool{
	"status": true, "diff": true, "log": true, "show": true, "blame": true, "ls-files": true, "ls-tree": true,
	"ls-remote": true, "cat-file": true, "rev-parse": true, "rev-list": true, "describe": true, "grep": true,
	"shortlog": true, "name-rev": true, "merge-base": true, "for-each-ref": true, "show-ref": true, "var": true,
	"version": true, "help": true, "config": true, "remote": true, "check-ignore": true, "check-attr": true,
	"count-objects": true, "fsck": true, "whatchanged": true, "archive": true, "diff-tree": true, "diff-files": true,
	"diff-index": true, "show-branch": true, "range-diff": true, "send-pack": true, "bundle": true,
}

// WritesGit reports whether a bash command runs a git subcommand that changes the repository,
// anywhere in it (behind wrappers, after git's global options, inside bash -c). Like deny
// rules it prefers a question to a miss: `echo git commit` counts. A command that
// does not parse is not judged here: inside the sandbox its writes to .git fail, and the model
// is told to ask with the escalation.
func WritesGit(command string) bool {
	if !strings.Contains(command, "git") {
		return false
	}
	sh := AnalyzeShell(command, nil)
	for _, c := range sh.calls {
		if commandWritesGit(c.tokens()) {
			return true
		}
	}
	return false
}

func commandWritesGit(tokens []string) bool {
	for i, t := range tokens {
		if !programIs(t, "git") {
			continue
		}
		rest := gitSubcommand(tokens[i+1:])
		if len(rest) > 0 && !gitSubcommandReads(rest[0], rest[1:]) {
			return true
		}
	}
	return false
}

func gitSubcommandReads(sub string, args []string) bool {
	switch sub {
	case "branch":
		return gitBranchListOnly(args)
	case "tag", "worktree", "reflog":
		return len(args) == 0 || args[0] == "list" || args[0] == "-l" || args[0] == "--list" || args[0] == "show"
	case "stash":
		return len(args) > 0 && (args[0] == "list" || args[0] == "show")
	}
	return gitReaders[sub]
}

// gitWriteGranted reports whether the session allowed the "git" escalation for its rest.
func gitWriteGranted(grants []Grant, e Escalation) bool {
	if e != EscalateGit {
		return false
	}
	for _, g := range grants {
		if g.Kind == KindGitWrite {
			return true
		}
	}
	return false
}
