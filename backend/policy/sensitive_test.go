package policy

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"agentdesk/backend/mode"
)

// sensitiveSamples is a file each default entry covers, at the top of the workspace.
var sensitiveSamples = map[string]string{
	".ssh/": ".ssh/id_custom", ".aws/": ".aws/credentials", ".gnupg/": ".gnupg/private-keys-v1.d/k.key",
	".env": ".env", ".env.*": ".env.production", "*.pem": "tls/server.pem", "*.key": "server.key",
	"id_rsa": "id_rsa", "id_dsa": "backup/id_dsa", "id_ecdsa": "id_ecdsa", "id_ed25519": "keys/id_ed25519",
	"id_ecdsa_sk": "id_ecdsa_sk", "id_ed25519_sk": "id_ed25519_sk", ".netrc": ".netrc",
	".git-credentials": ".git-credentials", ".npmrc": "web/.npmrc", ".pypirc": ".pypirc",
	".docker/config.json": ".docker/config.json", ".kube/config": ".kube/config",
	".local/share/keyrings/": ".local/share/keyrings/login.keyring", ".password-store/": ".password-store/mail.gpg",
}

// sensitiveCall is a call of the named tool on rel inside /ws, resolved as Resolve would.
func sensitiveCall(tool, rel string) Resolved {
	target := Target{Resolved: true, Path: "/ws/" + rel, Rel: rel, Inside: true}
	switch tool {
	case "read", "grep":
		return Resolved{Call: Call{Kind: KindRead, Path: rel}, Target: target}
	case "edit":
		return Resolved{Call: Call{Kind: KindEdit, Path: rel}, Target: target}
	case "write":
		return Resolved{Call: Call{Kind: KindWrite, Path: rel}, Target: target}
	}
	cmd := "cat '" + rel + "'"
	sh := AnalyzeShell(cmd, nil)
	return Resolved{Call: Call{Kind: KindBash, Command: cmd}, Shell: &sh}
}

// TestSensitiveCells holds every default entry against every permission mode (an unknown one
// included) and every tool that reads or changes a file: it asks, or is denied in Full, and no
// grant or allow rule answers it.
func TestSensitiveCells(t *testing.T) {
	for _, entry := range DefaultSensitive {
		rel, ok := sensitiveSamples[entry]
		if !ok {
			t.Fatalf("no sample for default entry %q", entry)
		}
		for _, p := range []PermissionMode{Ask, Auto, Full, "bypass", ""} {
			for _, tool := range []string{"read", "grep", "edit", "write", "bash"} {
				call := sensitiveCall(tool, rel)
				in := Input{Mode: mode.ModeExecute, Permission: p, Call: call, Sandboxed: true, SensitiveMasked: true,
					Grants: []Grant{{Kind: call.Call.Kind}}, Rules: []Rule{{ID: "all", Effect: Allow, Kind: call.Call.Kind}}}
				v := Evaluate(in)
				want := DecideAsk
				if p == Full {
					want = DecideDeny
				}
				if v.Decision != want || v.Code != SensitivePath || v.Layer != LayerProtected {
					t.Errorf("%s %s (%s) in %q: %s/%s/%s, want %s/SENSITIVE_PATH", tool, rel, entry, p, v.Decision, v.Layer, v.Code, want)
					continue
				}
				if v.ReasonArgs["Entry"] != entry {
					t.Errorf("%s %s in %q names entry %v, want %q", tool, rel, p, v.ReasonArgs["Entry"], entry)
				}
				if p == Full && v.Err() == nil {
					t.Errorf("%s %s in full: a deny without an error", tool, rel)
				}
			}
		}
	}
}

