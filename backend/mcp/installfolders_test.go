package mcp

import "testing"

// A server installed with npm needs its dependencies, hoisted beside it in node_modules: the
// sandbox shows the install's outermost node_modules folder, not only the script's own folder.
func TestPackagesRoot(t *testing.T) {
	for in, want := range map[string]string{
		"/srv/tools/node_modules/@modelcontextprotocol/server-everything/dist": "/srv/tools/node_modules",
		"/srv/tools/node_modules/.bin":                                         "/srv/tools/node_modules",
		"/srv/tools/node_modules/a/node_modules/b/dist":                        "/srv/tools/node_modules",
		"/opt/servers/x":              "/opt/servers/x",
		"/opt/node_modules_backup/x/": "/opt/node_modules_backup/x",
	} {
		if got := packagesRoot(in); got != want {
			t.Errorf("packagesRoot(%q) = %q, want %q", in, got, want)
		}
	}
}
