//go:build !linux

package sandbox

import (
	"errors"
	"os/exec"
	"runtime"
)

// selfPath is never executed here: Command runs the shell directly without Landlock.
const selfPath = ""

func detect() Support {
	return Support{Kind: KindNone, Reason: "Landlock is a Linux feature; " + runtime.GOOS + " has no kernel sandbox here"}
}

func runHelper(request) error {
	return errors.New("the sandbox helper runs on Linux only")
}

func useNamespaces(*exec.Cmd, bool) {}

// UseHelperImage has nothing to do where there is no Landlock: Command runs the shell directly.
func UseHelperImage([]byte) {}

func helperPath() (string, error) { return "", errors.New("the sandbox helper runs on Linux only") }
