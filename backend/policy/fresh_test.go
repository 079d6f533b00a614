package policy

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// These tests hold the gate to what the file system says at the moment of each decision: what
// an earlier decision learned (the real path of a root or data folder is remembered, see
// anchor in resolve.go) must never outlive a change made between two decisions. Each one
// decides once, changes the workspace, and decides again at once, well within any timestamp
// granularity.

// freshWorkspace is <tmp>/ws (README.md, src/a.go, secrets/key.txt) and <tmp>/outside/secret.txt.
func freshWorkspace(t *testing.T) (ws, outside string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	ws, outside = filepath.Join(tmp, "ws"), filepath.Join(tmp, "outside")
	for _, d := range []string{filepath.Join(ws, "src"), filepath.Join(ws, "secrets"), outside} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{filepath.Join(ws, "README.md"), filepath.Join(ws, "src", "a.go"),
		filepath.Join(ws, "secrets", "key.txt"), filepath.Join(outside, "secret.txt")} {
		must(t, os.WriteFile(f, []byte("x"), 0o644))
	}
	return ws, outside
}

func decideShell(t *testing.T, root, cmd string) (*Shell, Verdict) {
	t.Helper()
	r, _ := Resolve(Workspace{Root: root}, Call{Kind: KindBash, Command: cmd})
	rules := []Rule{{ID: "secrets", Effect: Deny, Path: "secrets/**"}}
	return r.Shell, Evaluate(Input{SensitiveMasked: true, Mode: "execute", Permission: Auto, Sandboxed: true, Rules: rules, Call: r})
}

func wantDecision(t *testing.T, root, cmd string, want Decision) {
	t.Helper()
	if _, v := decideShell(t, root, cmd); v.Decision != want {
		t.Fatalf("%q: %s (%s), want %s", cmd, v.Decision, v.ReasonKey, want)
	}
}

func TestFreshAFileSwappedForALinkOut(t *testing.T) {
	ws, outside := freshWorkspace(t)
	wantDecision(t, ws, "cat README.md", DecideAllow)
	must(t, os.Remove(filepath.Join(ws, "README.md")))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "README.md")))
	wantDecision(t, ws, "cat README.md", DecideAsk)
}

func TestFreshALinkRetargeted(t *testing.T) {
	ws, outside := freshWorkspace(t)
	link := filepath.Join(ws, "notes")
	must(t, os.Symlink("src/a.go", link))
	wantDecision(t, ws, "cat notes", DecideAllow)
	must(t, os.Rename(link, link+".old"))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), link))
	wantDecision(t, ws, "cat notes", DecideAsk)
}

func TestFreshAMissingNameCreatedAsALinkOut(t *testing.T) {
	ws, outside := freshWorkspace(t)
	wantDecision(t, ws, "cat later.txt", DecideAllow) // a missing name stays inside
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "later.txt")))
	wantDecision(t, ws, "cat later.txt", DecideAsk)
}

func TestFreshAGlobSeesAFileCreatedSinceTheLastDecision(t *testing.T) {
	ws, outside := freshWorkspace(t)
	sh, v := decideShell(t, ws, "cat src/*.go")
	if v.Decision != DecideAllow || len(sh.Commands) != 1 || len(sh.Commands[0]) != 2 {
		t.Fatalf("before: %+v %s", sh.Commands, v.Decision)
	}
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "src", "b.go")))
	sh, v = decideShell(t, ws, "cat src/*.go")
	if len(sh.Commands) != 1 || len(sh.Commands[0]) != 3 || v.Decision != DecideAsk {
		t.Fatalf("the glob missed the new link: %+v %s", sh.Commands, v.Decision)
	}
}

func TestFreshAFolderSwappedForALinkOut(t *testing.T) {
	ws, outside := freshWorkspace(t)
	wantDecision(t, ws, "cat src/a.go", DecideAllow)
	wantDecision(t, ws, "ls src/*", DecideAllow)
	must(t, os.Rename(filepath.Join(ws, "src"), filepath.Join(ws, "src.old")))
	must(t, os.WriteFile(filepath.Join(outside, "a.go"), []byte("x"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(ws, "src")))
	wantDecision(t, ws, "cat src/a.go", DecideAsk)
	wantDecision(t, ws, "ls src/*", DecideAsk)
}

func TestFreshANestedFolderSwappedBelowAWatchedOne(t *testing.T) {
	ws, outside := freshWorkspace(t)
	deep := filepath.Join(ws, "src", "pkg", "x")
	must(t, os.MkdirAll(deep, 0o755))
	must(t, os.WriteFile(filepath.Join(deep, "f.go"), []byte("x"), 0o644))
	wantDecision(t, ws, "cat src/pkg/x/f.go", DecideAllow)
	must(t, os.RemoveAll(filepath.Join(ws, "src", "pkg")))
	must(t, os.MkdirAll(filepath.Join(outside, "x"), 0o755))
	must(t, os.Symlink(outside, filepath.Join(ws, "src", "pkg")))
	wantDecision(t, ws, "cat src/pkg/x/f.go", DecideAsk)
}

func TestFreshALinkIntoADeniedFolder(t *testing.T) {
	ws, _ := freshWorkspace(t)
	wantDecision(t, ws, "cat key", DecideAllow)
	must(t, os.Symlink("secrets/key.txt", filepath.Join(ws, "key")))
	wantDecision(t, ws, "cat key", DecideDeny)
}

func TestFreshARootReplacedByAnotherFolder(t *testing.T) {
	ws, outside := freshWorkspace(t)
	wantDecision(t, ws, "cat README.md", DecideAllow)
	must(t, os.Rename(ws, ws+".old"))
	must(t, os.MkdirAll(ws, 0o755))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "README.md")))
	wantDecision(t, ws, "cat README.md", DecideAsk)
}

