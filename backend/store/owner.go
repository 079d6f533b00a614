package store

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// openOwners holds the owner names of the stores open in this process.
var openOwners sync.Map

// started is when a process began: an exact token to compare (the kernel's own count, stable for
// the process's life) and the time it stands for.
type started struct {
	token string
	at    time.Time
}

// errStartUnknown: this system does not tell when a process started.
var errStartUnknown = errors.New("process start time unknown here")

// newOwner names an open store on the turns it runs: "pid:start:nonce". A pid alone names a
// process only until the kernel reuses it; with its start time it names that one process, and
// the nonce tells apart the stores one process opens in turn.
func newOwner() string {
	nonce := make([]byte, 6)
	rand.Read(nonce)
	start, _ := processStart(os.Getpid())
	owner := fmt.Sprintf("%d:%s:%s", os.Getpid(), start.token, hex.EncodeToString(nonce))
	openOwners.Store(owner, true)
	return owner
}

// ownerAlive reports whether the owner of a turn begun at since still runs. An empty or
// unreadable owner (a turn from before owners were recorded) counts as gone; in this process,
// only stores still open count as alive. Elsewhere the process with that pid must be the one
// that started then: its start time matches the owner's, or, for an owner written before start
// times were recorded ("pid:nonce"), it started no later than the turn. Where the system does
// not tell start times, a live pid is all there is to go on.
func ownerAlive(owner string, since time.Time) bool {
	fields := strings.Split(owner, ":")
	pid, err := strconv.Atoi(fields[0])
	if len(fields) < 2 || err != nil || pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		_, open := openOwners.Load(owner)
		return open
	}
	now, err := processStart(pid)
	switch {
	case errors.Is(err, errStartUnknown):
		return processAlive(pid)
	case err != nil:
		return false // no such process
	case len(fields) == 3 && fields[1] != "":
		return fields[1] == now.token
	}
	// A start time is rounded to a clock tick: a second of slack never passes a reused pid,
	// which the kernel hands out only after cycling through the others.
	return !now.at.After(since.Add(time.Second))
}
