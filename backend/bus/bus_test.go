package bus

import "testing"

func TestPublishReachesSubscribersInOrderUntilUnsubscribed(t *testing.T) {
	b := New()
	var got []string
	stop := b.Subscribe(func(e Event) { got = append(got, e.Name) })
	b.Publish("a", nil)
	b.Publish("b", 1)
	stop()
	b.Publish("c", nil)
	if len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("got %v", got)
	}
}
