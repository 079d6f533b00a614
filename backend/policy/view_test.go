package policy

import (
	"io/fs"
	"path"
	"sort"
	"strings"
)

// memView is an in-memory file system seen from the workspace /ws, for tests and fuzzers: the
// shell analysis expands globs against it and resolves words through it, symbolic links
// included, without touching the disk.
type memView struct {
	files map[string]bool   // absolute paths of files and folders
	links map[string]string // absolute path of a link → its target (absolute or relative)
}

const (
	memRoot = "/ws"
	memHome = "/home/u"
	memData = "/home/u/.local/share/agentdesk"
)

// newMemView builds the standard test tree: a small project with a .git folder, a secrets
// folder, a link that leads out of the workspace and one that stays in.
func newMemView() *memView {
	v := &memView{files: map[string]bool{}, links: map[string]string{}}
	for _, f := range []string{
		"/ws/README.md", "/ws/go.mod", "/ws/main.go", "/ws/main_test.go", "/ws/src/a.go", "/ws/src/b.go",
		"/ws/.git/config", "/ws/.git/HEAD", "/ws/.git/hooks/pre-commit", "/ws/secrets/key.txt",
		"/ws/docs/guide.md", "/ws/-delete", "/ws/.env",
		"/etc/passwd", "/etc/shadow", "/proc/self/environ", "/bin/rm", "/bin/rmdir", "/bin/ls", "/bin/cat",
		"/home/u/.ssh/id_rsa", "/home/u/.aws/credentials", memData + "/agentdesk.db", "/tmp/x",
	} {
		v.add(f)
	}
	v.links["/ws/out"] = "/etc"
	v.links["/ws/passwd-link"] = "/etc/passwd"
	v.links["/ws/docs/up"] = "../.."
	v.links["/ws/inner"] = "src"
	return v
}

func (v *memView) add(p string) {
	for d := p; d != "/"; d = path.Dir(d) {
		v.files[d] = true
	}
}

func (v *memView) Root() string { return memRoot }
func (v *memView) Home() string { return memHome }

func (v *memView) ReadDir(dir string) ([]fs.DirEntry, error) {
	real := v.real(dir)
	if !v.files[real] && real != "/" {
		return nil, fs.ErrNotExist
	}
	prefix := strings.TrimSuffix(real, "/") + "/"
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, p := range v.paths() {
		name, _, _ := strings.Cut(strings.TrimPrefix(p, prefix), "/")
		if !strings.HasPrefix(p, prefix) || name == "" || seen[name] {
			continue
		}
		seen[name] = true
		_, link := v.links[prefix+name]
		out = append(out, memEntry{name: name, dir: v.isDir(prefix + name), link: link})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

func (v *memView) paths() []string {
	out := make([]string, 0, len(v.files)+len(v.links))
	for p := range v.files {
		out = append(out, p)
	}
	for p := range v.links {
		out = append(out, p)
	}
	return out
}

func (v *memView) isDir(p string) bool {
	for f := range v.files {
		if strings.HasPrefix(f, p+"/") {
			return true
		}
	}
	return false
}

// memEntry is a directory entry of memView.
type memEntry struct {
	name string
	dir  bool
	link bool
}

func (e memEntry) Name() string { return e.name }
func (e memEntry) IsDir() bool  { return e.dir && !e.link }
func (e memEntry) Type() fs.FileMode {
	if e.link {
		return fs.ModeSymlink
	}
	if e.dir {
		return fs.ModeDir
	}
	return 0
}
func (e memEntry) Info() (fs.FileInfo, error) { return nil, fs.ErrInvalid }

// real follows links component by component, as the kernel would.
func (v *memView) real(p string) string {
	if !strings.HasPrefix(p, "/") {
		p = memRoot + "/" + p
	}
	out := "/"
	parts := strings.Split(path.Clean(p), "/")
	for hops := 0; len(parts) > 0 && hops < 40; {
		next := path.Join(out, parts[0])
		parts = parts[1:]
		if target, ok := v.links[next]; ok {
			hops++
			if !strings.HasPrefix(target, "/") {
				target = path.Join(out, target)
			}
			parts = append(strings.Split(strings.TrimPrefix(path.Clean(target), "/"), "/"), parts...)
			out = "/"
			continue
		}
		out = next
	}
	return out
}

func (v *memView) Resolve(p string) Target {
	abs := v.real(p)
	t := Target{Resolved: true, Path: abs}
	if abs == memRoot || strings.HasPrefix(abs, memRoot+"/") {
		t.Inside, t.Rel = true, strings.TrimPrefix(strings.TrimPrefix(abs, memRoot), "/")
		if t.Rel == "" {
			t.Rel = "."
		}
		if hasGitComponent(t.Rel) {
			t.Protected = ProtectedGit
		}
	}
	if abs == memData || strings.HasPrefix(abs, memData+"/") {
		t.Protected = ProtectedData
	}
	return t
}
