package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/coder/websocket"

	"agentdesk/backend/bus"
	"agentdesk/backend/errs"
)

type fixture struct {
	srv  *Server
	base string
	bus  *bus.Bus
}

func start(t *testing.T) fixture { return startWith(t, 0) }

// socket opens the server's WebSocket with its token and returns once the socket has
// subscribed to the bus (closed when the test ends).
func (f fixture) socket(ctx context.Context, t *testing.T) *websocket.Conn {
	t.Helper()
	header := http.Header{"Authorization": {"Bearer " + f.srv.Token()}}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.base, "http")+"/ws", &websocket.DialOptions{HTTPHeader: header})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	for i := 0; i < 50 && f.bus.Subscribers() == 0; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	return conn
}

func startWith(t *testing.T, queue int) fixture {
	t.Helper()
	b := bus.New()
	return startOn(t, b, b.SubscribeBatch, queue)
}

func startOn(t *testing.T, b *bus.Bus, subscribe func(func([]bus.Event), ...bus.Option) *bus.Subscription, queue int) fixture {
	t.Helper()
	srv, err := Listen(Options{
		Addr: "127.0.0.1:0",
		Methods: map[string]Method{
			"Echo.Say": func(_ context.Context, body json.RawMessage) (any, error) {
				var req struct{ Text string }
				json.Unmarshal(body, &req)
				if req.Text == "" {
					return nil, errs.New(errs.InvalidInput, "Field", "text")
				}
				b.Publish("echo.said", req.Text)
				return map[string]string{"said": req.Text}, nil
			},
		},
		Assets:      fstest.MapFS{"index.html": {Data: []byte("<title>AgentDesk</title>")}, "app.js": {Data: []byte("1")}, "assets/index-Ab12.js": {Data: []byte("2")}},
		Subscribe:   subscribe,
		ClientQueue: queue,
		Describe:    func(err error) ErrorBody { return ErrorBody{Kind: string(errs.KindOf(err)), Message: err.Error()} },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go srv.Serve(ctx)
	return fixture{srv: srv, base: strings.SplitN(srv.URL(), "/?", 2)[0], bus: b}
}

func noRedirect() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (f fixture) do(t *testing.T, method, path, body string, header map[string]string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, f.base+path, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func errorKind(t *testing.T, resp *http.Response) string {
	var body struct{ Error ErrorBody }
	json.NewDecoder(resp.Body).Decode(&body)
	return body.Error.Kind
}

func TestRefusesNonLoopbackAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.2:80", "example.com:80", "nonsense"} {
		if _, err := Listen(Options{Addr: addr}); errs.KindOf(err) != errs.InvalidValue {
			t.Errorf("%q: want INVALID_VALUE, got %v", addr, err)
		}
	}
}

func TestRequestWithoutTokenGets401(t *testing.T) {
	f := start(t)
	for _, path := range []string{"/", "/app.js", "/ws"} {
		resp := f.do(t, "GET", path, "", nil)
		if resp.StatusCode != http.StatusUnauthorized || errorKind(t, resp) != "UNAUTHORIZED" {
			t.Errorf("GET %s without token: %d", path, resp.StatusCode)
		}
	}
	resp := f.do(t, "POST", "/api/Echo.Say", `{"text":"hi"}`, map[string]string{"Authorization": "Bearer wrong"})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong token: %d", resp.StatusCode)
	}
}

func TestForeignOriginGets403EvenWithToken(t *testing.T) {
	f := start(t)
	auth := "Bearer " + f.srv.Token()
	resp := f.do(t, "POST", "/api/Echo.Say", `{"text":"hi"}`, map[string]string{"Authorization": auth, "Origin": "https://evil.example"})
	if resp.StatusCode != http.StatusForbidden || errorKind(t, resp) != "FORBIDDEN_ORIGIN" {
		t.Fatalf("foreign origin: %d", resp.StatusCode)
	}
	resp = f.do(t, "POST", "/api/Echo.Say", `{"text":"hi"}`, map[string]string{"Authorization": auth, "Origin": f.base})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("own origin: %d", resp.StatusCode)
	}
}

