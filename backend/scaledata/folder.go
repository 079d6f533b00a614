package scaledata

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
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
			}
			folder, folderDir = m, dir
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
