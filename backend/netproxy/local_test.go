package netproxy_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"agentdesk/backend/netproxy"
)

// A local service the person named (a model server on this machine) is reached on loopback at
// exactly its port; the same name at another port, and other loopback spellings, stay refused.
func TestLocalPortsReachOnlyTheNamedLoopbackPort(t *testing.T) {
	srv := httptest.NewServer(hello())
	defer srv.Close()
	other := httptest.NewServer(hello())
	defer other.Close()
	port, otherPort := serverPort(t, srv), serverPort(t, other)
	p := start(t, netproxy.Config{Mode: netproxy.Full, LocalPorts: []int{atoi(t, port)},
		Decide: allow(t, "localhost:"+port, "127.0.0.1:"+port, "localhost:"+otherPort, "127.0.0.2:"+port)})

	for _, host := range []string{"localhost", "127.0.0.1"} {
		if r := send(t, p, getRaw("GET", "http://"+host+":"+port+"/v1/models")); r.status != http.StatusOK {
			t.Errorf("%s:%s: %d %s %q", host, port, r.status, r.kind, r.body)
		}
	}
	for _, hostport := range []string{"localhost:" + otherPort, "127.0.0.2:" + port} {
		r := send(t, p, getRaw("GET", "http://"+hostport+"/"))
		if r.status != http.StatusForbidden || r.kind != string(netproxy.AddressForbidden) {
			t.Errorf("%s: got %d %s, want a refused address", hostport, r.status, r.kind)
		}
	}
}
