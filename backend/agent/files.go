package agent

import (
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// UseFiles makes the session's writes and edits reach their files through w once the gate has
// allowed them (an ACP editor's fs/write_text_file, so its open buffers see the change); nil
// puts them back on the disk. The gate, the preview and the checkpoints around the call are the
// same either way; the checkpoint after the call sees the change once the editor has put it on
// disk, which is the editor's to decide (fs/write_text_file writes to the client's file system).
func (r *Runtime) UseFiles(sessionID string, w tool.FileWriter) {
	if w == nil {
		r.files.Delete(sessionID)
		return
	}
	r.files.Store(sessionID, w)
}

// filesFor is the writer of a call of kind k: the session's for a write or an edit, else none.
func (r *Runtime) filesFor(sessionID string, k policy.Kind) tool.FileWriter {
	if k != policy.KindWrite && k != policy.KindEdit {
		return nil
	}
	w, _ := r.files.Load(sessionID)
	fw, _ := w.(tool.FileWriter)
	return fw
}