func TestForeignHostGets403(t *testing.T) {
	f := start(t)
	req, _ := http.NewRequest("GET", f.base+"/", nil)
	req.Host = "attacker.example"
	req.Header.Set("Authorization", "Bearer "+f.srv.Token())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rebinding host: %d", resp.StatusCode)
	}
}

func TestTokenInAddressBecomesCookieAndIsRemoved(t *testing.T) {
	f := start(t)
	resp := f.do(t, "GET", "/?token="+f.srv.Token(), "", nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Fatalf("redirect: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == cookieName {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie: %+v", cookie)
	}
	page := f.do(t, "GET", "/sessions/123", "", map[string]string{"Cookie": cookieName + "=" + cookie.Value})
	if page.StatusCode != http.StatusOK {
		t.Fatalf("page with cookie: %d", page.StatusCode)
	}
}

func TestCallsReturnResultsAndTypedErrors(t *testing.T) {
	f := start(t)
	auth := map[string]string{"Authorization": "Bearer " + f.srv.Token()}
	ok := f.do(t, "POST", "/api/Echo.Say", `{"text":"hi"}`, auth)
	var got map[string]string
	json.NewDecoder(ok.Body).Decode(&got)
	if ok.StatusCode != 200 || got["said"] != "hi" {
		t.Fatalf("ok: %d %v", ok.StatusCode, got)
	}
	bad := f.do(t, "POST", "/api/Echo.Say", `{}`, auth)
	if bad.StatusCode != 400 || errorKind(t, bad) != "INVALID_INPUT" {
		t.Fatalf("bad input: %d", bad.StatusCode)
	}
	missing := f.do(t, "POST", "/api/Nope.Run", `{}`, auth)
	if missing.StatusCode != 404 || errorKind(t, missing) != "UNKNOWN_METHOD" {
		t.Fatalf("unknown method: %d", missing.StatusCode)
	}
}

func TestBroadcastReachesWebSocket(t *testing.T) {
	f := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	header := http.Header{"Authorization": {"Bearer " + f.srv.Token()}}
	if _, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.base, "http")+"/ws",
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"https://evil.example"}, "Authorization": header["Authorization"]}}); err == nil {
		t.Fatal("a WebSocket from a foreign origin was accepted")
	}
	conn := f.socket(ctx, t)
	f.do(t, "POST", "/api/Echo.Say", `{"text":"broadcast"}`, map[string]string{"Authorization": "Bearer " + f.srv.Token()})
	_, msg, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ev bus.Event
	json.Unmarshal(msg, &ev)
	if ev.Name != "echo.said" || ev.Data != "broadcast" {
		t.Fatalf("event: %s", msg)
	}
}

// Events that queued while a frame was written go out together: one frame, a JSON array of them
// in order, up to maxFrame; an event larger than that goes alone, as an object.
func TestQueuedEventsShareAFrame(t *testing.T) {
	b := bus.New()
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	// The socket's handler is held on its first batch, so the next ones queue behind it.
	held := func(handle func([]bus.Event), opts ...bus.Option) *bus.Subscription {
		return b.SubscribeBatch(func(es []bus.Event) {
			once.Do(func() {
				close(entered)
				<-release
			})
			handle(es)
		}, opts...)
	}
	f := startOn(t, b, held, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := f.socket(ctx, t)
	conn.SetReadLimit(-1)
	b.Publish("turn.started", "t")
	<-entered
	big := strings.Repeat("x", maxFrame)
	b.Publish("tool.call", "c1")
	b.Publish("tool.result", "r1")
	b.Publish("tool.result", big)
	b.Publish("turn.ended", "e")
	close(release)
	var frames []string
	for len(frames) < 4 {
		_, msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("after %d frames: %v", len(frames), err)
		}
		var one bus.Event
		var many []bus.Event
		switch {
		case json.Unmarshal(msg, &many) == nil:
			var names []string
			for _, e := range many {
				names = append(names, fmt.Sprintf("%s=%v", e.Name, e.Data))
			}
			frames = append(frames, "["+strings.Join(names, ",")+"]")
		case json.Unmarshal(msg, &one) == nil:
			frames = append(frames, fmt.Sprintf("%s=%d", one.Name, len(fmt.Sprint(one.Data))))
		default:
			t.Fatalf("frame %d is neither an event nor a list of them: %.80s", len(frames), msg)
		}
	}
	want := fmt.Sprintf("turn.started=1 [tool.call=c1,tool.result=r1] tool.result=%d turn.ended=1", maxFrame)
	if got := strings.Join(frames, " "); got != want {
		t.Fatalf("frames %s\nwant   %s", got, want)
	}
}

