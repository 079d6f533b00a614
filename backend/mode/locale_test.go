package mode

import (
	"encoding/json"
	"testing"

	"agentdesk/locales"
)

// TestLocaleKeys checks that every key this package hands out has a message in every language.
func TestLocaleKeys(t *testing.T) {
	keys := []string{"error." + string(ChatWithOverride), "mode.label.unknown",
		"route.reason.chat", "route.reason.override", "route.reason.unrecognized", "route.reason.execute"}
	for _, r := range routeRules {
		keys = append(keys, r.reasonKey)
	}
	for _, m := range ExecutionModes {
		keys = append(keys, m.LabelKey())
	}
	for _, i := range InteractionModes {
		keys = append(keys, Preference{Interaction: i}.LabelKey())
	}
	for _, o := range Overrides {
		keys = append(keys, Preference{Interaction: Smart, Override: o}.LabelKey())
	}
	for _, lang := range locales.Languages {
		msgs := loadCore(t, lang)
		for _, k := range keys {
			if msgs[k] == "" {
				t.Errorf("%s: no message for %q", lang, k)
			}
		}
	}
}

func loadCore(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := locales.FS.ReadFile("core." + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCoreLocalesHaveTheSameKeys(t *testing.T) {
	en, zh := loadCore(t, "en"), loadCore(t, "zh-CN")
	for k := range en {
		if _, ok := zh[k]; !ok {
			t.Errorf("zh-CN lacks %q", k)
		}
	}
	for k := range zh {
		if _, ok := en[k]; !ok {
			t.Errorf("en lacks %q", k)
		}
	}
}
