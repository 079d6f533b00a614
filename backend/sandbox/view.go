package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The file system a command sees in its own mount namespace: the toolchain read-only, the build
// caches read-write, the workspace, a private /tmp, and nothing else. Everything not listed
// here (the rest of $HOME with ~/.ssh, ~/.aws, keyrings and the app's data folder, /run with the
// D-Bus and docker sockets, /var, /srv, /mnt, other users' homes) does not exist for it.

// toolchainRoots are the top-level folders of the system's toolchain, shown read-only where
// they exist (a symbolic link among them, such as /bin on a merged /usr, is kept a link).
var toolchainRoots = []string{"/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix"}

// homeToolchains are version managers' folders under $HOME, shown read-only: the interpreters
// and compilers people install there (pyenv's python, nvm's node, rustup's toolchains).
// Their bin folders stay read-only even where the rest is a cache: a program planted there would
// run, unconfined, the next time the person types its name. git's own configuration is shown
// too (read-only), so a commit the person approved carries their name.
var homeToolchains = []string{".pyenv", ".nvm", ".rustup", ".volta", ".bun", ".deno", ".rbenv", ".asdf", ".sdkman",
	".local/bin", "go/bin", ".cargo/bin", ".gitconfig", ".config/git"}

// homeCaches are the build caches that package managers and compilers write under $HOME (Go,
// npm, pip, cargo), shown read-write so a build inside the sandbox reuses and fills them. A
// cache is shared with the person's own builds; doctor lists these so the person knows.
var homeCaches = []string{"go/pkg/mod", ".cache/go-build", ".npm", ".cache/pip", ".cargo/registry", ".cargo/git"}

// View is the file system a namespaced command sees, as absolute paths on the host, each shown
// at the same path inside.
type View struct {
	// ReadOnly: the toolchain, and the person's PATH folders under $HOME.
	ReadOnly []string `json:"read_only"`
	// ReadWrite: the build caches (the workspace and /tmp are added per command).
	ReadWrite []string `json:"read_write"`
}

// DefaultView is the view for the current user: the toolchain folders that exist, the version
// managers' folders and PATH entries under $HOME, and the build caches that exist.
func DefaultView() View {
	home, _ := os.UserHomeDir()
	return viewFor(home, os.Getenv("PATH"), present)
}

func viewFor(home, path string, present func(string) bool) View {
	var v View
	for _, root := range toolchainRoots {
		if present(root) {
			v.ReadOnly = append(v.ReadOnly, root)
		}
	}
	if home == "" || !filepath.IsAbs(home) || home == "/" {
		return v
	}
	for _, rel := range homeToolchains {
		v.ReadOnly = appendPresent(v.ReadOnly, filepath.Join(home, rel), present)
	}
	for _, dir := range filepath.SplitList(path) {
		if filepath.IsAbs(dir) && within(filepath.Clean(dir), home) && filepath.Clean(dir) != home {
			v.ReadOnly = appendPresent(v.ReadOnly, filepath.Clean(dir), present)
		}
	}
	for _, rel := range homeCaches {
		v.ReadWrite = appendPresent(v.ReadWrite, filepath.Join(home, rel), present)
	}
	v.ReadOnly = slices.DeleteFunc(v.ReadOnly, func(ro string) bool { return coveredBy(ro, v.ReadWrite) })
	return v
}

// appendPresent adds dir once, when it exists and no folder already listed holds it.
func appendPresent(list []string, dir string, present func(string) bool) []string {
	if !present(dir) || coveredBy(dir, list) {
		return list
	}
	return append(list, dir)
}

// coveredBy reports whether path lies inside (or is) one of dirs.
func coveredBy(path string, dirs []string) bool {
	for _, d := range dirs {
		if within(path, d) {
			return true
		}
	}
	return false
}

func present(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// within reports whether path is dir or lies below it (both cleaned, absolute).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// with adds the folders in extra to what is shown read-only, each once.
func (v View) with(extra []string) View {
	out := View{ReadOnly: slices.Clone(v.ReadOnly), ReadWrite: v.ReadWrite}
	for _, dir := range extra {
		if filepath.IsAbs(dir) && !coveredBy(dir, out.ReadWrite) {
			out.ReadOnly = appendPresent(out.ReadOnly, filepath.Clean(dir), present)
		}
	}
	return out
}

// withWritable adds the folders in extra to what is shown read-write, each once; a folder the
// view shows read-only is left so (a toolchain never becomes writable through this list).
func (v View) withWritable(extra []string) View {
	out := View{ReadOnly: v.ReadOnly, ReadWrite: slices.Clone(v.ReadWrite)}
	for _, dir := range extra {
		if filepath.IsAbs(dir) && !coveredBy(filepath.Clean(dir), v.ReadOnly) {
			out.ReadWrite = appendPresent(out.ReadWrite, filepath.Clean(dir), present)
		}
	}
	return out
}
