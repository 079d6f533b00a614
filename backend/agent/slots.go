package agent

import (
	"context"
	"strconv"
	"sync"

	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// SettingParallelTurns bounds how many turns run at once across sessions; a turn over the bound
// waits for one to end, and says so (turn.waiting). 0 means no bound.
const SettingParallelTurns = "turns.parallel"

// DefaultParallelTurns is the bound of a fresh data folder: enough for a few tasks side by side,
// few enough that they do not starve the machine.
const DefaultParallelTurns = 4

// ParseParallelTurns reads the setting: 0 (no bound) to 64.
func ParseParallelTurns(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 64 {
		return 0, errs.Invalid("parallel-turns", v, []string{"0 (no limit) to 64"})
	}
	return n, nil
}

// ParallelTurns is the bound in force.
func ParallelTurns(s store.SettingReader) int {
	return store.SettingOr(s, SettingParallelTurns, ParseParallelTurns, DefaultParallelTurns)
}

// EventTurnWaiting says a turn waits for a free slot before it starts.
const EventTurnWaiting = "turn.waiting"

// TurnWaiting is the payload of turn.waiting.
type TurnWaiting struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Running   int    `json:"running"` // turns holding a slot
	Limit     int    `json:"limit"`
}

// slots counts the turns running at once against the bound, read afresh at each start; waiting
// turns start in the order they came.
type slots struct {
	mu      sync.Mutex
	used    int
	waiting []chan struct{}
}

// acquire takes a slot, waiting while limit() turns hold one (telling wait once how many), or
// until ctx ends. The returned release gives the slot back.
func (s *slots) acquire(ctx context.Context, limit func() int, wait func(running, limit int)) (func(), error) {
	told := false
	for {
		s.mu.Lock()
		n := limit()
		if n <= 0 || s.used < n {
			s.used++
			s.mu.Unlock()
			return s.release, nil
		}
		ch := make(chan struct{})
		s.waiting = append(s.waiting, ch)
		running := s.used
		s.mu.Unlock()
		if !told {
			told = true
			wait(running, n)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			s.drop(ch)
			return nil, ctx.Err()
		}
	}
}

func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used--
	s.wakeLocked()
}

// wakeLocked lets the first waiting turn try again.
func (s *slots) wakeLocked() {
	if len(s.waiting) > 0 {
		close(s.waiting[0])
		s.waiting = s.waiting[1:]
	}
}

// drop forgets a waiter whose turn ended while it waited; had it just been woken, the next one is.
func (s *slots) drop(ch chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, w := range s.waiting {
		if w == ch {
			s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
			return
		}
	}
	s.wakeLocked()
}
