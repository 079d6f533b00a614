package app

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/locales"
)

// SettingsView is every setting the Settings page shows.
type SettingsView struct {
	Language string `json:"language"`
}

// SetLanguageRequest picks the UI language.
type SetLanguageRequest struct {
	Language string `json:"language"`
}

// Settings is the Settings page's facade: the only writer of defaults.
type Settings struct{ s *Services }

// Get returns the current settings.
func (f *Settings) Get() (SettingsView, error) {
	return SettingsView{Language: f.s.Language()}, nil
}

// SetLanguage persists the UI language and tells every window.
func (f *Settings) SetLanguage(req SetLanguageRequest) (SettingsView, error) {
	if !i18n.Supported(req.Language) {
		return SettingsView{}, f.s.fail(errs.Invalid("language", req.Language, locales.Languages))
	}
	if err := f.s.Store.SetSetting(settingLanguage, req.Language); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	f.s.setLanguage(req.Language)
	view := SettingsView{Language: req.Language}
	f.s.Bus.Publish("settings.changed", view)
	return view, nil
}
