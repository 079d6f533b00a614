package cli

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/glebarez/go-sqlite"

	"agentdesk/backend/store"
)

func run(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] },
		Desktop: func(*Context) error { t.Fatal("the window must not open in tests"); return nil }})
	return code, out.String(), errOut.String()
}

func TestVersionAndHelpEverywhere(t *testing.T) {
	if code, out, _ := run(t, nil, "version"); code != 0 || !strings.HasPrefix(out, "agentdesk ") {
		t.Fatalf("version: %d %q", code, out)
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"serve", "--help"}, {"doctor", "-h"}, {"version", "--help"}} {
		code, out, _ := run(t, nil, args...)
		if code != 0 || !strings.Contains(out, "--") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
}

func TestUsageErrorsExit2NamingTheBadValue(t *testing.T) {
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"frobnicate"}, []string{"frobnicate", "acp, checkpoints, doctor, mcp, resume, route, run, serve, sessions, settings, version"}},
		{[]string{"doctor", "--colour"}, []string{"colour", "--data-dir"}},
		{[]string{"serve", "--addr", "0.0.0.0:80", "--data-dir", "DIR"}, []string{"0.0.0.0:80", "127.0.0.1:PORT"}},
		{[]string{"version", "extra"}, []string{"extra"}},
	}
	for _, c := range cases {
		for i, a := range c.args {
			if a == "DIR" {
				c.args[i] = t.TempDir()
			}
		}
		code, _, errOut := run(t, nil, c.args...)
		if code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
	}
}

func TestMessagesFollowTheLanguage(t *testing.T) {
	_, _, errOut := run(t, map[string]string{"LANG": "zh_CN.UTF-8"}, "frobnicate")
	if !strings.Contains(errOut, "可选值") {
		t.Fatalf("Chinese usage error expected, got %q", errOut)
	}
}

func TestDoctorJSONReportsSchemaAndMaintenance(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, nil, "doctor", "--json", "--data-dir", dir)
	if code != 0 {
		t.Fatalf("doctor: %d %s %s", code, out, errOut)
	}
	var rep DoctorReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.Schema.Version != store.SupportedSchema() || rep.Maintenance.Changes == nil || rep.DataDir != dir {
		t.Fatalf("report: %+v", rep)
	}
}

func TestDataDirComesFromTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	code, out, _ := run(t, map[string]string{"AGENTDESK_DATA_DIR": dir}, "doctor", "--json")
	var rep DoctorReport
	json.Unmarshal([]byte(out), &rep)
	if code != 0 || rep.DataDir != dir {
		t.Fatalf("data dir: %d %q", code, rep.DataDir)
	}
	if got := DefaultDataDir(func(k string) string { return map[string]string{"XDG_DATA_HOME": "/x"}[k] }); got != "/x/agentdesk" {
		t.Fatalf("XDG: %q", got)
	}
}

func TestDoctorRefusesANewerDatabase(t *testing.T) {
	dir := t.TempDir()
	db, _ := sql.Open("sqlite", filepath.Join(dir, store.FileName))
	db.Exec(fmt.Sprintf("CREATE TABLE t(x); PRAGMA user_version = 42; PRAGMA application_id = %d", store.ApplicationID))
	db.Close()
	code, out, _ := run(t, nil, "doctor", "--data-dir", dir)
	if code != ExitFailure || !strings.Contains(out, "42") || !strings.Contains(out, "newer") {
		t.Fatalf("doctor on a newer database: %d %q", code, out)
	}
}
