package server

import (
	"context"

	acp "github.com/coder/acp-go-sdk"
)

// editorFiles writes a session's file changes through the client (fs/write_text_file), so an
// editor's open buffers see them; the runtime calls it only after the gate allowed the call,
// with the content the tool computed from the file it checked.
//
// Reads stay on the disk even when the client offers fs/read_text_file: the read tool confines
// its path through the workspace's os.Root and refuses a target that moved since the gate
// resolved it, which a read through the client cannot promise; and the shell, the checkpoints
// and the preview all see the disk, so the model reading an unsaved buffer would see a file
// nothing else does.
type editorFiles struct {
	s         *Server
	sessionID string
}

func (f editorFiles) WriteTextFile(ctx context.Context, path, content string) error {
	// The call's tool_call goes out first, so the editor knows which call writes.
	f.s.caughtUp()
	f.s.out.flush()
	_, err := f.s.conn.WriteTextFile(ctx, acp.WriteTextFileRequest{SessionId: acp.SessionId(f.sessionID), Path: path, Content: content})
	return err
}

// writesFiles reports whether the client said in initialize that it writes files itself.
func (s *Server) writesFiles() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.clientFs.WriteTextFile
}

// useFiles routes an attached session's writes and edits through the client when it offers
// to write them; release puts them back on the disk when the client is gone.
func (s *Server) useFiles(sessionID string) {
	if s.writesFiles() {
		s.opts.Runtime.UseFiles(sessionID, editorFiles{s: s, sessionID: sessionID})
	}
}

func (s *Server) releaseFiles(sessionID string) {
	s.opts.Runtime.UseFiles(sessionID, nil)
}
