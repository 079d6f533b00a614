//go:build webkit2_41

package cli

// WebKitGTK is the WebKitGTK API the desktop window was built against (see webkit40.go).
const WebKitGTK = "4.1"
