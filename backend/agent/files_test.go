package agent

import (
	"context"
	"testing"

	"agentdesk/backend/policy"
)

type nopWriter struct{}

func (nopWriter) WriteTextFile(context.Context, string, string) error { return nil }

// A session's file writer takes its writes and edits only: a shell command, a read or another
// session's call still meets the disk.
func TestTheFileWriterTakesTheSessionsWritesAndEditsOnly(t *testing.T) {
	r := &Runtime{}
	r.UseFiles("s1", nopWriter{})
	for _, k := range []policy.Kind{policy.KindWrite, policy.KindEdit} {
		if r.filesFor("s1", k) == nil {
			t.Errorf("%s of s1 goes through the writer", k)
		}
	}
	for _, k := range []policy.Kind{policy.KindBash, policy.KindRead, policy.KindOther} {
		if r.filesFor("s1", k) != nil {
			t.Errorf("%s never goes through the writer", k)
		}
	}
	if r.filesFor("s2", policy.KindWrite) != nil {
		t.Error("another session's write goes to disk")
	}
	r.UseFiles("s1", nil)
	if r.filesFor("s1", policy.KindWrite) != nil {
		t.Error("released: back to disk")
	}
}
