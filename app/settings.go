package app

import (
	"agentdesk/backend/errs"
	"agentdesk/backend/i18n"
	"agentdesk/backend/policy"
	"agentdesk/locales"
)

// SettingsView is every setting the Settings page shows.
type SettingsView struct {
	Language          string `json:"language"`
	DefaultPermission string `json:"defaultPermission"`
}

// SetDefaultPermissionRequest changes the default permission mode for new sessions.
type SetDefaultPermissionRequest struct {
	PermissionMode string `json:"permissionMode"`
}

// SetLanguageRequest picks the UI language.
type SetLanguageRequest struct {
	Language string `json:"language"`
}

// Settings is the Settings page's facade: the only writer of defaults.
type Settings struct{ s *Services }

// Get returns the current settings.
func (f *Settings) Get() (SettingsView, error) {
	def, err := f.s.Store.GetDefaultPermission()
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return SettingsView{Language: f.s.Language(), DefaultPermission: string(def.Mode)}, nil
}

// SetDefaultPermission is the only writer of the default permission mode (R-AUTH-1).
func (f *Settings) SetDefaultPermission(req SetDefaultPermissionRequest) (SettingsView, error) {
	p, err := policy.ParsePermission(req.PermissionMode)
	if err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	if err := f.s.Store.SetDefaultPermission(p); err != nil {
		return SettingsView{}, f.s.fail(err)
	}
	return f.publish()
}

func (f *Settings) publish() (SettingsView, error) {
	view, err := f.Get()
	if err == nil {
		f.s.Bus.Publish("settings.changed", view)
	}
	return view, err
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
	return f.publish()
}
