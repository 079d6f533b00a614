package mcptest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// BuildFixture compiles the fixture server (fixture/main.go) into dir and returns the program.
func BuildFixture(dir string) (string, error) {
	_, here, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the mcptest package")
	}
	out := filepath.Join(dir, "mcp-fixture")
	cmd := exec.Command("go", "build", "-o", out, "./fixture")
	cmd.Dir = filepath.Dir(here)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the MCP fixture: %v\n%s", err, msg)
	}
	return out, nil
}
