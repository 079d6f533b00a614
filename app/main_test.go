package app

import (
	"os"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets bash calls re-execute this test binary as the sandbox helper.
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	os.Exit(m.Run())
}

// list reads the whole session list through List, page by page, as a window scrolling to its
// end would.
func (f *Sessions) list(t testing.TB) ([]Session, error) {
	t.Helper()
	var out []Session
	req := ListSessionsRequest{Limit: 2}
	for {
		page, err := f.List(req)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Sessions...)
		if page.Next == "" {
			return out, nil
		}
		req.After = page.Next
	}
}