// TestSensitiveMatching pins what the default list covers and what it leaves alone.
func TestSensitiveMatching(t *testing.T) {
	var l SensitiveList
	for _, p := range []string{".env", "a/b/.env", ".env.local", ".ssh", ".ssh/config", "/home/u/.ssh/id_ed25519",
		"ID_RSA", ".SSH/known_hosts", "x/.local/share/keyrings/a", "/home/u/.aws/credentials", "certs/ca.pem", "srv.key"} {
		if _, ok := l.Match(p); !ok {
			t.Errorf("%s is not matched", p)
		}
	}
	for _, p := range []string{"id_rsa.pub", "id_test.go", "identity.go", "env.go", ".envrc", "keys.go", "monkey.txt",
		"src/id_map.json", "local/share/keyrings", ".environment", "main.go", "pem.go", "key"} {
		if e, ok := l.Match(p); ok {
			t.Errorf("%s is matched by %q", p, e)
		}
	}
	custom := NewSensitiveList([]string{"/etc/shadow", "secrets/", "["})
	for _, p := range []string{"/etc/shadow", "a/secrets/b", "anything"} {
		if _, ok := custom.Match(p); !ok {
			t.Errorf("custom list: %s is not matched", p)
		}
	}
	if _, ok := NewSensitiveList(nil).Match(".env"); ok {
		t.Error("an emptied list still matches")
	}
}

// TestSensitiveLayers: deny rules outrank the list, a removed entry reads like any file, a link
// is judged by where it leads and by its own name, and a shell command the sandbox cannot
// mask asks even with full access.
func TestSensitiveLayers(t *testing.T) {
	env := sensitiveCall("read", ".env")
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Full, Call: env, Rules: []Rule{{ID: "no-env", Effect: Deny, Path: ".env"}}}); v.Decision != DecideDeny || v.Code != DeniedByRule {
		t.Errorf("a deny rule must outrank the list: %+v", v)
	}
	without := slices.DeleteFunc(slices.Clone(DefaultSensitive), func(e string) bool { return e == ".env" })
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Auto, Call: env, Sensitive: NewSensitiveList(without)}); v.Decision != DecideAllow {
		t.Errorf("a removed entry must read like any file: %+v", v)
	}
	link := Resolved{Call: Call{Kind: KindRead, Path: "notes.txt"}, Target: Target{Resolved: true, Path: "/ws/.ssh/id_rsa", Rel: ".ssh/id_rsa", Inside: true}}
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Auto, Call: link}); v.Code != SensitivePath {
		t.Errorf("a link to a key must ask: %+v", v)
	}
	named := Resolved{Call: Call{Kind: KindRead, Path: ".env"}, Target: Target{Resolved: true, Path: "/ws/config/dev.txt", Rel: "config/dev.txt", Inside: true}}
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Auto, Call: named}); v.Code != SensitivePath {
		t.Errorf("a link named .env must ask: %+v", v)
	}
	outside := Resolved{Call: Call{Kind: KindRead, Path: "/home/u/.aws/credentials"}, Target: Target{Resolved: true, Path: "/home/u/.aws/credentials"}}
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Full, Call: outside}); v.Decision != DecideDeny || v.Code != SensitivePath {
		t.Errorf("a sensitive path outside the workspace must be denied in full: %+v", v)
	}
	ls := sensitiveCall("bash", "main.go")
	for _, p := range []PermissionMode{Auto, Full} {
		v := Evaluate(Input{Mode: mode.ModeExecute, Permission: p, Call: ls, Sandboxed: true})
		if v.Decision != DecideAsk || v.ReasonKey != "gate.reason.sensitive_unmasked" {
			t.Errorf("an unmasked shell in %s must ask: %+v", p, v)
		}
		v = Evaluate(Input{Mode: mode.ModeExecute, Permission: p, Call: ls, Sandboxed: true, SensitiveMasked: true})
		if p == Full && v.Decision != DecideAllow {
			t.Errorf("a masked shell in full runs: %+v", v)
		}
	}
	if v := Evaluate(Input{Mode: mode.ModeExecute, Permission: Full, Call: ls, Sandboxed: true, Sensitive: NewSensitiveList(nil)}); v.Decision != DecideAllow {
		t.Errorf("with an empty list nothing needs masking: %+v", v)
	}
	for _, cmd := range []string{"grep -r token --include=.env .", "cp .ssh/id_ed25519 /tmp/k", "tar czf x.tgz ~/.aws", "cat <.netrc", "git show HEAD:.env"} {
		sh := AnalyzeShell(cmd, nil)
		if _, paths := SensitiveNamed(DefaultSensitiveList(), &sh); len(paths) == 0 {
			t.Errorf("%q names no sensitive path", cmd)
		}
	}
}

