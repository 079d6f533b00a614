//go:build linux

package policy

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// treeEvents are the changes that can alter what an lstat or a listing of a watched folder
// says: an entry created, removed or renamed, and attributes (a folder made unreadable).
// Writes to a file's content are not among them: they change no path's resolution.
const treeEvents = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// treeResets are the events after which a watch may no longer stand for the folder its path
// names (a folder moved, removed or replaced, a lost event): every watch is dropped.
const treeResets = unix.IN_ISDIR | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_IGNORED |
	unix.IN_Q_OVERFLOW | unix.IN_UNMOUNT

// Bounds on what the tree holds; past them it simply stops remembering more.
const (
	maxTreeWatches = 512
	maxTreeFacts   = 8192
	maxTreeLists   = 256
)

// treeLocal are the file systems whose every change goes through this kernel, so a watch
// reports it. Network and FUSE file systems, and overlays (whose layers may change underneath)
// are left out: there nothing is remembered.
var treeLocal = map[int64]bool{
	unix.EXT4_SUPER_MAGIC: true, unix.XFS_SUPER_MAGIC: true, unix.BTRFS_SUPER_MAGIC: true,
	unix.TMPFS_MAGIC: true, unix.F2FS_SUPER_MAGIC: true, unix.BCACHEFS_SUPER_MAGIC: true,
}

type treeCache struct {
	mu sync.Mutex
	fd int // the inotify instance; -1 when none
	// mounts is /proc/self/mountinfo, open while fd is: it polls as changed when anything is
	// mounted or unmounted.
	mounts int
	gen    uint64 // counts forgettings, so an answer read before one is not stored after it
	// roots are the real workspace roots being watched, with their identity.
	roots   map[string]fileID
	watched map[string]bool
	facts   map[string]treeFact
	lists   map[string][]fs.DirEntry
	// full are the watches every event of which counts; named those (the folders above an
	// anchor, and an anchor itself) whose events count only when they name one of these entries
	// or the folder itself.
	full  map[int32]bool
	named map[int32]map[string]bool
	// chains are the anchors (a root or data folder that is its own real path) with every
	// folder from "/" down to them watched; vouched those among them known, since the last
	// forgetting, to name the folder of that identity.
	chains  map[string]bool
	vouched map[string]fileID
	buf     [4096]byte
	polls   [2]unix.PollFd
}

var tree = &treeCache{fd: -1, mounts: -1, roots: map[string]fileID{}, watched: map[string]bool{},
	facts: map[string]treeFact{}, lists: map[string][]fs.DirEntry{}, full: map[int32]bool{},
	named: map[int32]map[string]bool{}, chains: map[string]bool{}, vouched: map[string]fileID{}}

// treeDecision is one decision's use of the tree, for one real workspace root.
type treeDecision struct {
	root string
	id   fileID
}

// treeDrain starts a decision: every change reported since the last one is read first, and
// what it may have touched forgotten.
func treeDrain() {
	t := tree
	t.mu.Lock()
	t.drain()
	t.mu.Unlock()
}

// treeBegin is the decision's use of the tree for root, the real workspace root, whose identity
// is id now.
func treeBegin(root string, id fileID) *treeDecision {
	t := tree
	t.mu.Lock()
	defer t.mu.Unlock()
	if known, ok := t.roots[root]; ok && known != id {
		t.reset()
	}
	return &treeDecision{root: root, id: id}
}

// treeVouches reports that p, an anchor that is its own real path, still names the folder id:
// nothing has changed on its way from "/" since a stat said so.
func treeVouches(p string, id fileID) bool {
	t := tree
	t.mu.Lock()
	defer t.mu.Unlock()
	known, ok := t.vouched[p]
	return ok && known == id
}

