package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

// TestScriptGrantsBindToContent names, cell by cell, when an exact grant or always-allow rule
// on a command that runs a workspace file still holds after the file changed.
func TestScriptGrantsBindToContent(t *testing.T) {
	cases := []struct {
		name    string
		files   map[string]string // the workspace when the command was approved
		command string
		change  map[string]string // what changes before the next call; "" removes the file
		holds   bool
	}{
		{"bash script unchanged", map[string]string{"build.sh": "echo ok"}, "bash build.sh", nil, true},
		{"bash script rewritten", map[string]string{"build.sh": "echo ok"}, "bash build.sh", map[string]string{"build.sh": "curl x | sh"}, false},
		{"sh script rewritten", map[string]string{"x": "a"}, "sh x", map[string]string{"x": "b"}, false},
		{"bash -x still finds the script", map[string]string{"b.sh": "a"}, "bash -x b.sh", map[string]string{"b.sh": "b"}, false},
		{"bash -o pipefail skips the option's value", map[string]string{"b.sh": "a"}, "bash -o pipefail b.sh", map[string]string{"b.sh": "b"}, false},
		{"bash -r takes no value, yet the script is found", map[string]string{"b.sh": "a"}, "bash -r b.sh", map[string]string{"b.sh": "b"}, false},
		{"bash -- script", map[string]string{"b.sh": "a"}, "bash -- b.sh", map[string]string{"b.sh": "b"}, false},
		{"python script rewritten", map[string]string{"x.py": "a"}, "python x.py", map[string]string{"x.py": "b"}, false},
		{"python3 -u script rewritten", map[string]string{"x.py": "a"}, "python3 -u x.py --flag", map[string]string{"x.py": "b"}, false},
		{"node script rewritten", map[string]string{"x.js": "a"}, "node x.js", map[string]string{"x.js": "b"}, false},
		{"perl script rewritten", map[string]string{"x.pl": "a"}, "perl x.pl", map[string]string{"x.pl": "b"}, false},
		{"ruby script rewritten", map[string]string{"x.rb": "a"}, "ruby x.rb", map[string]string{"x.rb": "b"}, false},
		{"source rewritten", map[string]string{"env.sh": "a"}, "source env.sh", map[string]string{"env.sh": "b"}, false},
		{"a script run by its path", map[string]string{"build.sh": "a"}, "./build.sh", map[string]string{"build.sh": "b"}, false},
		{"a script behind env", map[string]string{"build.sh": "a"}, "env ./build.sh", map[string]string{"build.sh": "b"}, false},
		{"a script inside bash -c", map[string]string{"b.sh": "a"}, "bash -c 'bash b.sh'", map[string]string{"b.sh": "b"}, false},
		{"both scripts of a list", map[string]string{"a.sh": "a", "b.sh": "b"}, "bash a.sh && bash b.sh", map[string]string{"b.sh": "c"}, false},
		{"Makefile rewritten", map[string]string{"Makefile": "all:\n\ttrue\n"}, "make", map[string]string{"Makefile": "all:\n\tcurl x\n"}, false},
		{"Makefile unchanged", map[string]string{"Makefile": "all:\n\ttrue\n"}, "make all", nil, true},
		{"a makefile appears before the Makefile", map[string]string{"Makefile": "all:"}, "make", map[string]string{"GNUmakefile": "all:"}, false},
		{"make -f names the file", map[string]string{"build.mk": "a"}, "make -f build.mk", map[string]string{"build.mk": "b"}, false},
		{"make -C looks in the folder", map[string]string{"sub/Makefile": "a"}, "make -C sub", map[string]string{"sub/Makefile": "b"}, false},
		{"make -f ignores the default Makefile", map[string]string{"build.mk": "a", "Makefile": "a"}, "make -f build.mk", map[string]string{"Makefile": "b"}, true},
		{"a script absent at approval, then created", nil, "bash build.sh", map[string]string{"build.sh": "evil"}, false},
		{"a script removed", map[string]string{"build.sh": "a"}, "bash build.sh", map[string]string{"build.sh": ""}, false},
		{"data files the script reads are not bound", map[string]string{"b.sh": "a", "in.txt": "1"}, "bash b.sh in.txt", map[string]string{"in.txt": "2"}, true},
		{"inline code binds no file", nil, "bash -c 'echo hi'", nil, true},
		{"a script after cd never holds", map[string]string{"sub/x.sh": "a"}, "cd sub && bash x.sh", nil, false},
		{"a script named by a variable never holds", map[string]string{"x.sh": "a"}, "bash $SCRIPT", nil, false},
		{"a command that runs no file", map[string]string{"f": "a"}, "cat f", map[string]string{"f": "b"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			setFiles(t, ws, c.files)
			approved := resolveBash(t, ws, c.command)
			setFiles(t, ws, c.change)
			now := resolveBash(t, ws, c.command)
			grant := []Grant{{Kind: KindBash, Command: c.command, Scope: ScopeExact, Scripts: approved.Scripts}}
			rule := []Rule{{ID: "r", Effect: Allow, Kind: KindBash, Command: c.command, Scripts: approved.Scripts}}
			for name, in := range map[string]Input{"grant": {Grants: grant}, "rule": {Rules: rule}} {
				in.Mode, in.Permission, in.Call, in.Sandboxed, in.SensitiveMasked = mode.ModeExecute, Auto, now, true, true
				v := Evaluate(in)
				if got := v.Decision == DecideAllow; got != c.holds {
					t.Errorf("%s: %+v (scripts approved %q, now %q)", name, v, approved.Scripts, now.Scripts)
				}
				want := "gate.reason.script_changed"
				if c.change == nil {
					want = "gate.reason.script_unverifiable"
				}
				if !c.holds && v.ReasonKey != want {
					t.Errorf("%s: reason %q, want %s", name, v.ReasonKey, want)
				}
			}
		})
	}
}

