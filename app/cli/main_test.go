package cli

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"

	"agentdesk/backend/sandbox"
)

// TestMain lets bash calls re-execute this test binary as the sandbox helper, and tests run it
// as the agentdesk command itself (asAgentdesk).
func TestMain(m *testing.M) {
	sandbox.RunHelperIfRequested()
	if os.Getenv(envAsAgentdesk) == "1" {
		env := Env{Stdout: os.Stdout, Stderr: os.Stderr}
		if os.Getenv(envAsTerminal) == "1" { // a pipe the test types into stands for the terminal
			env.Stdin, env.IsTerminal = os.Stdin, func() bool { return true }
		}
		os.Exit(Main(os.Args[1:], env))
	}
	os.Exit(m.Run())
}

// TestDoctorReportsTheSandbox: on Linux these machines have Landlock, so a report of "none"
// fails here; elsewhere the doctor must say "none" honestly.
func TestDoctorReportsTheSandbox(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, nil, "doctor", "--json", "--data-dir", dir)
	var rep struct {
		Sandbox map[string]any `json:"sandbox"`
	}
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil {
		t.Fatalf("doctor: %d %v %s %s", code, err, out, errOut)
	}
	kind, abi := rep.Sandbox["kind"], rep.Sandbox["abi"]
	switch {
	case runtime.GOOS != "linux" && kind != "none":
		t.Fatalf("no Landlock outside Linux, got %v", rep.Sandbox)
	case runtime.GOOS == "linux" && (kind != "landlock" || abi.(float64) < 1):
		t.Fatalf("Landlock is expected on this Linux machine: %v", rep.Sandbox)
	}
	if _, ok := rep.Sandbox["network"]; !ok {
		t.Fatalf("no network field: %v", rep.Sandbox)
	}
	_, text, _ := run(t, nil, "doctor", "--data-dir", dir)
	_, zh, _ := run(t, map[string]string{"LANG": "zh_CN.UTF-8"}, "doctor", "--data-dir", dir)
	want, wantZh := "Landlock ABI", "网络过滤"
	if kind == "none" {
		want, wantZh = "sandbox   none", "沙箱"
	}
	if !strings.Contains(text, want) || !strings.Contains(zh, wantZh) {
		t.Fatalf("no sandbox line:\n%s\n%s", text, zh)
	}
}
