package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// openOwners holds the owner names of the stores open in this process.
var openOwners sync.Map

// newOwner names an open store on the turns it runs: the pid, and a nonce so a later process
// that reuses the pid, or a later Open in this process, is not mistaken for this one.
func newOwner() string {
	nonce := make([]byte, 6)
	rand.Read(nonce)
	owner := fmt.Sprintf("%d:%s", os.Getpid(), hex.EncodeToString(nonce))
	openOwners.Store(owner, true)
	return owner
}

// ownerAlive reports whether the owner of a turn still runs. An empty or unreadable owner (a
// turn from before owners were recorded) counts as gone; in this process, only stores still
// open count as alive.
func ownerAlive(owner string) bool {
	pidText, _, ok := strings.Cut(owner, ":")
	pid, err := strconv.Atoi(pidText)
	if !ok || err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		_, open := openOwners.Load(owner)
		return open
	}
	return processAlive(pid)
}
