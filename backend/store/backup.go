package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gorm.io/gorm"

	"agentdesk/backend/errs"
)

// BackupDir is the folder of pre-migration copies, inside the data folder.
const BackupDir = "backups"

// partialMark names a backup still being written: "<name>.partial-<pid>". Only a finished copy
// is renamed to its final name, so a ".bak" is always whole.
const partialMark = ".partial-"

// backupFile writes a consistent copy of the database (VACUUM INTO) before any migration
// touches it: into a partial file first, renamed once complete.
func backupFile(db *gorm.DB, path string, version int) (string, error) {
	dir := filepath.Join(filepath.Dir(path), BackupDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", errs.Wrap(errs.StoreFailure, err, "Path", dir)
	}
	stamp := time.Now().UTC().Format("20060102T150405.000000000")
	dest := filepath.Join(dir, fmt.Sprintf("%s.v%d.%s.bak", FileName, version, stamp))
	partial := dest + partialMark + strconv.Itoa(os.Getpid())
	if err := db.Exec("VACUUM INTO ?", partial).Error; err != nil {
		os.Remove(partial)
		return "", errs.Wrap(errs.StoreFailure, err, "Path", dest)
	}
	if err := os.Rename(partial, dest); err != nil {
		os.Remove(partial)
		return "", errs.Wrap(errs.StoreFailure, err, "Path", dest)
	}
	return dest, nil
}

// cleanBackups removes what a backup killed half way left behind: partial files of processes
// that are gone (with their journals), and, from releases that wrote the final name directly,
// an empty ".bak" or one with its "-journal" still beside it. It returns what it removed.
func cleanBackups(dataDir string) []string {
	dir := filepath.Join(dataDir, BackupDir)
	entries, err := os.ReadDir(dir)
	removed := []string{}
	if err != nil {
		return removed
	}
	names := map[string]bool{}
	for _, e := range entries {
		names[e.Name()] = true
	}
	for _, e := range entries {
		if name := e.Name(); stalePartial(name) || staleLegacy(dir, name, names) {
			if os.Remove(filepath.Join(dir, name)) == nil {
				removed = append(removed, filepath.Join(dir, name))
			}
		}
	}
	return removed
}

func stalePartial(name string) bool {
	i := strings.LastIndex(name, partialMark)
	if i < 0 {
		return false
	}
	pidText := strings.TrimSuffix(name[i+len(partialMark):], "-journal")
	pid, err := strconv.Atoi(pidText)
	return err != nil || !processAlive(pid)
}

func staleLegacy(dir, name string, names map[string]bool) bool {
	if strings.HasSuffix(name, ".bak-journal") {
		return true // only a copy that never finished has its journal left
	}
	if !strings.HasSuffix(name, ".bak") {
		return false
	}
	if names[name+"-journal"] {
		return true
	}
	st, err := os.Stat(filepath.Join(dir, name))
	return err == nil && st.Size() == 0
}

// lastBackup is the newest whole backup of the database at path, or "" when there is none.
func lastBackup(path string) string {
	dir := filepath.Join(filepath.Dir(path), BackupDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	type found struct {
		path string
		at   time.Time
	}
	var all []found
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !strings.HasSuffix(e.Name(), ".bak") || info.Size() == 0 {
			continue
		}
		all = append(all, found{filepath.Join(dir, e.Name()), info.ModTime()})
	}
	if len(all) == 0 {
		return ""
	}
	sort.Slice(all, func(i, j int) bool { return all[i].at.After(all[j].at) })
	return all[0].path
}
