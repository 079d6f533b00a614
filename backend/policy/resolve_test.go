package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture builds: <tmp>/real-ws (the workspace, with a .git dir and main.go), <tmp>/outside
// (secret.txt), <tmp>/data (the app's data folder) and <tmp>/ws-link -> real-ws.
type fixture struct {
	tmp, ws, outside, data, wsLink string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := fixture{tmp: tmp, ws: filepath.Join(tmp, "real-ws"), outside: filepath.Join(tmp, "outside"),
		data: filepath.Join(tmp, "data"), wsLink: filepath.Join(tmp, "ws-link")}
	for _, d := range []string{f.ws, filepath.Join(f.ws, ".git"), filepath.Join(f.ws, "src"), f.outside, f.data} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, file := range []string{filepath.Join(f.ws, "main.go"), filepath.Join(f.ws, ".git", "config"), filepath.Join(f.outside, "secret.txt"), filepath.Join(f.data, "agentdesk.db")} {
		must(t, os.WriteFile(file, []byte("x"), 0o644))
	}
	must(t, os.Symlink(f.ws, f.wsLink))
	return f
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestResolvePathEscapes(t *testing.T) {
	f := newFixture(t)
	must(t, os.Symlink(f.outside, filepath.Join(f.ws, "out-link")))
	must(t, os.Symlink(filepath.Join(f.outside, "new.txt"), filepath.Join(f.ws, "dangling")))
	must(t, os.Symlink(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.ws, "src", "secret-link")))
	must(t, os.Symlink(f.data, filepath.Join(f.ws, "data-link")))
	must(t, os.Symlink("../outside", filepath.Join(f.ws, "rel-link")))

	cases := []struct {
		name      string
		root      string
		path      string
		inside    bool
		protected Protection
	}{
		{"a plain relative path is inside", f.ws, "main.go", true, NotProtected},
		{"a new file is inside", f.ws, "src/new/file.go", true, NotProtected},
		{"dot-dot out of the workspace is outside", f.ws, "../outside/secret.txt", false, NotProtected},
		{"dot-dot through a missing folder is outside", f.ws, "missing/../../outside/secret.txt", false, NotProtected},
		{"dot-dot that stays inside is inside", f.ws, "src/../main.go", true, NotProtected},
		{"a symlinked folder pointing out is outside", f.ws, "out-link/secret.txt", false, NotProtected},
		{"a relative symlink pointing out is outside", f.ws, "rel-link/secret.txt", false, NotProtected},
		{"a symlinked file pointing out is outside", f.ws, "src/secret-link", false, NotProtected},
		{"a dangling symlink pointing out is outside", f.ws, "dangling", false, NotProtected},
		{"dot-dot after a symlink follows the link's parent", f.ws, "out-link/../outside/secret.txt", false, NotProtected},
		{"a missing folder then dot-dot then a link is outside", f.ws, "nope/../out-link/new.txt", false, NotProtected},
		{"an absolute path outside is outside", f.ws, filepath.Join(f.outside, "secret.txt"), false, NotProtected},
		{"an absolute path inside is inside", f.ws, filepath.Join(f.ws, "main.go"), true, NotProtected},
		{"a symlinked workspace root still contains its files", f.wsLink, "main.go", true, NotProtected},
		{"an absolute path through the real root is inside a symlinked workspace", f.wsLink, filepath.Join(f.ws, "main.go"), true, NotProtected},
		{"an absolute path through the root link is inside", f.ws, filepath.Join(f.wsLink, "main.go"), true, NotProtected},
		{"dot-dot out of a symlinked workspace is outside", f.wsLink, "../outside/secret.txt", false, NotProtected},
		{".git/config is protected", f.ws, ".git/config", true, ProtectedGit},
		{".git itself is protected", f.ws, ".git", true, ProtectedGit},
		{"a nested .git is protected", f.ws, "src/vendor/.git/HEAD", true, ProtectedGit},
		{"a differently cased .GIT is protected", f.ws, ".GIT/config", true, ProtectedGit},
		{"dot-dot into .git is protected", f.ws, "src/../.git/config", true, ProtectedGit},
		{"the data folder is protected", f.ws, filepath.Join(f.data, "agentdesk.db"), false, ProtectedData},
		{"the data folder through a symlink is protected", f.ws, "data-link/agentdesk.db", false, ProtectedData},
		{"a .gitignore is not protected", f.ws, ".gitignore", true, NotProtected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Resolve(Workspace{Root: c.root, DataDir: f.data}, Call{Kind: KindWrite, Path: c.path})
			if err != nil {
				t.Fatal(err)
			}
			if r.Target.Inside != c.inside || r.Target.Protected != c.protected || !r.Target.Resolved {
				t.Fatalf("%s resolved to %+v, want inside=%v protected=%q", c.path, r.Target, c.inside, c.protected)
			}
		})
	}
}

func TestResolvedEscapesAsk(t *testing.T) {
	f := newFixture(t)
	must(t, os.Symlink(f.outside, filepath.Join(f.ws, "out-link")))
	for _, p := range []string{"../outside/secret.txt", "out-link/secret.txt", filepath.Join(f.outside, "secret.txt"), ".git/config"} {
		r, err := Resolve(Workspace{Root: f.wsLink, DataDir: f.data}, Call{Kind: KindEdit, Path: p})
		if err != nil {
			t.Fatal(err)
		}
		if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Call: r}); v.Decision != DecideAsk {
			t.Errorf("edit of %s in auto: %s, want ask", p, v.Decision)
		}
	}
}