// treeWatchAnchor watches every folder from "/" down to p (the folders above it for their entry
// on the way, p itself for being moved or removed) before the caller's stat of p, and returns
// the generation to hand treeVouch; ok is false when the way cannot be watched.
func treeWatchAnchor(p string) (gen uint64, ok bool) {
	t := tree
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.chains[p] {
		return t.gen, true
	}
	if (t.fd < 0 && !t.open()) || !filepath.IsAbs(p) || filepath.Clean(p) != p {
		return 0, false
	}
	dir := string(filepath.Separator)
	for _, name := range strings.Split(p[1:], string(filepath.Separator)) {
		if !t.watchNamed(dir, name) {
			return 0, false
		}
		dir = filepath.Join(dir, name)
	}
	if !t.watchNamed(p, "") {
		return 0, false
	}
	t.chains[p] = true
	return t.gen, true
}

// treeVouch records the caller's stat of p, which found id, unless something changed since gen.
func treeVouch(p string, id fileID, gen uint64) {
	t := tree
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.gen == gen && t.chains[p] {
		t.vouched[p] = id
	}
}

// drain reads the change queue; any change forgets every fact and listing. A change of the
// mount table (a file system mounted over a watched folder sends no event) drops everything.
// One poll answers for both while nothing changed.
func (t *treeCache) drain() {
	if t.fd < 0 {
		return
	}
	t.polls = [2]unix.PollFd{{Fd: int32(t.fd), Events: unix.POLLIN}, {Fd: int32(t.mounts), Events: unix.POLLPRI}}
	fds := t.polls[:]
	for {
		n, err := unix.Poll(fds, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil || fds[1].Revents != 0 || fds[0].Revents&^unix.POLLIN != 0 {
			t.reset()
			return
		}
		if n == 0 {
			return
		}
		break
	}
	for t.fd >= 0 {
		n, err := unix.Read(t.fd, t.buf[:])
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return
		case err != nil || n <= 0:
			t.reset()
			return
		}
		counts, resets := t.weigh(t.buf[:n])
		switch {
		case resets:
			t.reset()
		case counts:
			t.forget()
		}
		if len(t.buf)-n >= unix.SizeofInotifyEvent+unix.NAME_MAX+1 {
			// The read had room for another event: the kernel fills a read while its queue
			// holds events that fit, so the queue was empty.
			return
		}
	}
}

// weigh reads a batch of events: whether any counts (then facts must go), and whether any
// means a watch may no longer stand for its folder's path (then the watches must go too).
func (t *treeCache) weigh(buf []byte) (counts, resets bool) {
	for off := 0; off+unix.SizeofInotifyEvent <= len(buf); {
		wd := int32(binary.NativeEndian.Uint32(buf[off:]))
		mask := binary.NativeEndian.Uint32(buf[off+4:])
		size := int(binary.NativeEndian.Uint32(buf[off+12:]))
		name := string(bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:min(len(buf), off+unix.SizeofInotifyEvent+size)], "\x00"))
		off += unix.SizeofInotifyEvent + size
		if !t.full[wd] {
			if names, ok := t.named[wd]; ok && name != "" && !names[name] && mask&(unix.IN_Q_OVERFLOW|unix.IN_IGNORED|unix.IN_UNMOUNT) == 0 {
				continue // another entry of a folder above an anchor
			}
		}
		counts = true
		resets = resets || mask&treeResets != 0
	}
	return counts, resets
}

func (t *treeCache) forget() {
	clear(t.facts)
	clear(t.lists)
	clear(t.vouched)
	t.gen++
}

func (t *treeCache) reset() {
	t.forget()
	if t.fd >= 0 {
		unix.Close(t.fd)
		unix.Close(t.mounts)
	}
	t.fd, t.mounts = -1, -1
	clear(t.watched)
	clear(t.roots)
	clear(t.full)
	clear(t.named)
	clear(t.chains)
}

// lstat is os.Lstat(p)'s mode type for p, a clean real path strictly below the root.
func (d *treeDecision) lstat(p string) (fs.FileMode, error) {
	t := tree
	t.mu.Lock()
	if f, ok := t.facts[p]; ok {
		t.mu.Unlock()
		return f.result(p)
	}
	gen := t.gen
	watched := t.watchChain(d, filepath.Dir(p)) // before the lstat, so no change is missed
	t.mu.Unlock()
	info, err := os.Lstat(p)
	if f, keep := factOf(info, err); keep && watched {
		t.mu.Lock()
		if t.gen == gen && len(t.facts) < maxTreeFacts {
			t.facts[p] = f
		}
		t.mu.Unlock()
	}
	if err != nil {
		return 0, err
	}
	return info.Mode().Type(), nil
}

