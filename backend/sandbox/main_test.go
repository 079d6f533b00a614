package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the tests re-execute this test binary as the sandbox helper.
func TestMain(m *testing.M) {
	RunHelperIfRequested()
	os.Exit(m.Run())
}
