package scaledata

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"agentdesk/backend/store"
)

// DirEnv names the folder the scale benchmarks run on: one built to Year by build/gendata (make
// bench builds it once and keeps it outside the repo). Without it they build Smoke in a
// temporary folder, so bench-check proves they run in seconds.
const DirEnv = "AGENTDESK_SCALE_DATA"

var (
	folderOnce sync.Once
	folder     Manifest
	folderDir  string
	folderErr  error
)

// Folder returns the folder the benchmarks of this process share and its manifest: the one
// DirEnv names (which must be complete: it is never built here, where a benchmark's timeout
// would cut it short), or a Smoke folder built once under the system's temporary folder.
func Folder() (string, Manifest, error) {
	folderOnce.Do(func() {
		if dir := os.Getenv(DirEnv); dir != "" {
			m, ok := Open(dir, Year)
			if !ok {
				folderErr = fmt.Errorf("%s=%s holds no complete folder: build it with go run ./build/gendata %s", DirEnv, dir, dir)
				return
			}
			folderDir, folder, folderErr = Current(dir, m)
			return
		}
		folderDir, folderErr = os.MkdirTemp("", "agentdesk-scale-smoke-")
		if folderErr == nil {
			folderDir = filepath.Join(folderDir, "data")
			folder, folderErr = Build(folderDir, Smoke, nil)
		}
	})
	return folderDir, folder, folderErr
}

// Current returns a folder of dir's data at the store's schema: dir itself when it is, else a
// copy beside it, migrated forward once and kept (DIR.schema-N). The folder the benchmarks
// share (make bench's cache) is never migrated in place: a branch still at its schema would
// then find it too new and build it again.
func Current(dir string, m Manifest) (string, Manifest, error) {
	schema := store.SupportedSchema()
	if m.Schema == schema {
		return dir, m, nil
	}
	migrated := fmt.Sprintf("%s.schema-%d", dir, schema)
	if cm, ok := Open(migrated, m.Spec); ok && cm.Schema == schema {
		return migrated, cm, nil
	}
	partial := migrated + ".partial"
	for _, d := range []string{migrated, partial} {
		if err := os.RemoveAll(d); err != nil {
			return "", Manifest{}, err
		}
	}
	if err := copyFolder(dir, partial); err != nil {
		return "", Manifest{}, err
	}
	st, err := store.Open(partial)
	if err != nil {
		return "", Manifest{}, err
	}
	if err := st.Close(); err != nil {
		return "", Manifest{}, err
	}
	m.Schema = schema
	if err := writeManifest(partial, m); err != nil {
		return "", Manifest{}, err
	}
	// The migration's backup of a copy is a second copy of the year: the original is the backup.
	if err := os.RemoveAll(filepath.Join(partial, "backups")); err != nil {
		return "", Manifest{}, err
	}
	return migrated, m, os.Rename(partial, migrated)
}

// copyFolder copies the files of a closed folder (the database, its check record), not its
// manifest: a copy says it is complete only once it is. Each keeps its modification time: the
// check record names the database by size and time, and a copy that lost it would be checked
// again at every open (a year of events is past the bounded check's budget, so that check never
// finishes and never records the file as sound).
func copyFolder(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	for _, e := range entries {
		// The shared-memory index is rebuilt from the log by whoever opens the copy.
		if !e.Type().IsRegular() || e.Name() == manifestName || strings.HasSuffix(e.Name(), "-shm") {
			continue
		}
		if err := copyFile(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	info, err := in.Stat()
	if err != nil {
		return err
	}
	return os.Chtimes(to, info.ModTime(), info.ModTime())
}
