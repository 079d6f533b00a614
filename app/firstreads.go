package app

import "encoding/json"

// firstRead is one read the first screen makes, answered before the page asks: the page's
// bridge (frontend/src/bridge/wails.ts) takes the result instead of a round trip through the
// window's bindings while nothing was written since the page loaded.
type firstRead struct {
	Method string `json:"method"`
	Req    any    `json:"req"`
	Result any    `json:"result"`
}

// firstReadsHead is a script for the window's page that holds the answers to the first screen's
// reads, taken when the page is served: the settings (the language, the theme), the first page
// of sessions, the app's description and the recent folders. Without it the page would load its
// code, then ask for these one after the other before it could draw the composer. A read that
// fails is left out: the page asks for it as it would have.
func (s *Services) firstReadsHead() string {
	var reads []firstRead
	add := func(method string, req, result any, err error) {
		if err == nil {
			reads = append(reads, firstRead{method, req, result})
		}
	}
	settings, err := (&Settings{s}).Get()
	add("Settings.Get", nil, settings, err)
	page, err := (&Sessions{s}).List(ListSessionsRequest{})
	add("Sessions.List", struct{}{}, page, err)
	info, err := (&System{s}).Info()
	add("System.Info", nil, info, err)
	recent, err := (&Folders{s}).Recent()
	add("Folders.Recent", nil, recent, err)
	b, err := json.Marshal(reads)
	if err != nil || len(reads) == 0 {
		return ""
	}
	return schemeHead(string(settings.Theme)) + "<script>window.__agentdeskFirst=" + scriptJSON(b) + "</script>"
}

// schemeHead sets the page's palette before anything is painted, from the saved theme (the OS's
// for "system"), so a dark desktop never sees a light frame while the bundle loads; the page's
// own theme code takes over once it runs. theme is one of the saved values or "".
func schemeHead(theme string) string {
	if theme != string(ThemeLight) && theme != string(ThemeDark) {
		theme = string(ThemeSystem)
	}
	return `<style>html[data-scheme=dark]{background:#17171a;color-scheme:dark}</style><script>(()=>{const t="` + theme +
		`",r=document.documentElement,d=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);` +
		`r.setAttribute("data-theme",t);r.setAttribute("data-scheme",d?"dark":"light")})()</script>`
}
