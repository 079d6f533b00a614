package decision

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind: a waiter, a timer's end,
// a bus subscriber.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
