package provider

import (
	"encoding/json"
	"testing"

	"agentdesk/locales"
)

func loadLocale(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := locales.FS.ReadFile("provider." + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Every error kind of the providers has a message in every language, translated.
func TestEveryErrorKindHasAMessage(t *testing.T) {
	msgs := map[string]map[string]string{}
	for _, lang := range locales.Languages {
		msgs[lang] = loadLocale(t, lang)
	}
	for _, k := range ErrorKinds {
		key := "error." + string(k)
		for _, lang := range locales.Languages {
			if msgs[lang][key] == "" {
				t.Errorf("%s: no message for %s", lang, key)
			}
		}
		if msgs["en"][key] == msgs["zh-CN"][key] {
			t.Errorf("%s is not translated", key)
		}
	}
	for _, lang := range locales.Languages {
		if len(msgs[lang]) != len(ErrorKinds) {
			t.Errorf("%s: %d messages for %d kinds", lang, len(msgs[lang]), len(ErrorKinds))
		}
	}
}
