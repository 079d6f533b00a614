package netproxy_test

import (
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/netproxy"
)

// Every kind this package gives out has a message in every shipped language.
func TestEveryKindHasAMessage(t *testing.T) {
	var want []string
	for _, k := range netproxy.Kinds {
		want = append(want, "error."+string(k))
	}
	for _, m := range i18n.Missing(want...) {
		t.Errorf("no message for %s", m)
	}
	if errs.KindOf(errs.New(netproxy.NotApproved)) != netproxy.NotApproved {
		t.Fatal("kinds round-trip")
	}
}
