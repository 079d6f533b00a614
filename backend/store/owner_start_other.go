//go:build !linux && !darwin

package store

// processStart cannot ask here: owners fall back to whether the pid is alive.
func processStart(int) (started, error) { return started{}, errStartUnknown }
