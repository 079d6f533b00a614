package policy

import (
	"os"
	"path/filepath"
	"testing"

	"agentdesk/backend/mode"
)

// TestPlantingAutorunCodeAsksEverywhere names, cell by cell, which writes plant code another
// program runs on its own: each asks in every permission mode, Full included, whatever the
// session's grants and allow rules say; their neighbours do not.
func TestPlantingAutorunCodeAsksEverywhere(t *testing.T) {
	cases := []struct {
		name    string
		present []string // files already in the workspace
		kind    Kind
		path    string
		want    Protection
	}{
		{"HEAD beside config makes a bare layout", []string{"tools/config"}, KindWrite, "tools/HEAD", ProtectedAutorun},
		{"config beside HEAD makes a bare layout", []string{"tools/HEAD"}, KindWrite, "tools/config", ProtectedAutorun},
		{"objects beside HEAD makes a bare layout", []string{"tools/HEAD"}, KindWrite, "tools/objects/info/keep", ProtectedAutorun},
		{"refs beside HEAD makes a bare layout", []string{"tools/HEAD"}, KindWrite, "tools/refs/heads/main", ProtectedAutorun},
		{"HEAD written last still makes the layout", []string{"tools/objects/x", "tools/refs/y"}, KindWrite, "tools/HEAD", ProtectedAutorun},
		{"any file inside a planted layout", []string{"tools/HEAD", "tools/config"}, KindWrite, "tools/hooks/post-checkout", ProtectedAutorun},
		{"an edit of a planted layout's config", []string{"tools/HEAD", "tools/config"}, KindEdit, "tools/config", ProtectedAutorun},
		{"a layout at the workspace root", []string{"HEAD"}, KindWrite, "config", ProtectedAutorun},
		{"a layout deep down", []string{"a/b/c/HEAD"}, KindWrite, "a/b/c/refs/x", ProtectedAutorun},
		{".envrc at the root", nil, KindWrite, ".envrc", ProtectedAutorun},
		{".envrc at any depth", nil, KindWrite, "sub/dir/.envrc", ProtectedAutorun},
		{".envrc in another letter case", nil, KindWrite, "sub/.EnvRC", ProtectedAutorun},
		{".gitmodules at the root", nil, KindWrite, ".gitmodules", ProtectedAutorun},
		{".gitmodules at any depth", nil, KindEdit, "vendor/lib/.gitmodules", ProtectedAutorun},
		{"a hook under a nested .git", nil, KindWrite, "sub/.git/hooks/x", ProtectedGit},
		{"a .git file (gitdir: pointer)", nil, KindWrite, "sub/.git", ProtectedGit},
		{"a .git file at the root", nil, KindWrite, ".git", ProtectedGit},
		{"HEAD alone is no layout", nil, KindWrite, "tools/HEAD", NotProtected},
		{"config alone is no layout", nil, KindWrite, "tools/config", NotProtected},
		{"HEAD and config in different folders", []string{"a/config"}, KindWrite, "b/HEAD", NotProtected},
		{"an ordinary file beside config", []string{"tools/config"}, KindWrite, "tools/run.sh", NotProtected},
		{"a file named like envrc", nil, KindWrite, "envrc.md", NotProtected},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			for _, f := range c.present {
				plant(t, filepath.Join(ws, f))
			}
			r, err := Resolve(Workspace{Root: ws}, Call{Kind: c.kind, Path: c.path})
			if err != nil {
				t.Fatal(err)
			}
			if r.Target.Protected != c.want {
				t.Fatalf("protection %q, want %q", r.Target.Protected, c.want)
			}
			if c.want == NotProtected {
				return
			}
			everything := []Grant{{Kind: c.kind, Path: r.Target.Rel}, {Kind: c.kind, Path: "**", Scope: ScopePattern}}
			rules := []Rule{{ID: "r", Effect: Allow, Kind: c.kind, Path: "**", Scope: ScopePattern}}
			for _, p := range PermissionModes {
				v := Evaluate(Input{SensitiveMasked: true, Mode: mode.ModeExecute, Permission: p, Rules: rules, Grants: everything, Call: r, Sandboxed: true})
				if v.Decision != DecideAsk || v.Layer != LayerProtected || v.ReasonKey != "gate.reason.protected."+string(c.want) {
					t.Errorf("%s: %+v, want an ask at the protected layer", p, v)
				}
			}
		})
	}
}

// Reading the files a write would be asked about runs nothing, so it is not protected.
func TestReadingAutorunFilesIsNotProtected(t *testing.T) {
	ws := t.TempDir()
	for _, f := range []string{"tools/HEAD", "tools/config", ".envrc", ".gitmodules"} {
		plant(t, filepath.Join(ws, f))
		r, err := Resolve(Workspace{Root: ws}, Call{Kind: KindRead, Path: f})
		if err != nil || r.Target.Protected != NotProtected {
			t.Errorf("read %s: %q %v", f, r.Target.Protected, err)
		}
	}
}

// Full access writes outside the workspace; planting there asks as well.
func TestPlantingOutsideTheWorkspaceAsks(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	plant(t, filepath.Join(outside, "repo/HEAD"))
	for path, want := range map[string]Protection{
		filepath.Join(outside, "repo/config"):      ProtectedAutorun,
		filepath.Join(outside, "home/.envrc"):      ProtectedAutorun,
		filepath.Join(outside, "r/.git/hooks/pre"): ProtectedGit,
		filepath.Join(outside, "notes.txt"):        NotProtected,
	} {
		r, err := Resolve(Workspace{Root: ws}, Call{Kind: KindWrite, Path: path})
		if err != nil || r.Target.Protected != want {
			t.Errorf("%s: %q %v, want %q", path, r.Target.Protected, err, want)
		}
	}
}

func plant(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}
