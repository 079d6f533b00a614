// Package locales holds the message files shared by Go (go-i18n) and the frontend.
// Files are named <area>.<lang>.json, a flat map of key to message with {{.Arg}} placeholders.
package locales

import "embed"

//go:embed *.json
var FS embed.FS

// Languages are the shipped languages; the first is the fallback.
var Languages = []string{"en", "zh-CN"}

// Demo holds the offline demo's scripted conversation, one file per language
// (demo/demo.<lang>.json): it is what a first-run user sees, so it is translated like the UI.
//
//go:embed demo/*.json
var Demo embed.FS
