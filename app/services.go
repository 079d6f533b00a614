// Package app is the seam between the domain and its transports: the facades bound into the
// Wails window are the same ones `agentdesk serve` exposes over HTTP. It is the only Go code
// that imports Wails.
package app

import (
	"os"
	"sync"

	"agentdesk/backend/bus"
	"agentdesk/backend/i18n"
	"agentdesk/backend/store"
)

// Settings keys owned by the app layer.
const settingLanguage = "language"

// Info describes the running app.
type Info struct {
	Version          string `json:"version"`
	DataDir          string `json:"dataDir"`
	DefaultWorkspace string `json:"defaultWorkspace"`
	Transport        string `json:"transport"`
}

// Services is what every facade shares: the store, the event bus, messages and the language.
type Services struct {
	Store *store.Store
	Bus   *bus.Bus
	I18n  *i18n.Bundle
	Info  Info

	mu   sync.RWMutex
	lang string
}

// NewServices wires the facades over an open store. The language is the saved setting, or
// the one detected from the environment until the person picks one.
func NewServices(st *store.Store, msgs *i18n.Bundle, info Info, envLang string) (*Services, error) {
	if info.DefaultWorkspace == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = "."
		}
		info.DefaultWorkspace = home
	}
	s := &Services{Store: st, Bus: bus.New(), I18n: msgs, Info: info, lang: envLang}
	saved, ok, err := st.GetSetting(settingLanguage)
	if err != nil {
		return nil, err
	}
	if ok && i18n.Supported(saved) {
		s.lang = saved
	}
	return s, nil
}

// Language is the current UI language.
func (s *Services) Language() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.lang
}

func (s *Services) setLanguage(lang string) {
	s.mu.Lock()
	s.lang = lang
	s.mu.Unlock()
}

// T localizes a key in the current language.
func (s *Services) T(key string, args map[string]any) string {
	return s.I18n.T(s.Language(), key, args)
}

// Facades are the structs bound to the window and served over HTTP, in one list so the two
// transports cannot drift apart.
func (s *Services) Facades() []any {
	return []any{&Sessions{s}, &Settings{s}, &System{s}}
}
