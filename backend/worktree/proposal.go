package worktree

import (
	"encoding/json"
	"os"
	"strings"
)

// ProposalFile is where a repository proposes a set-up command for its task worktrees:
// {"setup": "npm ci"}. It is code the person did not write: it runs only when they tick it for
// one task, seeing its text.
const ProposalFile = ".agentdesk/worktree.json"

// maxProposal bounds the proposal file read.
const maxProposal = 64 << 10

// ProposedSetup is the set-up command the repository checked out at dir proposes, "" for none
// (no file, a link, too large, or not the expected JSON: a proposal that cannot be read is no
// proposal).
func ProposedSetup(dir string) string {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return ""
	}
	defer root.Close()
	info, reason, err := regularFile(root, ProposalFile)
	if err != nil || reason != "" || info.Size() > maxProposal {
		return ""
	}
	raw, err := root.ReadFile(ProposalFile)
	if err != nil {
		return ""
	}
	var p struct {
		Setup string `json:"setup"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return ""
	}
	return strings.TrimSpace(p.Setup)
}