// A client that stops reading is disconnected once its queue would lose a must-deliver event,
// and told so with a close status, while publishing never waits for it.
func TestSlowWebSocketClientIsDisconnectedAndTold(t *testing.T) {
	f := startWith(t, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := f.socket(ctx, t)
	conn.SetReadLimit(-1)
	// The client reads nothing: the socket's buffers fill, then the client's queue.
	big := strings.Repeat("x", 1<<20)
	start := time.Now()
	for i := 0; i < 64 && f.bus.Subscribers() > 0; i++ {
		f.bus.Publish("tool.result", big)
	}
	if f.bus.Subscribers() != 0 {
		t.Fatal("a client that reads nothing was never disconnected")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("publishing waited for the slow client (%v)", took)
	}
	for {
		_, _, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		if status := websocket.CloseStatus(err); status != websocket.StatusTryAgainLater {
			t.Fatalf("closed with %v (%v), want StatusTryAgainLater", status, err)
		}
		return
	}
}

func TestHashedAssetsAreKeptAndThePageIsNot(t *testing.T) {
	f := start(t)
	cookie := map[string]string{"Cookie": cookieName + "=" + f.srv.Token()}
	for path, want := range map[string]string{
		"/assets/index-Ab12.js": "private, max-age=31536000, immutable",
		"/app.js":               "",
		"/":                     "no-store",
		"/session/123":          "no-store",
	} {
		resp := f.do(t, "GET", path, "", cookie)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != want {
			t.Errorf("%s: %d, Cache-Control %q, want %q", path, resp.StatusCode, resp.Header.Get("Cache-Control"), want)
		}
	}
	if resp := f.do(t, "GET", "/assets/index-Ab12.js", "", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a kept asset is still served only with the token: %d", resp.StatusCode)
	}
}

// Whose fault a failure is decides its status: a typed refusal is the caller's (4xx), a kind
// the app names as its own failure keeps its 5xx, and only an error nobody typed is a plain 500.
func TestStatusSaysWhoseFaultAFailureIs(t *testing.T) {
	faults := map[errs.Kind]int{"PROVIDER_HTTP": http.StatusBadGateway, "CHECKPOINT_TURN_RUNNING": http.StatusConflict}
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"a bad value is a bad request", errs.New(errs.InvalidValue), 400},
		{"a missing argument is a bad request", errs.New(errs.MissingArgument), 400},
		{"what is not there is not found", errs.New(errs.NotFound), 404},
		{"a name already taken is a conflict", errs.New(errs.AlreadyExists), 409},
		{"a refusal of another package is unprocessable", errs.New("CHAT_WITH_EXTERNAL_AGENT"), 422},
		{"a refusal wrapped in a plain error keeps its kind", fmt.Errorf("sending: %w", errs.New("TOOL_DISABLED_IN_CHAT")), 422},
		{"a fault the app names keeps its status", errs.New("PROVIDER_HTTP"), 502},
		{"a clash with a running turn is a conflict", errs.New("CHECKPOINT_TURN_RUNNING"), 409},
		{"a store failure is ours", errs.New(errs.StoreFailure), 500},
		{"an internal error is ours", errs.Wrap(errs.Internal, fmt.Errorf("boom")), 500},
		{"an untyped error is ours", fmt.Errorf("boom"), 500},
	} {
		if got := statusOf(c.err, faults); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}
