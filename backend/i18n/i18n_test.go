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

// A message that says a count is an object of CLDR plural forms; the language's rules pick the
// form by the Count argument ("1 file", "2 files"; Chinese has one form).
func TestPluralMessagesTakeTheFormOfTheirCount(t *testing.T) {
	b, err := LoadFS(fstest.MapFS{
		"a.en.json":    {Data: []byte(`{"files": {"one": "{{.Count}} file", "other": "{{.Count}} files"}, "plain": "Files: {{.Count}}", "others": {"other": "{{.Count}} things"}}`)},
		"a.zh-CN.json": {Data: []byte(`{"files": {"other": "{{.Count}} 个文件"}, "plain": "文件：{{.Count}}", "others": "{{.Count}} 样东西"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		lang  string
		count any
		want  string
	}{
		{"en", 1, "1 file"}, {"en", 2, "2 files"}, {"en", 0, "0 files"}, {"en", int64(1), "1 file"},
		// Counts that crossed JSON arrive as float64; a string count is read as a number.
		{"en", float64(1), "1 file"}, {"en", float64(21), "21 files"}, {"en", "1", "1 file"},
		{"zh-CN", 1, "1 个文件"}, {"zh-CN", 2, "2 个文件"},
	} {
		if got := b.T(c.lang, "files", map[string]any{"Count": c.count}); got != c.want {
			t.Errorf("%s, Count %v (%T): %q, want %q", c.lang, c.count, c.count, got, c.want)
		}
	}
	// A count of another type costs the form, never the message.
	if got := b.T("en", "files", map[string]any{"Count": struct{}{}}); got == "files" {
		t.Errorf("an odd count lost the message: %q", got)
	}
	if got := b.T("en", "others", map[string]any{"Count": 1}); got != "1 things" {
		t.Errorf("a plural message with no form for one: %q", got)
	}
	if got := b.T("en", "plain", map[string]any{"Count": 1}); got != "Files: 1" {
		t.Errorf("a plain message with a count: %q", got)
	}
	keys, err := Keys(fstest.MapFS{"a.en.json": {Data: []byte(`{"files": {"one": "one file", "other": "{{.Count}} files"}}`)}})
	if err != nil || keys["en"]["files"] != "{{.Count}} files" {
		t.Fatalf("Keys gives a plural message's other form: %v, %v", keys, err)
	}
}

func TestPluralMessagesAreCheckedWhenLoaded(t *testing.T) {
	for name, body := range map[string]string{
		"no other form":   `{"x": {"one": "1 file"}}`,
		"an unknown form": `{"x": {"single": "1 file", "other": "files"}}`,
		"an empty form":   `{"x": {"one": " ", "other": "files"}}`,
		"not a string":    `{"x": 3}`,
	} {
		if _, err := LoadFS(fstest.MapFS{"a.en.json": {Data: []byte(body)}}); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}

// Every form of a plural message names only placeholders its "other" form names, so the
// placeholder parity across languages (which compares "other" forms) holds for every form.
func TestPluralFormsNameNoOtherPlaceholders(t *testing.T) {
	all, err := Messages(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	plurals := 0
	for lang, msgs := range all {
		for k, m := range msgs {
			if !m.Plural {
				continue
			}
			plurals++
			other := placeholders(m.Forms["other"])
			if !slices.Contains(other, PluralArg) {
				t.Errorf("%s %s: a plural message's other form must show the {{.Count}}", lang, k)
			}
			for form, text := range m.Forms {
				for _, p := range placeholders(text) {
					if !slices.Contains(other, p) {
						t.Errorf("%s %s: form %s names {{.%s}}, which its other form does not", lang, k, form, p)
					}
				}
			}
		}
	}
	if plurals == 0 {
		t.Error("no plural message in the locales")
	}
}
