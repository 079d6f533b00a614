// Package i18n serves the messages in locales/ through go-i18n. Go code never holds a
// user-visible string; it names a key and its arguments.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
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
}

// Load reads every locales/<area>.<lang>.json file.
func Load() (*Bundle, error) {
	return LoadFS(locales.FS)
}

// LoadFS reads message files from fsys; tests use it with broken files.
func LoadFS(fsys fs.FS) (*Bundle, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("json", json.Unmarshal)
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(fsys, f); err != nil {
			return nil, fmt.Errorf("locale file %s: %w", f, err)
		}
	}
	out := &Bundle{bundle: b, localizers: map[string]*goi18n.Localizer{}}
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

// T localizes key with args in lang; a missing key yields the key itself, never a panic.
func (b *Bundle) T(lang, key string, args map[string]any) string {
	loc, ok := b.localizers[lang]
	if !ok {
		loc = b.localizers[Fallback]
	}
	msg, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: key, TemplateData: args})
	if err != nil {
		return key
	}
	return msg
}

// Error localizes an error by its kind: the key is "error." + kind.
func (b *Bundle) Error(lang string, err error) string {
	e := errs.As(err)
	return b.T(lang, "error."+string(e.Kind), e.Args)
}

// Keys returns, per language, the set of message keys across every file in fsys.
func Keys(fsys fs.FS) (map[string]map[string]string, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	out := map[string]map[string]string{}
	for _, f := range files {
		lang := langOf(f)
		raw, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		var msgs map[string]string
		if err := json.Unmarshal(raw, &msgs); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if out[lang] == nil {
			out[lang] = map[string]string{}
		}
		for k, v := range msgs {
			out[lang][k] = v
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
