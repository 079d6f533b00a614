package tool

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/locales"
)

func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadWholeFileWithLineNumbers(t *testing.T) {
	ws := workspace(t, map[string]string{"src/a.txt": "alpha\nbeta\r\n\tgamma"})
	res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"src/a.txt"}`)
	want := "     1\talpha\n     2\tbeta\n     3\t\tgamma\n"
	if res.Output != want || res.Truncated || res.IsError {
		t.Fatalf("got %+v, want %q", res, want)
	}
	abs := filepath.Join(ws, "src", "a.txt")
	if res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, jsonInput(t, map[string]string{"path": abs})); res.Output != want {
		t.Fatalf("absolute path: %q", res.Output)
	}
}

func TestReadOffsetAndLimitAreLabelledPartial(t *testing.T) {
	ws := workspace(t, map[string]string{"f.txt": numbered(1, 10)})
	res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"f.txt","offset":3,"limit":4}`)
	lines := strings.Split(strings.TrimSuffix(res.Output, "\n"), "\n")
	if !res.Truncated || len(lines) != 5 {
		t.Fatalf("got %+v", res)
	}
	if want := "[Partial read of f.txt: lines 3-6 of 10. Continue with offset=7.]"; lines[0] != want {
		t.Fatalf("label %q, want %q", lines[0], want)
	}
	if lines[1] != "     3\tline 3" || lines[4] != "     6\tline 6" {
		t.Fatalf("lines %q", lines[1:])
	}
	// The tail of a file is partial too: lines before it were not read.
	res = mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"f.txt","offset":9}`)
	if !res.Truncated || !strings.HasPrefix(res.Output, "[Partial read of f.txt: lines 9-10 of 10.]\n") {
		t.Fatalf("tail: %+v", res)
	}
}

func TestReadDefaultLimitIs2000Lines(t *testing.T) {
	ws := workspace(t, map[string]string{"big.txt": numbered(1, 2500)})
	res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"big.txt"}`)
	if !strings.HasPrefix(res.Output, "[Partial read of big.txt: lines 1-2000 of 2500. Continue with offset=2001.]") {
		t.Fatalf("label: %q", res.Output[:120])
	}
	if !strings.HasSuffix(res.Output, "  2000\tline 2000\n") {
		t.Fatal("did not stop at line 2000")
	}
}

func TestReadByteCapAndLongLinesArePartial(t *testing.T) {
	long := strings.Repeat("é", 1500) // 3000 bytes, cut at a rune boundary
	ws := workspace(t, map[string]string{
		"wide.txt":  "short\n" + long + "\n",
		"heavy.txt": strings.Repeat(strings.Repeat("x", 1000)+"\n", 400),
	})
	res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"wide.txt"}`)
	if !res.Truncated || !strings.Contains(res.Output, "1 long line(s) were cut at 2000 bytes") ||
		!strings.Contains(res.Output, "[line cut at 2000 bytes]") || strings.Contains(res.Output, "\uFFFD") {
		t.Fatalf("wide: %q", res.Output[:200])
	}
	res = mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"heavy.txt"}`)
	if !res.Truncated || len(res.Output) > readByteCap+200 || !strings.Contains(res.Output, "Output stopped at the 256 KiB limit") {
		t.Fatalf("heavy: %d bytes, %q", len(res.Output), res.Output[:200])
	}
}

func TestReadErrors(t *testing.T) {
	ws := workspace(t, map[string]string{"f.txt": "a\nb\n", "bin.dat": "ELF\x00\x01\x02", "dir/x": "", "empty": ""})
	env := Env{Workspace: ws}
	_, err := run(t, mode.ToolRead, env, `{"path":"nope.txt"}`)
	wantKind(t, err, FileNotFound)
	_, err = run(t, mode.ToolRead, env, `{"path":"dir"}`)
	wantKind(t, err, NotAFile)
	_, err = run(t, mode.ToolRead, env, `{"path":"bin.dat"}`)
	wantKind(t, err, BinaryFile)
	_, err = run(t, mode.ToolRead, env, `{"path":"f.txt","offset":3}`)
	e := wantKind(t, err, OffsetPastEnd)
	if e.Args["Lines"] != 2 || e.Args["Offset"] != 3 {
		t.Fatalf("args %v", e.Args)
	}
	if res := mustRun(t, mode.ToolRead, env, `{"path":"empty"}`); res.Output != "[empty is empty]" {
		t.Fatalf("empty: %q", res.Output)
	}
	_, err = run(t, mode.ToolRead, Env{}, `{"path":"f.txt"}`)
	wantKind(t, err, ToolFailed)
}

