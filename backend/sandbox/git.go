package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
)

// gitOverrides outrank every config file, the repository's included (they are what `git -c`
// sets): each closes a way a repository's config runs a program during status, diff, log, show
// or blame, which Auto runs without asking.
//
// diff.external is deliberately absent: an empty value does not switch it off, git then tries to
// run "" and every `git diff` fails. External diff drivers, textconv and clean filters (named by
// .gitattributes, defined in config) cannot be switched off from the environment either; the
// sandbox confines whatever they run, and the gate's read-only list is what keeps them rare.
var gitOverrides = [][2]string{
	{"core.fsmonitor", "false"},         // the fsmonitor hook runs on every status
	{"core.hooksPath", "/dev/null"},     // not a folder: no hook is ever found
	{"core.pager", "cat"},               // belt and braces with GIT_PAGER
	{"core.sshCommand", "false"},        // a lazy fetch must not start ssh
	{"safe.bareRepository", "explicit"}, // a workspace posing as a bare repository is refused
	{"log.showSignature", "false"},      // no gpg.program on plain log and show
}

// gitUnset names variables a hardened git call must not inherit: an external diff program, and
// an explicit repository that would bypass discovery from the workspace.
var gitUnset = []string{"GIT_EXTERNAL_DIFF", "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"}

// HardenedGitEnv returns environment entries to append for a command in Auto's read-only class:
// no system config, no pager, no prompts, the overrides above, and no repository discovery above
// the workspace unless the workspace lies inside a repository's work tree (a subfolder of a
// checkout), where discovery must reach the real repository. WithHardenedGit also removes the
// variables in gitUnset.
func HardenedGitEnv(workspace string) []string {
	env := []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0",
		// git 2.44 and later: never fetch missing objects from a promisor remote.
		"GIT_NO_LAZY_FETCH=1"}
	if parent, ok := ceiling(workspace); ok {
		env = append(env, "GIT_CEILING_DIRECTORIES="+parent)
	}
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(gitOverrides)))
	for i, kv := range gitOverrides {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}

// WithHardenedGit returns environ without gitUnset, plus HardenedGitEnv(workspace).
func WithHardenedGit(environ []string, workspace string) []string {
	out := environ
	for _, name := range gitUnset {
		out = without(out, name+"=")
	}
	return append(out, HardenedGitEnv(workspace)...)
}

// ceiling returns the real workspace's parent, unless a folder above the workspace holds .git.
func ceiling(workspace string) (string, bool) {
	real, err := filepath.EvalSymlinks(workspace)
	if err != nil {
		real = filepath.Clean(workspace)
	}
	parent := filepath.Dir(real)
	for dir := parent; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", false
		}
		if filepath.Dir(dir) == dir {
			return parent, true
		}
	}
}
