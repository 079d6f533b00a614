package netproxy_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: a tunnel's copier, a
// handler waiting on a decision, the server's accept loop.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
