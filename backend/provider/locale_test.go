package provider

import (
	"testing"

	"agentdesk/backend/i18n"
	"agentdesk/locales"
)

// Every error kind of the providers has a message in every language, translated.
func TestEveryErrorKindHasAMessage(t *testing.T) {
	var keys []string
	for _, k := range ErrorKinds {
		keys = append(keys, "error."+string(k))
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
	all, err := i18n.Keys(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if all["en"][k] == all["zh-CN"][k] {
			t.Errorf("%s is not translated", k)
		}
	}
}