// DefaultSensitiveList is the zero list, spelled for readability.
func DefaultSensitiveList() SensitiveList { return SensitiveList{} }

func TestParseSensitive(t *testing.T) {
	got, err := ParseSensitive([]string{" .env ", "", ".env", "secrets/"})
	if err != nil || !slices.Equal(got, []string{".env", "secrets/"}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"[", "/", "a//b", "x\x00"} {
		if _, err := ParseSensitive([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if got, err := ParseSensitive(nil); err != nil || got == nil || len(got) != 0 {
		t.Errorf("an empty list: %v, %v", got, err)
	}
}

// TestSensitiveMasks walks a real workspace: the topmost match of a folder, every file match,
// and the shown ones when an approved command named them. What package managers downloaded
// (node_modules, a virtualenv) is not searched.
func TestSensitiveMasks(t *testing.T) {
	ws := t.TempDir()
	for _, rel := range []string{".ssh/id_ed25519", ".ssh/config", "app/.env", "app/main.go", "id_rsa.pub", ".git/x.pem",
		"web/node_modules/pkg/.env", "py/.venv/lib/site.pem"} {
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	masks, complete := SensitiveMasks(SensitiveList{}, ws)
	slices.Sort(masks)
	want := []string{filepath.Join(ws, ".ssh"), filepath.Join(ws, "app/.env")}
	if !complete || !slices.Equal(masks, want) {
		t.Fatalf("masks %v (complete %v), want %v", masks, complete, want)
	}
	hide := SensitiveHide(masks, []string{".ssh/id_ed25519"}, ws)
	if !slices.Equal(hide, []string{filepath.Join(ws, "app/.env")}) {
		t.Errorf("hide after approving .ssh/id_ed25519: %v", hide)
	}
	if strings.Join(SensitiveHide(masks, nil, ws), ",") != strings.Join(masks, ",") {
		t.Error("nothing named, everything hidden")
	}
}

// FuzzSensitiveNeverAllowed: a path the list covers, at any depth, never gets allow from any
// permission string, with a grant and an allow rule for its kind and the sandbox masking.
func FuzzSensitiveNeverAllowed(f *testing.F) {
	for i := range DefaultSensitive {
		for _, p := range []string{"ask", "auto", "full", "bypass", ""} {
			f.Add(p, uint8(i), uint8(i), "a/b")
		}
	}
	tools := []string{"read", "grep", "edit", "write", "bash"}
	f.Fuzz(func(t *testing.T, rawPerm string, entryIndex, toolIndex uint8, dir string) {
		entry := DefaultSensitive[int(entryIndex)%len(DefaultSensitive)]
		dir = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '/' || r == '_' {
				return r
			}
			return -1
		}, dir)
		rel := strings.Trim(dir+"/"+sensitiveSamples[entry], "/")
		for strings.Contains(rel, "//") {
			rel = strings.ReplaceAll(rel, "//", "/")
		}
		call := sensitiveCall(tools[int(toolIndex)%len(tools)], rel)
		v := Evaluate(Input{Mode: mode.ModeExecute, Permission: PermissionMode(rawPerm), Call: call, Sandboxed: true,
			SensitiveMasked: true, Grants: []Grant{{Kind: call.Call.Kind}}, Rules: []Rule{{ID: "all", Effect: Allow, Kind: call.Call.Kind}}})
		if v.Decision == DecideAllow {
			t.Fatalf("%s under %q allowed (%s)", rel, rawPerm, v.ReasonKey)
		}
	})
}