func TestReadFollowsASymlinkLikeTheGate(t *testing.T) {
	ws := workspace(t, map[string]string{"real/f.txt": "hi\n"})
	if err := os.Symlink(filepath.Join(ws, "real"), filepath.Join(ws, "link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if res := mustRun(t, mode.ToolRead, Env{Workspace: ws}, `{"path":"link/f.txt"}`); res.Output != "     1\thi\n" {
		t.Fatalf("got %q", res.Output)
	}
}

func TestReadRefusesAFileSwappedForASymlinkAfterApproval(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "inside\n"})
	secret := outsideFile(t, "secret\n")
	target := approve(t, ws, "a.txt")
	swapForSymlink(t, filepath.Join(ws, "a.txt"), secret)
	res, err := run(t, mode.ToolRead, Env{Workspace: ws, Target: target}, `{"path":"a.txt"}`)
	wantChanged(t, err, target.Path, secret)
	if strings.Contains(res.Output, "secret") {
		t.Fatalf("the outside file was read: %q", res.Output)
	}
}

// TestReadThroughTheRootCannotBeLedOut swaps the file after the tool's own check, as a racing
// attacker would: os.Root then refuses to follow the symlink out of the workspace.
func TestReadThroughTheRootCannotBeLedOut(t *testing.T) {
	ws := workspace(t, map[string]string{"a.txt": "inside\n"})
	secret := outsideFile(t, "secret\n")
	at, err := locate(mode.ToolRead, Env{Workspace: ws, Target: approve(t, ws, "a.txt")}, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer at.close()
	swapForSymlink(t, filepath.Join(ws, "a.txt"), secret)
	if f, err := at.fs.Open(at.name); err == nil {
		f.Close()
		t.Fatal("the root followed a symlink out of the workspace")
	}
	_, err = at.openRegular()
	wantChanged(t, err, at.abs, secret)
}

func TestReadWithAnApprovedTarget(t *testing.T) {
	real := workspace(t, map[string]string{"src/a.txt": "hi\n"})
	// The workspace folder itself may be a symlink; the root is opened at its real folder.
	ws := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, ws); err != nil {
		t.Skip("no symlinks:", err)
	}
	for _, p := range []string{"src/a.txt", filepath.Join(ws, "src", "a.txt")} {
		env := Env{Workspace: ws, Target: approve(t, ws, p)}
		if res := mustRun(t, mode.ToolRead, env, jsonInput(t, map[string]string{"path": p})); res.Output != "     1\thi\n" {
			t.Fatalf("%s: %q", p, res.Output)
		}
	}
}

func TestReadAnApprovedPathOutsideTheWorkspace(t *testing.T) {
	ws := t.TempDir()
	secret := outsideFile(t, "approved\n")
	target := approve(t, ws, secret)
	if target.Inside {
		t.Fatal("the outside file resolved inside")
	}
	res := mustRun(t, mode.ToolRead, Env{Workspace: ws, Target: target}, jsonInput(t, map[string]string{"path": secret}))
	if res.Output != "     1\tapproved\n" {
		t.Fatalf("got %q", res.Output)
	}
	// Approving one file does not approve another.
	_, err := run(t, mode.ToolRead, Env{Workspace: ws, Target: approve(t, ws, "other.txt")}, jsonInput(t, map[string]string{"path": secret}))
	wantKind(t, err, TargetChanged)
}

// TestTargetChangedTellsTheModelWhatHappened checks the English message, which the model reads.
func TestTargetChangedTellsTheModelWhatHappened(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	e := targetChanged("a.txt", "/ws/a.txt", "/etc/passwd")
	msg := b.Error("en", e)
	for _, want := range []string{"a.txt", "/ws/a.txt", "/etc/passwd", "not carried out"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	for _, lang := range locales.Languages {
		if msg := b.Error(lang, e); strings.Contains(msg, "<no value>") || strings.HasPrefix(msg, "error.") {
			t.Errorf("%s: %q", lang, msg)
		}
	}
}
