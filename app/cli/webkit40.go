//go:build !webkit2_41

package cli

// WebKitGTK is the WebKitGTK API the desktop window was built against: Wails links 4.0 unless
// built with the webkit2_41 tag (the only one Debian 13 and Ubuntu 24.04 ship).
const WebKitGTK = "4.0"
