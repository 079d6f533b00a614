package tool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

func TestGrepFindsLinesAsFileLineText(t *testing.T) {
	ws := workspace(t, map[string]string{
		"a.go":        "package a\nfunc Hello() {}\n",
		"sub/b.go":    "// hello there\nfunc HelloWorld() {}\n",
		".git/c":      "func Hello() {}\n",
		"bin.dat":     "func Hello()\x00\n",
		"sub/d/e.txt": "nothing\n",
	})
	env := Env{Workspace: ws}
	res := mustRun(t, mode.ToolGrep, env, `{"pattern":"func Hello"}`)
	want := "a.go:2:func Hello() {}\nsub/b.go:2:func HelloWorld() {}"
	if res.Output != want || res.Truncated {
		t.Fatalf("got %q, want %q", res.Output, want)
	}
	res = mustRun(t, mode.ToolGrep, env, `{"pattern":"(?i)hello","path":"sub"}`)
	if res.Output != "sub/b.go:1:// hello there\nsub/b.go:2:func HelloWorld() {}" {
		t.Fatalf("sub: %q", res.Output)
	}
	res = mustRun(t, mode.ToolGrep, env, `{"pattern":"package","path":"a.go"}`)
	if res.Output != "a.go:1:package a" {
		t.Fatalf("file: %q", res.Output)
	}
	if res := mustRun(t, mode.ToolGrep, env, `{"pattern":"zebra"}`); res.Output != "No matches." || res.IsError {
		t.Fatalf("none: %+v", res)
	}
}

func TestGrepErrors(t *testing.T) {
	ws := workspace(t, map[string]string{"a": "x\n"})
	_, err := get(t, mode.ToolGrep).Describe([]byte(`{"pattern":"(unclosed"}`))
	wantKind(t, err, InvalidPattern)
	_, err = run(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"x","path":"missing"}`)
	wantKind(t, err, FileNotFound)
}

func TestGrepCapsMatches(t *testing.T) {
	var b strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	ws := workspace(t, map[string]string{"many.txt": b.String(), "long.txt": "match " + strings.Repeat("y", 2000) + "\n"})
	res := mustRun(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"^match \\d","path":"many.txt"}`)
	lines := strings.Split(res.Output, "\n")
	if !res.Truncated || len(lines) != 1001 || !strings.Contains(lines[1000], "Stopped after 1000 matching lines") {
		t.Fatalf("truncated %v, %d lines, last %q", res.Truncated, len(lines), lines[len(lines)-1])
	}
	res = mustRun(t, mode.ToolGrep, Env{Workspace: ws}, `{"pattern":"match y","path":"long.txt"}`)
	if len(res.Output) > 600 || !strings.HasSuffix(res.Output, "[…]") {
		t.Fatalf("long line not cut: %d bytes", len(res.Output))
	}
}

func TestGrepRefusesAFolderSwappedForASymlinkAfterApproval(t *testing.T) {
	ws := workspace(t, map[string]string{"sub/in.txt": "needle inside\n"})
	secret := outsideFile(t, "needle outside\n")
	outside := filepath.Dir(secret)
	target := approve(t, ws, "sub")
	swapForSymlink(t, filepath.Join(ws, "sub"), outside)
	res, err := run(t, mode.ToolGrep, Env{Workspace: ws, Target: target}, `{"pattern":"needle","path":"sub"}`)
	wantChanged(t, err, target.Path, outside)
	if strings.Contains(res.Output, "outside") {
		t.Fatalf("searched the outside folder: %q", res.Output)
	}
}

// TestGrepThroughTheRootCannotBeLedOut swaps the folder after the tool's own check.
func TestGrepThroughTheRootCannotBeLedOut(t *testing.T) {
	ws := workspace(t, map[string]string{"sub/in.txt": "needle inside\n"})
	outside := filepath.Dir(outsideFile(t, "needle outside\n"))
	at, err := locate(mode.ToolGrep, Env{Workspace: ws, Target: approve(t, ws, "sub")}, "sub")
	if err != nil {
		t.Fatal(err)
	}
	defer at.close()
	swapForSymlink(t, filepath.Join(ws, "sub"), outside)
	s := &grepSearch{re: regexp.MustCompile("needle")}
	wantChanged(t, s.run(context.Background(), at), at.abs, outside)
	if s.matches != 0 {
		t.Fatalf("searched the outside folder: %q", s.out.String())
	}
}

func TestGrepDoesNotFollowSymlinksOutOfTheWorkspace(t *testing.T) {
	ws := workspace(t, map[string]string{"in.txt": "needle inside\n"})
	secret := outsideFile(t, "needle outside\n")
	if err := os.Symlink(secret, filepath.Join(ws, "file-link")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if err := os.Symlink(filepath.Dir(secret), filepath.Join(ws, "dir-link")); err != nil {
		t.Fatal(err)
	}
	env := Env{Workspace: ws, Target: approve(t, ws, ".")}
	if res := mustRun(t, mode.ToolGrep, env, `{"pattern":"needle"}`); res.Output != "in.txt:1:needle inside" {
		t.Fatalf("got %q", res.Output)
	}
}
