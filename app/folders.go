package app

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/workspace"
)

// PickerUnavailable means there is no native folder dialog: the page is served to a browser,
// which browses with Folders.List instead.
const PickerUnavailable errs.Kind = "FOLDER_PICKER_UNAVAILABLE"

// recentFolders is how many recent workspaces the composer offers.
const recentFolders = 8

// Folders lets the page choose a workspace: browse folder names, offer recent ones, or open the
// native folder dialog. It never reads a file, and what it lists is only ever directory names.
type Folders struct{ s *Services }

// FolderListRequest names the folder to list: absolute, "~" or "~/x"; empty means the home
// folder. Hidden includes folders whose name starts with a dot.
type FolderListRequest struct {
	Path   string `json:"path,omitempty"`
	Hidden bool   `json:"hidden,omitempty"`
}

// FolderEntry is one subfolder.
type FolderEntry struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// FolderListing is a folder's subfolders, sorted by name, and whether the folder itself may be a
// workspace: Refusal is the kind of error choosing it would meet ("" when it may), Reason the
// localized sentence that says why. Parent is "" at the root.
type FolderListing struct {
	Path    string        `json:"path"`
	Parent  string        `json:"parent"`
	Home    string        `json:"home"`
	Folders []FolderEntry `json:"folders"`
	Refusal string        `json:"refusal,omitempty"`
	Reason  string        `json:"reason,omitempty"`
}

// List returns the subfolders of one folder. Browsing may pass through folders that cannot be a
// workspace (the root, to reach /srv/site); the listing says so instead of hiding them.
func (f *Folders) List(req FolderListRequest) (FolderListing, error) {
	home := workspace.Home()
	raw := strings.TrimSpace(req.Path)
	if raw == "" {
		raw = "~"
	}
	path, err := workspace.Expand(raw, home)
	if err != nil {
		return FolderListing{}, f.s.fail(err)
	}
	if !filepath.IsAbs(path) || strings.ContainsRune(path, 0) {
		return FolderListing{}, f.s.fail(errs.New(workspace.Relative, "Path", raw))
	}
	path = filepath.Clean(path)
	dir, err := os.ReadDir(path)
	if err != nil {
		return FolderListing{}, f.s.fail(errs.Wrap(workspace.NotFound, err, "Path", path))
	}
	out := FolderListing{Path: path, Home: home, Folders: []FolderEntry{}}
	if parent := filepath.Dir(path); parent != path {
		out.Parent = parent
	}
	for _, e := range dir {
		if !req.Hidden && strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if !isFolder(path, e) {
			continue
		}
		out.Folders = append(out.Folders, FolderEntry{Name: e.Name(), Path: filepath.Join(path, e.Name())})
	}
	sort.Slice(out.Folders, func(i, j int) bool {
		return strings.ToLower(out.Folders[i].Name) < strings.ToLower(out.Folders[j].Name)
	})
	// The folder's own verdict is the one Create would give, confirmation aside: home is
	// choosable, and the composer asks for the confirmation when it is sent.
	if err := workspace.Rule(path, home, true); err != nil {
		e := errs.As(err)
		out.Refusal, out.Reason = string(e.Kind), f.s.I18n.Error(f.s.Language(), e)
	}
	return out, nil
}

// isFolder follows a symlink to see whether it names a folder; a broken link is not one.
func isFolder(parent string, e os.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&os.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(parent, e.Name()))
	return err == nil && st.IsDir()
}

// RecentFolders are the workspaces of recent sessions that are still folders, most recent first.
type RecentFolders struct {
	Folders []string `json:"folders"`
	Home    string   `json:"home"`
}

// Recent returns the workspaces the person used before, most recent first; folders that are gone
// or that the rule now refuses (and the demo's scratch folders) are left out.
func (f *Folders) Recent() (RecentFolders, error) {
	home := workspace.Home()
	list, err := f.s.Store.RecentWorkspaces(recentFolders * 2)
	if err != nil {
		return RecentFolders{}, f.s.fail(err)
	}
	out := RecentFolders{Folders: []string{}, Home: home}
	// The folder AgentDesk was opened on (`agentdesk FOLDER`, the launcher's %f) comes first: the
	// new task offers it.
	if f.s.Info.LaunchFolder != "" {
		list = append([]string{f.s.Info.LaunchFolder}, list...)
	}
	for _, ws := range list {
		if slices.Contains(out.Folders, ws) {
			continue
		}
		if len(out.Folders) == recentFolders {
			break
		}
		if strings.HasPrefix(filepath.Base(ws), demoDirPrefix) || workspace.Rule(ws, home, true) != nil {
			continue
		}
		if st, err := os.Stat(ws); err != nil || !st.IsDir() {
			continue
		}
		out.Folders = append(out.Folders, ws)
	}
	return out, nil
}

// PickedFolder is the folder the person chose in the native dialog; "" when they cancelled.
type PickedFolder struct {
	Path string `json:"path"`
}

// Pick opens the desktop's own folder dialog. In the browser there is none: it fails with
// PickerUnavailable, and the page browses with List.
func (f *Folders) Pick() (PickedFolder, error) {
	pick := f.s.picker()
	if pick == nil {
		return PickedFolder{}, f.s.fail(errs.New(PickerUnavailable))
	}
	path, err := pick(f.s.T("workspace.picker.title", nil))
	if err != nil {
		return PickedFolder{}, f.s.fail(errs.Wrap(PickerUnavailable, err))
	}
	return PickedFolder{Path: path}, nil
}
