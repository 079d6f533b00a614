//go:build !unix

package tool

import "testing"

func processAlive(t *testing.T, pid string) bool {
	t.Skip("process-group checks need a unix system")
	return false
}
