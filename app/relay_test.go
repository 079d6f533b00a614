package app

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/bus"
)

// A page too slow for its events is told to reload (bus.overflow) and keeps receiving what
// is published after, on a fresh subscription; publishing never waited for it.
func TestRelayTellsASlowPageToReloadAndCarriesOn(t *testing.T) {
	b := bus.New()
	defer b.Close(context.Background())
	release := make(chan struct{})
	var mu sync.Mutex
	var got []string
	stop := relay(b, func(name string, _ any) {
		if name == "first" {
			<-release
		}
		mu.Lock()
		got = append(got, name)
		mu.Unlock()
	})
	defer stop()
	start := time.Now()
	b.Publish("first", nil)
	for i := 0; i < windowQueue+10; i++ {
		b.Publish(fmt.Sprint("e", i), nil)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("publishing waited for the page")
	}
	close(release)
	waitFor(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(got) > 0 && got[len(got)-1] == bus.EventOverflow
	})
	b.Publish("after", nil)
	waitFor(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return got[len(got)-1] == "after"
	})
	if b.Subscribers() != 1 {
		t.Fatalf("%d subscriptions", b.Subscribers())
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(time.Millisecond)
	}
}
