package decision

import (
	"context"
	"testing"

	"agentdesk/backend/bus"
)

// BenchmarkAskResolve is one full round trip: persist, announce, answer from a subscriber,
// persist the answer, announce it and release the waiter.
func BenchmarkAskResolve(b *testing.B) {
	g := newRig(b, Options{})
	sid := g.session(b, "bench")
	g.bus.Subscribe(func(e bus.Event) {
		if d, ok := e.Data.(Decision); ok && e.Name == EventAsked {
			g.reg.Resolve(d.ID, Approval(AllowOnce, ""))
		}
	})
	req := Request{SessionID: sid, Kind: KindApproval, Payload: map[string]string{"summary": "go test ./..."}}
	for b.Loop() {
		if _, res, err := g.reg.Ask(context.Background(), req); err != nil || res.Outcome != Answered {
			b.Fatalf("%+v %v", res, err)
		}
	}
}
