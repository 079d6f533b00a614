package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"agentdesk/backend/i18n"
	"agentdesk/backend/provider"
	"agentdesk/backend/store"
)

// heldModel answers once released, and says when the turn has reached it.
type heldModel struct {
	entered, release chan struct{}
	once             sync.Once
}

func newHeldModel() *heldModel {
	return &heldModel{entered: make(chan struct{}), release: make(chan struct{})}
}

func (m *heldModel) Name() string { return "held" }

func (m *heldModel) Stream(ctx context.Context, _ provider.Request, _ func(provider.Event)) (provider.Response, error) {
	m.once.Do(func() { close(m.entered) })
	select {
	case <-m.release:
		return provider.Response{Text: "done"}, nil
	case <-ctx.Done():
		return provider.Response{}, ctx.Err()
	}
}

// servicesWithoutCheckpoints has no data folder, so a turn writes nothing before its first
// model request: what the store counts until then is the send's own work.
func servicesWithoutCheckpoints(t testing.TB, model provider.Provider) *Services {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := NewServices(st, msgs, Options{Info: Info{DefaultWorkspace: t.TempDir()}, EnvLang: "en",
		Getenv: func(string) string { return "" }})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	svc.override = model
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		if err := svc.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return svc
}

// unitsOfFirstSend is how many units of work the store began for one session's first message,
// up to the turn's first model request.
func unitsOfFirstSend(t testing.TB, svc *Services, model *heldModel, text string) (units uint64, sessionID string) {
	t.Helper()
	sess, err := (&Sessions{svc}).Create(CreateSessionRequest{Workspace: svc.Info.DefaultWorkspace})
	if err != nil {
		t.Fatal(err)
	}
	before := svc.Store.Units()
	if _, err := (&Composer{svc}).Send(SendRequest{SessionID: sess.ID, Text: text}); err != nil {
		t.Fatal(err)
	}
	<-model.entered
	return svc.Store.Units() - before, sess.ID
}

// Sending a session's first message is one unit of work: the turn starts, and the session takes
// its title from the message, in the same transaction.
func TestSendingAFirstMessageIsOneUnitOfWork(t *testing.T) {
	model := newHeldModel()
	svc := servicesWithoutCheckpoints(t, model)
	units, _ := unitsOfFirstSend(t, svc, model, "Fix the login bug")
	close(model.release)
	if units != 1 {
		t.Fatalf("a first send began %d units of work, want 1", units)
	}
	list, err := svc.Store.ListSessions()
	if err != nil || len(list) != 1 || list[0].Title != "Fix the login bug" {
		t.Fatalf("the session was not titled from its first message: %+v %v", list, err)
	}
}

// BenchmarkFirstSend reports the store's units of work (tx/op) of a session's first message,
// up to its turn's first model request.
func BenchmarkFirstSend(b *testing.B) {
	svc := servicesWithoutCheckpoints(b, nil)
	ctx := context.Background()
	var units uint64
	for b.Loop() {
		model := newHeldModel()
		svc.override = model
		n, id := unitsOfFirstSend(b, svc, model, "Fix the login bug")
		units += n
		close(model.release)
		if err := svc.Runtime.Wait(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(units)/float64(b.N), "tx/op")
}
