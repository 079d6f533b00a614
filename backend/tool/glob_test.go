package tool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

func globTree(t *testing.T) string {
	return workspace(t, map[string]string{
		"top.go":            "",
		"README.md":         "",
		"a/x.go":            "",
		"a/b/c.go":          "",
		"a/b/c_test.go":     "",
		"a/b/deep/d.ts":     "",
		"lib/e.ts":          "",
		"lib/f.tsx":         "",
		".git/config.go":    "",
		"a/.git/hooks/h.go": "",
	})
}

func globLines(t *testing.T, ws, pattern string) []string {
	t.Helper()
	res := mustRun(t, mode.ToolGlob, Env{Workspace: ws}, jsonInput(t, map[string]string{"pattern": pattern}))
	if res.Output == "No files match the pattern." {
		return nil
	}
	return strings.Split(res.Output, "\n")
}

func TestGlobPatterns(t *testing.T) {
	ws := globTree(t)
	cases := map[string]string{
		"**/*.go":           "a/b/c.go a/b/c_test.go a/x.go top.go",
		"*.go":              "top.go",
		"a/**/*.go":         "a/b/c.go a/b/c_test.go a/x.go",
		"a/**":              "a/b/c.go a/b/c_test.go a/b/deep/d.ts a/x.go",
		"**/*_test.go":      "a/b/c_test.go",
		"{a,lib}/*.{go,ts}": "a/x.go lib/e.ts",
		"lib/*.ts?":         "lib/f.tsx",
		"a/[ab]/c.go":       "a/b/c.go",
		"**/deep/**":        "a/b/deep/d.ts",
		"*/":                "a/ lib/",
		"a/**/":             "a/b/ a/b/deep/",
		"README.md":         "README.md",
		"lib/":              "lib/",
		"missing/**/*.go":   "",
		"nothing.txt":       "",
		"./a/*.go":          "a/x.go",
	}
	for pattern, want := range cases {
		got := strings.Join(globLines(t, ws, pattern), " ")
		if got != want {
			t.Errorf("%q: got %q, want %q", pattern, got, want)
		}
	}
}

func TestGlobOutsideTheWorkspaceShowsThePatternsPath(t *testing.T) {
	parent := t.TempDir()
	ws := filepath.Join(parent, "ws")
	writeFile(t, filepath.Join(parent, "other", "o.go"), "")
	writeFile(t, filepath.Join(ws, "w.go"), "")
	if got := globLines(t, ws, "../other/*.go"); len(got) != 1 || got[0] != "../other/o.go" {
		t.Fatalf("got %q", got)
	}
	abs := filepath.ToSlash(filepath.Join(parent, "other")) + "/*.go"
	if got := globLines(t, ws, abs); len(got) != 1 || got[0] != filepath.ToSlash(filepath.Join(parent, "other", "o.go")) {
		t.Fatalf("absolute: %q", got)
	}
}

func TestGlobDoesNotFollowSymlinkedFolders(t *testing.T) {
	outside := workspace(t, map[string]string{"secret.go": ""})
	ws := workspace(t, map[string]string{"in.go": ""})
	if err := os.Symlink(outside, filepath.Join(ws, "out")); err != nil {
		t.Skip("no symlinks:", err)
	}
	if got := strings.Join(globLines(t, ws, "**/*.go"), " "); got != "in.go" {
		t.Fatalf("got %q", got)
	}
}

func TestGlobCapsResults(t *testing.T) {
	ws := t.TempDir()
	for i := range 1005 {
		writeFile(t, filepath.Join(ws, "many", fmt.Sprintf("f%04d.txt", i)), "")
	}
	res := mustRun(t, mode.ToolGlob, Env{Workspace: ws}, `{"pattern":"many/*.txt"}`)
	lines := strings.Split(res.Output, "\n")
	if !res.Truncated || len(lines) != 1001 || lines[0] != "many/f0000.txt" || lines[999] != "many/f0999.txt" {
		t.Fatalf("truncated %v, %d lines, first %q", res.Truncated, len(lines), lines[0])
	}
	if !strings.Contains(lines[1000], "first 1000 of 1005 matches") {
		t.Fatalf("notice %q", lines[1000])
	}
}

func TestGlobRejectsBadPatterns(t *testing.T) {
	for _, p := range []string{"a/[b", "{a,b", "**/" + strings.Repeat("{a,b}", 10)} {
		_, err := get(t, mode.ToolGlob).Describe([]byte(jsonInput(t, map[string]string{"pattern": p})))
		wantKind(t, err, InvalidPattern)
	}
}

func TestMatchSegmentsHasNoExponentialBacktracking(t *testing.T) {
	pat := strings.Split(strings.Repeat("**/a/", 20)+"b", "/")
	segs := strings.Split(strings.Repeat("a/", 60)+"c", "/")
	if match, _ := matchSegments(pat, segs); match {
		t.Fatal("matched")
	}
}

func TestGlobRefusesABaseSwappedForASymlinkAfterApproval(t *testing.T) {
	ws := workspace(t, map[string]string{"sub/in.go": ""})
	outside := filepath.Dir(outsideFile(t, ""))
	writeFile(t, filepath.Join(outside, "secret.go"), "")
	target := approve(t, ws, "sub")
	swapForSymlink(t, filepath.Join(ws, "sub"), outside)
	res, err := run(t, mode.ToolGlob, Env{Workspace: ws, Target: target}, `{"pattern":"sub/*.go"}`)
	wantChanged(t, err, target.Path, outside)
	if strings.Contains(res.Output, "secret") {
		t.Fatalf("listed the outside folder: %q", res.Output)
	}
	// Swapped after the check, the walk through the root refuses too.
	swapForSymlink(t, filepath.Join(ws, "sub"), filepath.Join(ws, "real"))
	writeFile(t, filepath.Join(ws, "real", "in.go"), "")
	at, err := locate(mode.ToolGlob, Env{Workspace: ws}, "sub")
	if err != nil {
		t.Fatal(err)
	}
	defer at.close()
	swapForSymlink(t, filepath.Join(ws, "real"), outside)
	gp, _ := compileGlob("sub/*.go")
	found, err := gp.find(context.Background(), at)
	wantChanged(t, err, at.abs, outside)
	if len(found) != 0 {
		t.Fatalf("found %q", found)
	}
}

func TestGlobWithAnApprovedTarget(t *testing.T) {
	ws := globTree(t)
	env := Env{Workspace: ws, Target: approve(t, ws, ".")}
	if res := mustRun(t, mode.ToolGlob, env, `{"pattern":"**/*_test.go"}`); res.Output != "a/b/c_test.go" {
		t.Fatalf("got %q", res.Output)
	}
	env.Target = approve(t, ws, "lib")
	if res := mustRun(t, mode.ToolGlob, env, `{"pattern":"lib/*.ts"}`); res.Output != "lib/e.ts" {
		t.Fatalf("lib: %q", res.Output)
	}
}
