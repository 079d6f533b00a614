// Package i18n serves the messages in locales/ through go-i18n. Go code never holds a
// user-visible string; it names a key and its arguments.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"agentdesk/backend/errs"
	"agentdesk/locales"
)

// Fallback is the language used when a key or language is missing.
const Fallback = "en"

// Bundle holds every shipped language.
type Bundle struct {
	bundle     *goi18n.Bundle
	localizers map[string]*goi18n.Localizer
	// plural are the keys whose message varies with its Count argument.
	plural map[string]bool
}

// PluralArg is the argument that chooses a plural message's form.
const PluralArg = "Count"

// pluralForms are the CLDR plural categories a plural message may spell out. A message that
// says a count is an object of them ({"one": "1 line", "other": "{{.Count}} lines"}), which
// go-i18n reads as is and the frontend's loader picks from with Intl.PluralRules; "other" is
// required, since every language has it.
var pluralForms = []string{"zero", "one", "two", "few", "many", "other"}

// Load reads every locales/<area>.<lang>.json file.
func Load() (*Bundle, error) {
	return LoadFS(locales.FS)
}

// LoadFS reads message files from fsys; tests use it with broken files.
func LoadFS(fsys fs.FS) (*Bundle, error) {
	b := goi18n.NewBundle(language.English)
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	out := &Bundle{bundle: b, localizers: map[string]*goi18n.Localizer{}, plural: map[string]bool{}}
	for _, f := range files {
		msgs, err := readFile(fsys, f)
		if err != nil {
			return nil, err
		}
		tag, err := language.Parse(langOf(f))
		if err != nil {
			return nil, fmt.Errorf("locale file %s: %w", f, err)
		}
		// Each file is parsed once, here, and handed to go-i18n as messages: every command
		// pays for this before it starts.
		list := make([]*goi18n.Message, 0, len(msgs))
		for k, m := range msgs {
			if m.Plural {
				out.plural[k] = true
			}
			list = append(list, m.goMessage(k))
		}
		if err := b.AddMessages(tag, list...); err != nil {
			return nil, fmt.Errorf("locale file %s: %w", f, err)
		}
	}
	for _, lang := range locales.Languages {
		out.localizers[lang] = goi18n.NewLocalizer(b, lang, Fallback)
	}
	return out, nil
}

// Supported reports whether lang is a shipped language, spelled exactly.
func Supported(lang string) bool { return slices.Contains(locales.Languages, lang) }

// Detect maps an environment locale such as "zh_CN.UTF-8" to a shipped language.
func Detect(env string) string {
	env = strings.ToLower(strings.SplitN(env, ".", 2)[0])
	if strings.HasPrefix(env, "zh") {
		return "zh-CN"
	}
	return Fallback
}

// T localizes key with args in lang; a missing key yields the key itself, never a panic. A
// plural message takes the form the language's rules give its Count argument.
func (b *Bundle) T(lang, key string, args map[string]any) string {
	loc, ok := b.localizers[lang]
	if !ok {
		loc = b.localizers[Fallback]
	}
	cfg := &goi18n.LocalizeConfig{MessageID: key, TemplateData: args}
	if b.plural[key] {
		cfg.PluralCount = pluralCount(args[PluralArg])
	}
	msg, err := loc.Localize(cfg)
	if err != nil && !(b.plural[key] && msg != "") { // a form the message lacks falls back to "other"
		return key
	}
	return msg
}

// pluralCount is a Count as go-i18n's plural rules take it (an integer or a decimal string),
// or nil, which gives the "other" form: a count that is missing or of another type must not
// cost the message.
func pluralCount(v any) any {
	switch n := v.(type) {
	case int, int8, int16, int32, int64:
		return n
	case uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(n)
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(n), 'f', -1, 32)
	case string:
		if _, err := strconv.ParseFloat(n, 64); err == nil {
			return n
		}
	}
	return nil
}

// Error localizes an error by its kind: the key is "error." + kind.
func (b *Bundle) Error(lang string, err error) string {
	e := errs.As(err)
	return b.T(lang, "error."+string(e.Kind), e.Args)
}

// Message is one key's text by plural form; a plain string is its "other" form alone.
type Message struct {
	Forms  map[string]string
	Plural bool // written as an object of forms
}

// goMessage is the message as go-i18n holds it, under id.
func (m Message) goMessage(id string) *goi18n.Message {
	f := m.Forms
	return &goi18n.Message{ID: id, Zero: f["zero"], One: f["one"], Two: f["two"], Few: f["few"], Many: f["many"], Other: f["other"]}
}

// messageOf reads a message as JSON decodes it into an any: a string, or an object of plural
// forms with "other" among them.
func messageOf(v any) (Message, error) {
	if text, ok := v.(string); ok {
		return Message{Forms: map[string]string{"other": text}}, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return Message{}, fmt.Errorf("a message is a string or an object of plural forms, not %T", v)
	}
	forms := make(map[string]string, len(obj))
	for form, t := range obj {
		text, ok := t.(string)
		if !ok {
			return Message{}, fmt.Errorf("plural form %q is not a string", form)
		}
		forms[form] = text
	}
	for form, text := range forms {
		if !slices.Contains(pluralForms, form) {
			return Message{}, fmt.Errorf("%q is no plural form (want one of %v)", form, pluralForms)
		}
		if strings.TrimSpace(text) == "" {
			return Message{}, fmt.Errorf("plural form %q is empty", form)
		}
	}
	if forms["other"] == "" {
		return Message{}, fmt.Errorf("a plural message needs an \"other\" form")
	}
	return Message{Forms: forms, Plural: true}, nil
}

func readFile(fsys fs.FS, f string) (map[string]Message, error) {
	raw, err := fs.ReadFile(fsys, f)
	if err != nil {
		return nil, err
	}
	var all map[string]any
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("locale file %s: %w", f, err)
	}
	msgs := make(map[string]Message, len(all))
	for k, v := range all {
		m, err := messageOf(v)
		if err != nil {
			return nil, fmt.Errorf("locale file %s: %s: %w", f, k, err)
		}
		msgs[k] = m
	}
	return msgs, nil
}

// Messages returns, per language, every message across the files in fsys, with its forms.
func Messages(fsys fs.FS) (map[string]map[string]Message, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]Message{}
	for _, f := range files {
		lang := langOf(f)
		msgs, err := readFile(fsys, f)
		if err != nil {
			return nil, err
		}
		if out[lang] == nil {
			out[lang] = map[string]Message{}
		}
		for k, v := range msgs {
			out[lang][k] = v
		}
	}
	return out, nil
}

// Keys returns, per language, the message keys across every file in fsys, each with its text:
// a plural message's "other" form, the one that names every placeholder.
func Keys(fsys fs.FS) (map[string]map[string]string, error) {
	all, err := Messages(fsys)
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for lang, msgs := range all {
		out[lang] = map[string]string{}
		for k, m := range msgs {
			out[lang][k] = m.Forms["other"]
		}
	}
	return out, nil
}

// langOf takes "area.zh-CN.json" to "zh-CN".
func langOf(file string) string {
	base := strings.TrimSuffix(path.Base(file), ".json")
	return base[strings.LastIndex(base, ".")+1:]
}

// Missing lists, as "lang: key", every key that has no message in some shipped language. A
// package's test hands it the keys the package gives out.
func Missing(keys ...string) []string {
	all, err := Keys(locales.FS)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	for _, lang := range locales.Languages {
		for _, k := range keys {
			if all[lang][k] == "" {
				out = append(out, lang+": "+k)
			}
		}
	}
	return out
}