// readDir is os.ReadDir(dir) for dir, a clean real path at or below the root. The entries are
// shared between decisions and must not be changed.
func (d *treeDecision) readDir(dir string) ([]fs.DirEntry, error) {
	t := tree
	t.mu.Lock()
	if entries, ok := t.lists[dir]; ok {
		t.mu.Unlock()
		return entries, nil
	}
	gen := t.gen
	watched := t.watchChain(d, dir)
	t.mu.Unlock()
	entries, err := os.ReadDir(dir)
	if err == nil && watched {
		t.mu.Lock()
		if t.gen == gen && len(t.lists) < maxTreeLists {
			t.lists[dir] = entries
		}
		t.mu.Unlock()
	}
	return entries, err
}

// watchChain watches every folder from the root down to dir; false when one cannot be, and
// then nothing read below it may be remembered.
func (t *treeCache) watchChain(d *treeDecision, dir string) bool {
	if dir != d.root && !isBelow(dir, d.root) {
		return false
	}
	if t.fd < 0 && !t.open() {
		return false
	}
	if known, ok := t.roots[d.root]; !ok || known != d.id {
		if !t.watchRoot(d) {
			return false
		}
	}
	for i := len(d.root); i < len(dir); {
		next := strings.IndexByte(dir[i+1:], filepath.Separator)
		if next < 0 {
			next = len(dir)
		} else {
			next += i + 1
		}
		if !t.watched[dir[:next]] && !t.watch(dir[:next], d.id.dev, 0) {
			return false
		}
		i = next
	}
	return true
}

// open starts a change queue and the mount table's watch, before anything is read under them.
func (t *treeCache) open() bool {
	mounts, err := unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		unix.Close(mounts)
		return false
	}
	t.fd, t.mounts = fd, mounts
	return true
}

// watchRoot watches the root, once the opened folder proves to be the one the decision's anchor
// found, on a file system that reports every change.
func (t *treeCache) watchRoot(d *treeDecision) bool {
	var sfs unix.Statfs_t
	if err := unix.Statfs(d.root, &sfs); err != nil || !treeLocal[int64(sfs.Type)] {
		return false
	}
	if !t.watch(d.root, d.id.dev, d.id.ino) {
		return false
	}
	t.roots[d.root] = d.id
	return true
}

// watch adds a watch on the folder dir names now: it is opened without following a link, the
// watch is set on that very open folder (through /proc/self/fd, so a swap of the path between
// the check and the watch cannot redirect it), and it must sit on the root's device (and be
// the inode ino, unless 0).
func (t *treeCache) watch(dir string, dev, ino uint64) bool {
	if len(t.watched) >= maxTreeWatches {
		return false
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || uint64(st.Dev) != dev || (ino != 0 && uint64(st.Ino) != ino) { //nolint:unconvert // narrower on some arches
		return false
	}
	wd, err := unix.InotifyAddWatch(t.fd, "/proc/self/fd/"+strconv.Itoa(fd), treeEvents)
	if err != nil {
		return false
	}
	t.watched[dir] = true
	t.full[int32(wd)] = true
	return true
}

// watchNamed watches dir (opened without following a link, on a file system that reports every
// change) for changes to its entry name, or to itself only when name is "".
func (t *treeCache) watchNamed(dir, name string) bool {
	if len(t.named) >= maxTreeWatches {
		return false
	}
	var sfs unix.Statfs_t
	if err := unix.Statfs(dir, &sfs); err != nil || !treeLocal[int64(sfs.Type)] {
		return false
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	wd, err := unix.InotifyAddWatch(t.fd, "/proc/self/fd/"+strconv.Itoa(fd), treeEvents)
	if err != nil {
		return false
	}
	names := t.named[int32(wd)]
	if names == nil {
		names = map[string]bool{}
		t.named[int32(wd)] = names
	}
	if name != "" {
		names[name] = true
	}
	return true
}