func TestFreshAGitFolderCreatedUnderAName(t *testing.T) {
	ws, _ := freshWorkspace(t)
	wantDecision(t, ws, "cat repo/config", DecideAllow)
	must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	must(t, os.Symlink(".git", filepath.Join(ws, "repo")))
	wantDecision(t, ws, "cat repo/config", DecideAsk)
}

// Decisions racing with a writer that keeps replacing a plain file by a link out and back: each
// decision started after a replacement completed must judge the name as it is now, never as an
// earlier decision saw it.
func TestFreshDecisionsRacingALinkSwapper(t *testing.T) {
	ws, outside := freshWorkspace(t)
	name := filepath.Join(ws, "flip")
	must(t, os.WriteFile(name, []byte("x"), 0o644))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 { // concurrent decisions fill and read the remembered facts meanwhile
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
					decideShell(t, ws, "cat flip src/a.go README.md")
				}
			}
		})
	}
	defer func() { close(stop); wg.Wait() }()
	for i := range 300 {
		out := i%2 == 0
		tmp := name + ".new"
		if out {
			must(t, os.Symlink(filepath.Join(outside, "secret.txt"), tmp))
		} else {
			must(t, os.WriteFile(tmp, []byte("x"), 0o644))
		}
		must(t, os.Rename(tmp, name))
		want := DecideAllow
		if out {
			want = DecideAsk
		}
		if _, v := decideShell(t, ws, "cat flip src/a.go README.md"); v.Decision != want {
			t.Fatalf("replacement %d (link out=%v): %s, want %s", i, out, v.Decision, want)
		}
	}
}

// Through a workspace root that is itself a link: what is remembered under the real root serves
// the linked spelling only while the link leads there.
func TestFreshThroughALinkedRoot(t *testing.T) {
	ws, outside := freshWorkspace(t)
	link := filepath.Join(filepath.Dir(ws), "ws-link")
	must(t, os.Symlink(ws, link))
	wantDecision(t, link, "cat README.md src/*.go", DecideAllow)
	must(t, os.Remove(filepath.Join(ws, "src", "a.go")))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws, "src", "a.go")))
	wantDecision(t, link, "cat README.md src/*.go", DecideAsk)

	other := filepath.Join(filepath.Dir(ws), "other")
	must(t, os.MkdirAll(other, 0o755))
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(other, "README.md")))
	wantDecision(t, link, "cat README.md", DecideAllow)
	must(t, os.Remove(link))
	must(t, os.Symlink(other, link))
	wantDecision(t, link, "cat README.md", DecideAsk)
}

// The folders above the root: the root's path is trusted between decisions only while nothing
// on its way from "/" changed, so a folder above it renamed, or swapped for a link, is seen.
func TestFreshAFolderAboveTheRootReplaced(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	above := filepath.Join(tmp, "above")
	ws := filepath.Join(above, "ws")
	must(t, os.MkdirAll(ws, 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "README.md"), []byte("x"), 0o644))
	secret := filepath.Join(tmp, "secret.txt")
	must(t, os.WriteFile(secret, []byte("x"), 0o644))

	wantDecision(t, ws, "cat README.md", DecideAllow)
	wantDecision(t, ws, "cat README.md", DecideAllow)
	must(t, os.Rename(above, above+".old"))
	must(t, os.MkdirAll(ws, 0o755))
	must(t, os.Symlink(secret, filepath.Join(ws, "README.md")))
	wantDecision(t, ws, "cat README.md", DecideAsk)

	elsewhere := filepath.Join(tmp, "elsewhere")
	must(t, os.MkdirAll(filepath.Join(elsewhere, "ws"), 0o755))
	must(t, os.WriteFile(filepath.Join(elsewhere, "ws", "README.md"), []byte("x"), 0o644))
	must(t, os.RemoveAll(above))
	must(t, os.Symlink(elsewhere, above))
	wantDecision(t, ws, "cat README.md", DecideAllow) // the real root is elsewhere/ws now
	must(t, os.Remove(above))
	must(t, os.Rename(above+".old", above))
	wantDecision(t, ws, "cat README.md", DecideAllow)
	must(t, os.Remove(filepath.Join(ws, "README.md")))
	must(t, os.Symlink(secret, filepath.Join(ws, "README.md")))
	wantDecision(t, ws, "cat README.md", DecideAsk)
}

// The data folder is protected by its path; a data folder moved away and replaced is found
// again, and what lies in it stays protected.
func TestFreshADataFolderReplaced(t *testing.T) {
	ws, _ := freshWorkspace(t)
	data := filepath.Join(filepath.Dir(ws), "data")
	must(t, os.MkdirAll(data, 0o755))
	must(t, os.Symlink(filepath.Join(data, "agentdesk.db"), filepath.Join(ws, "db")))
	decide := func() Target {
		r, err := Resolve(Workspace{Root: ws, DataDir: data}, Call{Kind: KindRead, Path: "db"})
		must(t, err)
		return r.Target
	}
	for range 2 {
		if got := decide(); got.Protected != ProtectedData {
			t.Fatalf("before: %+v", got)
		}
	}
	must(t, os.Rename(data, data+".old"))
	must(t, os.MkdirAll(data, 0o755))
	if got := decide(); got.Protected != ProtectedData {
		t.Fatalf("after the data folder was replaced: %+v", got)
	}
}
