package i18n

import (
	"regexp"
	"slices"
	"sort"
	"testing"
	"testing/fstest"

	"agentdesk/backend/errs"
	"agentdesk/locales"
)

var placeholder = regexp.MustCompile(`{{\s*\.(\w+)\s*}}`)

func placeholders(msg string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(msg, -1) {
		out = append(out, m[1])
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// Every key exists in every shipped language, with the same placeholders.
func TestLocaleParity(t *testing.T) {
	keys, err := Keys(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range locales.Languages {
		if len(keys[lang]) == 0 {
			t.Fatalf("language %s has no messages", lang)
		}
	}
	for _, lang := range locales.Languages {
		for _, other := range locales.Languages {
			for k, msg := range keys[lang] {
				theirs, ok := keys[other][k]
				if !ok {
					t.Errorf("key %q is in %s but missing in %s", k, lang, other)
					continue
				}
				if !slices.Equal(placeholders(msg), placeholders(theirs)) {
					t.Errorf("key %q: placeholders differ between %s and %s", k, lang, other)
				}
			}
		}
	}
	for lang := range keys {
		if !slices.Contains(locales.Languages, lang) {
			t.Errorf("locale file for unshipped language %q", lang)
		}
	}
}

func TestParityCatchesAMissingKey(t *testing.T) {
	fsys := fstest.MapFS{
		"a.en.json":    {Data: []byte(`{"x": "X", "y": "Y"}`)},
		"a.zh-CN.json": {Data: []byte(`{"x": "艾克斯"}`)},
	}
	keys, err := Keys(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := keys["zh-CN"]["y"]; ok || keys["en"]["y"] != "Y" {
		t.Fatalf("keys: %+v", keys)
	}
}

func TestLocalizeAndFallback(t *testing.T) {
	b, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	en := b.Error("en", errs.Invalid("language", "fr", []string{"en", "zh-CN"}))
	zh := b.Error("zh-CN", errs.Invalid("language", "fr", []string{"en", "zh-CN"}))
	for _, msg := range []string{en, zh} {
		if !regexp.MustCompile(`fr`).MatchString(msg) || !regexp.MustCompile(`zh-CN`).MatchString(msg) {
			t.Fatalf("message must name the bad value and the allowed ones: %q", msg)
		}
	}
	if en == zh {
		t.Fatal("Chinese message equals English")
	}
	if got := b.T("xx", "no.such.key", nil); got != "no.such.key" {
		t.Fatalf("missing key: %q", got)
	}
}

func TestDetect(t *testing.T) {
	for env, want := range map[string]string{"zh_CN.UTF-8": "zh-CN", "en_US.UTF-8": "en", "": "en", "C": "en", "zh_TW": "zh-CN"} {
		if got := Detect(env); got != want {
			t.Errorf("Detect(%q) = %q, want %q", env, got, want)
		}
	}
}