// An allow rule or grant stored before contents were recorded does not hold for a command
// that runs a file: nothing says what it approved. On other commands it holds as before.
func TestScriptGrantsWithoutARecordFailClosed(t *testing.T) {
	ws := t.TempDir()
	setFiles(t, ws, map[string]string{"build.sh": "echo ok"})
	for command, holds := range map[string]bool{"bash build.sh": false, "./build.sh": false, "make": false, "rm -rf build": true} {
		in := Input{SensitiveMasked: true, Mode: mode.ModeExecute, Permission: Auto, Sandboxed: true, Call: resolveBash(t, ws, command),
			Grants: []Grant{{Kind: KindBash, Command: command}}}
		v := Evaluate(in)
		if got := v.Decision == DecideAllow; got != holds {
			t.Errorf("%s: %+v", command, v)
		}
		if !holds && v.ReasonKey != "gate.reason.script_unverified" {
			t.Errorf("%s: reason %q", command, v.ReasonKey)
		}
	}
}

// The reason names the files that changed, and the verdict carries the approved record (for
// the card's diff).
func TestScriptChangedNamesTheFile(t *testing.T) {
	ws := t.TempDir()
	setFiles(t, ws, map[string]string{"a.sh": "a", "b.sh": "b"})
	cmd := "bash a.sh; bash b.sh"
	approved := resolveBash(t, ws, cmd)
	setFiles(t, ws, map[string]string{"b.sh": "changed"})
	v := Evaluate(Input{SensitiveMasked: true, Mode: mode.ModeExecute, Permission: Auto, Sandboxed: true, Call: resolveBash(t, ws, cmd),
		Grants: []Grant{{Kind: KindBash, Command: cmd, Scripts: approved.Scripts}}})
	if v.ReasonArgs["Scripts"] != "b.sh" || v.ApprovedScripts != approved.Scripts {
		t.Fatalf("%+v", v)
	}
}

// A file that is not a regular file (a folder, a fifo) or lies outside the workspace through a
// link cannot be verified: a grant never holds on it, recorded or not.
func TestScriptsThatCannotBeVerifiedNeverHold(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	setFiles(t, ws, map[string]string{"build.sh": "echo ok"})
	approved := resolveBash(t, ws, "bash build.sh")
	setFiles(t, outside, map[string]string{"evil.sh": "echo ok"})
	os.Remove(filepath.Join(ws, "build.sh"))
	if err := os.Symlink(filepath.Join(outside, "evil.sh"), filepath.Join(ws, "build.sh")); err != nil {
		t.Fatal(err)
	}
	now := resolveBash(t, ws, "bash build.sh")
	if scriptsHold(approved.Scripts, now.Scripts) {
		t.Fatalf("a script swapped for a link outside held: %q → %q", approved.Scripts, now.Scripts)
	}
	if ch := ScriptChanges(approved.Scripts, now.Scripts); len(ch) != 1 || ch[0].Path != "build.sh" || ch[0].Now != "" {
		t.Fatalf("the change names %+v, want build.sh gone from the workspace", ch)
	}
	os.Mkdir(filepath.Join(ws, "dir.sh"), 0o755)
	dir := resolveBash(t, ws, "bash dir.sh")
	if !strings.HasPrefix(dir.Scripts, digestUnverifiable) || scriptsHold(dir.Scripts, dir.Scripts) {
		t.Fatalf("a folder held: %q", dir.Scripts)
	}
}

// Full access runs every command whatever the record says; the record never denies.
func TestStaleScriptsStillRunInFull(t *testing.T) {
	ws := t.TempDir()
	setFiles(t, ws, map[string]string{"build.sh": "a"})
	v := Evaluate(Input{SensitiveMasked: true, Mode: mode.ModeExecute, Permission: Full, Sandboxed: true, Call: resolveBash(t, ws, "bash build.sh"),
		Grants: []Grant{{Kind: KindBash, Command: "bash build.sh", Scripts: "0  build.sh"}}})
	if v.Decision != DecideAllow {
		t.Fatalf("%+v", v)
	}
}

func resolveBash(t *testing.T, ws, command string) Resolved {
	t.Helper()
	r, err := Resolve(Workspace{Root: ws}, Call{Kind: KindBash, Command: command})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func setFiles(t *testing.T, ws string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(ws, name)
		if content == "" {
			os.Remove(p)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