func TestResolveSymlinkLoopFailsAndAsks(t *testing.T) {
	f := newFixture(t)
	must(t, os.Symlink("loop-b", filepath.Join(f.ws, "loop-a")))
	must(t, os.Symlink("loop-a", filepath.Join(f.ws, "loop-b")))
	r, err := Resolve(Workspace{Root: f.ws}, Call{Kind: KindWrite, Path: "loop-a/x"})
	if err == nil {
		t.Fatalf("a symlink loop resolved to %+v", r.Target)
	}
	if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Full, Call: r}); v.Decision != DecideAsk {
		t.Fatalf("an unresolved path must ask, got %s", v.Decision)
	}
}

func TestResolveParsesBash(t *testing.T) {
	r, err := Resolve(Workspace{Root: t.TempDir()}, Call{Kind: KindBash, Command: "ls"})
	if err != nil || r.Shell == nil || !r.Shell.ReadOnly {
		t.Fatalf("Resolve(bash) = %+v, %v", r, err)
	}
}

func BenchmarkResolve(b *testing.B) {
	tmp := b.TempDir()
	ws := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "src", "pkg"), 0o755); err != nil {
		b.Fatal(err)
	}
	w := Workspace{Root: ws, DataDir: filepath.Join(tmp, "data")}
	call := Call{Kind: KindEdit, Path: "src/pkg/file.go"}
	for b.Loop() {
		if _, err := Resolve(w, call); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDropDotSegments(t *testing.T) {
	for in, want := range map[string]string{
		"/ws/.": "/ws", "/ws/./a/./b": "/ws/a/b", "/ws//a": "/ws/a", "/ws/a/": "/ws/a/", "/ws/./a/": "/ws/a/",
		"/ws/../a/./b": "/ws/../a/b", "/ws/a": "/ws/a", "/.": "/", "/ws/.hidden/./x": "/ws/.hidden/x",
	} {
		if got := dropDotSegments(in); got != want {
			t.Errorf("dropDotSegments(%q) = %q, want %q", in, got, want)
		}
	}
}

// pathOf finds the resolved word that ends in suffix.
func pathOf(t *testing.T, sh *Shell, suffix string) Target {
	t.Helper()
	for _, p := range sh.paths {
		if filepath.Base(p.Path) == suffix || p.Rel == suffix {
			return p
		}
	}
	t.Fatalf("no resolved word ends in %q: %+v", suffix, sh.paths)
	return Target{}
}

// A glob's folder listing spares the resolution of its plain entries, never of its links.
func TestGlobListingStillFollowsLinks(t *testing.T) {
	f := newFixture(t)
	must(t, os.Symlink(filepath.Join(f.outside, "secret.txt"), filepath.Join(f.ws, "src", "leak")))
	must(t, os.WriteFile(filepath.Join(f.ws, "src", "a.go"), []byte("x"), 0o644))
	r, err := Resolve(Workspace{Root: f.ws, DataDir: f.data}, Call{Kind: KindBash, Command: "cat src/*"})
	if err != nil {
		t.Fatal(err)
	}
	if leak := pathOf(t, r.Shell, "secret.txt"); leak.Inside {
		t.Fatalf("a link listed by the glob was judged inside: %+v", leak)
	}
	if a := pathOf(t, r.Shell, "src/a.go"); !a.Inside || a.Path != filepath.Join(f.ws, "src", "a.go") {
		t.Fatalf("a plain entry: %+v", a)
	}
	if v := Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Sandboxed: true, Call: r}); v.Decision == DecideAllow {
		t.Fatalf("reading through a link out of the workspace ran unasked: %+v", v)
	}
}

// The remembered real path of a root is dropped once the root names another folder.
func TestRememberedRootFollowsASwappedRoot(t *testing.T) {
	f := newFixture(t)
	ws := Workspace{Root: f.wsLink, DataDir: f.data}
	first, err := Resolve(ws, Call{Kind: KindRead, Path: "main.go"})
	if err != nil || !first.Target.Inside {
		t.Fatalf("first: %+v, %v", first, err)
	}
	must(t, os.Remove(f.wsLink))
	must(t, os.Symlink(f.outside, f.wsLink))
	second, err := Resolve(ws, Call{Kind: KindRead, Path: "secret.txt"})
	if err != nil || second.Target.Path != filepath.Join(f.outside, "secret.txt") || !second.Target.Inside {
		t.Fatalf("after the swap the root is the new folder: %+v, %v", second, err)
	}
	inOld, err := Resolve(ws, Call{Kind: KindRead, Path: filepath.Join(f.ws, "main.go")})
	if err != nil || inOld.Target.Inside {
		t.Fatalf("the old root is outside now: %+v, %v", inOld, err)
	}
}

// within's shortcut gives what filepath.Rel gives.
func TestWithinAgreesWithRel(t *testing.T) {
	slow := func(base, p string) (string, bool) {
		rel, err := filepath.Rel(base, p)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", false
		}
		return rel, true
	}
	bases := []string{"/ws", "/", "/ws/sub", "/w"}
	paths := []string{"/ws", "/ws/a", "/ws/a/", "/ws//a", "/ws/./a", "/ws/a/.", "/ws/../x", "/wsx/a", "/", "/w",
		"/ws/a/b.c", "/ws/.git", "/ws/..a", "/ws/a..", "/ws/sub/x", "/ws/a/../../etc", "/ws/.", "/ws/..", "/x"}
	for _, b := range bases {
		for _, p := range paths {
			gotRel, gotOK := within(b, p)
			wantRel, wantOK := slow(b, p)
			if gotRel != wantRel || gotOK != wantOK {
				t.Errorf("within(%q, %q) = %q %v, Rel says %q %v", b, p, gotRel, gotOK, wantRel, wantOK)
			}
		}
	}
}
