package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// ProtectedAutorun marks a write or edit that would plant code other programs run on their
// own: git's hooks and config (fsmonitor, pagers, filters) in a folder git takes for a
// repository, submodule definitions, direnv's .envrc. Such code runs later, outside any
// sandbox and without a question, so planting it is a step out of the sandbox: it asks in
// every permission mode, and no grant or allow rule answers it (layer 2 decides before them).
const ProtectedAutorun Protection = "autorun"

// AutorunPatterns says, for `agentdesk doctor`, which writes the write and edit tools ask
// about every time.
var AutorunPatterns = []string{
	"**/.git",
	"**/.git/**",
	"**/.gitmodules",
	"**/.envrc",
	"DIR/** where DIR holds, after the write, HEAD and one of config, objects/, refs/ (a bare repository layout)",
}

// autorunNames are file names that some program reads and runs from at any depth; compared
// in any letter case, since a case-insensitive file system opens .ENVRC as .envrc.
var autorunNames = []string{".gitmodules", ".envrc"}

// gitDirNames are the entries that make git take a folder for a repository: HEAD beside any
// of the others.
var gitDirNames = []string{"HEAD", "config", "objects", "refs"}

// protectPlanted marks the target of a write or edit that would plant autorun code. Reads are
// left alone: reading such a file runs nothing.
func protectPlanted(k Kind, t Target) Target {
	if (k != KindWrite && k != KindEdit) || !t.Resolved || t.Protected != NotProtected {
		return t
	}
	switch {
	case hasGitComponent(t.Path):
		t.Protected = ProtectedGit // outside the workspace too: Full access writes there
	case plantsAutorun(t):
		t.Protected = ProtectedAutorun
	}
	return t
}

func plantsAutorun(t Target) bool {
	base := filepath.Base(t.Path)
	for _, name := range autorunNames {
		if strings.EqualFold(base, name) {
			return true
		}
	}
	return withinGitLayout(t)
}

// withinGitLayout reports a write that leaves some folder on its way looking like a bare
// repository: the folder as it will be after the write (what is there, plus the entry the
// write creates) holds HEAD and config, objects or refs. The check is on the state after the
// write, so writing HEAD last, or into a layout planted earlier, is caught alike. Inside the
// workspace it looks up to the workspace root; outside, up to the file system's root.
func withinGitLayout(t Target) bool {
	stop := filepath.VolumeName(t.Path) + string(filepath.Separator)
	if t.Inside && t.Rel != "." {
		stop = strings.TrimSuffix(t.Path, string(filepath.Separator)+filepath.FromSlash(t.Rel))
	}
	child, dir := filepath.Base(t.Path), filepath.Dir(t.Path)
	for {
		if looksLikeGitDir(dir, child) {
			return true
		}
		if dir == stop || len(dir) < len(stop) || filepath.Dir(dir) == dir {
			return false
		}
		child, dir = filepath.Base(dir), filepath.Dir(dir)
	}
}

// looksLikeGitDir reports dir holding HEAD and another of gitDirNames once it holds child.
func looksLikeGitDir(dir, child string) bool {
	has := func(name string) bool {
		if strings.EqualFold(child, name) {
			return true
		}
		_, err := os.Lstat(filepath.Join(dir, name))
		return err == nil
	}
	if !has("HEAD") {
		return false
	}
	for _, name := range gitDirNames[1:] {
		if has(name) {
			return true
		}
	}
	return false
}
