package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"

	"agentdesk/backend/policy"
	"agentdesk/backend/store"
)

// scriptDiff shows, for a call asked again because the scripts it runs changed since they were
// approved, each change from the approved text to the text now, as a unified diff; files whose
// approved text was not kept (too large, or approved before texts were kept) are left out.
func (t *turn) scriptDiff(g *gated) string {
	if g.verdict.ApprovedScripts == "" {
		return ""
	}
	var b strings.Builder
	for _, ch := range policy.ScriptChanges(g.verdict.ApprovedScripts, g.resolved.Scripts) {
		before, ok := t.approvedText(ch.Approved)
		if !ok {
			continue
		}
		after := ""
		if ch.Now != policy.ScriptAbsent {
			if after, ok = readScript(t.workspace, ch.Path); !ok {
				continue
			}
		}
		b.WriteString(udiff.Unified("a/"+ch.Path, "b/"+ch.Path, before, after))
	}
	return b.String()
}

func (t *turn) approvedText(digest string) (string, bool) {
	if digest == policy.ScriptAbsent {
		return "", true
	}
	return t.rt.opts.Store.ScriptText(digest)
}

// keepScriptTexts keeps the text of each script an approval saved a record of, so a later ask
// can show what changed. A file that no longer matches its record (changed while the card was
// open) is not kept: the text must be the one approved.
func (t *turn) keepScriptTexts(g *gated) error {
	texts := map[string]string{}
	for _, f := range policy.ScriptDigests(g.resolved.Scripts) {
		text, ok := readScript(t.workspace, f.Path)
		if sum := sha256.Sum256([]byte(text)); ok && hex.EncodeToString(sum[:]) == f.Now {
			texts[f.Now] = text
		}
	}
	if len(texts) == 0 {
		return nil
	}
	return t.rt.opts.Store.KeepScriptTexts(texts)
}

// readScript reads a workspace file through the workspace root, as the file tools do, up to
// the size a kept text may have.
func readScript(workspace, rel string) (string, bool) {
	root, err := os.OpenRoot(workspace)
	if err != nil {
		return "", false
	}
	defer root.Close()
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		return "", false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, store.MaxScriptText+1))
	if err != nil || len(b) > store.MaxScriptText {
		return "", false
	}
	return string(b), true
}
