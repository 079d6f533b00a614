package store

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
)

// broadcastOnly are event names published to the UI but never written to a session's log, so
// an import must not accept them. No name is both: a broadcast carries a DTO, a log entry a
// payload, and one name for two shapes is how a reader ends up decoding the wrong one.
var broadcastOnly = []string{
	"turn.started", "turn.delta", "tool.call", "tool.output", "tool.progress", "tool.done", "tool.direct.done", "turn.ended",
	"queue.changed", "session.failed", "session.mode", "session.cleared", "session.compacted", "decision.asked", "decision.resolved",
	"agent.status", "bus.overflow", "mcp.changed", "checkpoint.created", "checkpoint.restore.done", "review.done", "rule.added",
	"turn.waiting", "worktree.changed",
}

// stringConsts returns the untyped string constants declared under root (test files excluded)
// whose names match name, mapped to where they are declared. Typed constants are another
// vocabulary (for example llm.EventKind, the kinds of a provider's stream).
func stringConsts(t *testing.T, root string, name *regexp.Regexp) map[string]string {
	t.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			collectConsts(decl, name, func(n, v string) { out[v] = path + ": " + n })
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func collectConsts(decl ast.Decl, name *regexp.Regexp, add func(name, value string)) {
	g, ok := decl.(*ast.GenDecl)
	if !ok || g.Tok != token.CONST {
		return
	}
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		if vs.Type != nil {
			continue
		}
		for i, id := range vs.Names {
			if i >= len(vs.Values) || !name.MatchString(id.Name) {
				continue
			}
			if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				v, _ := strconv.Unquote(lit.Value)
				add(id.Name, v)
			}
		}
	}
}

// A new event constant anywhere in the backend must be listed in EventTypes (if it is written to
// the log) or in broadcastOnly (if it is only published); and every listed type is declared.
func TestEveryLoggedEventTypeIsListed(t *testing.T) {
	declared := stringConsts(t, "..", regexp.MustCompile(`^[eE]vent[A-Z]`))
	for value, where := range declared {
		if !slices.Contains(EventTypes, value) && !slices.Contains(broadcastOnly, value) {
			t.Errorf("%s = %q is in neither store.EventTypes nor broadcastOnly: list it where it belongs", where, value)
		}
	}
	for _, typ := range broadcastOnly {
		if _, ok := declared[typ]; !ok {
			t.Errorf("%q is listed but no constant declares it", typ)
		}
		if slices.Contains(EventTypes, typ) {
			t.Errorf("%q is both a log type and a broadcast name", typ)
		}
	}
	logTypes := stringConsts(t, "../eventlog", regexp.MustCompile(`^Type[A-Z]`))
	for _, typ := range EventTypes {
		if _, ok := logTypes[typ]; !ok && typ != eventlog.TypeModeSet {
			t.Errorf("log type %q is not declared in eventlog", typ)
		}
	}
}

func TestEveryTurnStatusIsListed(t *testing.T) {
	for value, where := range stringConsts(t, ".", regexp.MustCompile(`^Turn[A-Z]`)) {
		if !slices.Contains(TurnStatuses, value) {
			t.Errorf("%s = %q is not in TurnStatuses", where, value)
		}
	}
}

// exportWithTurn is a session with a mode switch, a permission change and one finished turn.
func exportWithTurn(t *testing.T, s *Store) Export {
	t.Helper()
	a, err := s.CreateSession(NewSession{Title: "a", Workspace: "/w", Permission: ptr(policy.Auto)})
	if err != nil {
		t.Fatal(err)
	}
	s.Configure(a.ID, mode.Preference{Interaction: mode.Smart, Override: mode.Debug})
	s.SetPermission(a.ID, policy.Full)
	s.SetPermission(a.ID, policy.Auto)
	started, err := s.StartTurn(TurnStart{SessionID: a.ID, Prompt: "fix it", Preference: mode.Preference{Interaction: mode.Smart, Override: mode.Debug}})
	if err != nil || started.Decision.Mode != mode.ModeDebug {
		t.Fatal(started, err)
	}
	s.EndTurn(started.Turn.ID, TurnDone, "")
	exp, err := s.ExportSession(a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSession(a.ID); err != nil {
		t.Fatal(err)
	}
	return exp
}

func sessionCount(t *testing.T, s *Store) int {
	t.Helper()
	list, err := s.ListSessions()
	if err != nil {
		t.Fatal(err)
	}
	return len(list)
}

func TestImportRefusesUnknownEventTypesAndTurnStatuses(t *testing.T) {
	s, _ := openTemp(t)
	exp := exportWithTurn(t, s)
	cases := map[string]struct {
		edit    func(e *Export)
		field   string
		value   string
		allowed []string
	}{
		"broadcast-only event": {func(e *Export) { e.Events[1].Type = "turn.started" }, "events[1].type", "turn.started", EventTypes},
		"unknown event":        {func(e *Export) { e.Events[len(e.Events)-1].Type = "shell.exec" }, "events[4].type", "shell.exec", EventTypes},
		"unknown turn status":  {func(e *Export) { e.Turns[0].Status = "paused" }, "turns[0].status", "paused", TurnStatuses},
	}
	for name, c := range cases {
		in := exp
		in.Events = slices.Clone(exp.Events)
		in.Turns = slices.Clone(exp.Turns)
		c.edit(&in)
		_, err := s.ImportExport(in)
		e := errs.As(err)
		if e.Kind != errs.InvalidValue || e.Args["Field"] != c.field || e.Args["Value"] != c.value {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if e.Args["Allowed"] != strings.Join(c.allowed, ", ") {
			t.Errorf("%s: the error must list the allowed values: %q", name, e.Args["Allowed"])
		}
	}
	if n := sessionCount(t, s); n != 0 {
		t.Fatalf("a refused import left %d sessions", n)
	}
	if _, err := s.ImportExport(exp); err != nil {
		t.Fatalf("the untouched export must import: %v", err)
	}
}

// The store never writes Full access from a file, in any spelling, nor an unknown value: the
// caller narrows them (session.Service.Import) and reports it.
func TestImportRefusesFullAccessAndUnknownPermissions(t *testing.T) {
	s, _ := openTemp(t)
	exp := exportWithTurn(t, s)
	for _, raw := range []string{"full", "bypass", "bypassPermissions", "sudo", ""} {
		in := exp
		in.Session.PermissionMode = raw
		_, err := s.ImportExport(in)
		if e := errs.As(err); e.Kind != errs.InvalidValue || e.Args["Value"] != raw || e.Args["Allowed"] != "ask, auto" {
			t.Errorf("%q: %v", raw, err)
		}
	}
	if n := sessionCount(t, s); n != 0 {
		t.Fatalf("a refused import left %d sessions", n)
	}
}

// Stored values inside the log and the turns go through the same decoders as the session's
// columns: retired spellings fold, unknown ones are refused.
func TestImportFoldsLogAndTurnValues(t *testing.T) {
	s, _ := openTemp(t)
	exp := exportWithTurn(t, s)
	in := exp
	in.Events = slices.Clone(exp.Events)
	in.Turns = slices.Clone(exp.Turns)
	permIdx := slices.IndexFunc(in.Events, func(e ExportedEvent) bool { return e.Type == eventlog.TypePermissionSet })
	in.Events[permIdx].Payload = json.RawMessage(`{"permission_mode":"bypass"}`)
	in.Turns[0].InteractionMode = "agent"
	got, err := s.ImportExport(in)
	if err != nil {
		t.Fatal(err)
	}
	events, _ := s.Events(got.ID)
	turns, _ := s.Turns(got.ID)
	if events[permIdx].Payload != `{"permission_mode":"full"}` || turns[0].InteractionMode != "smart" {
		t.Fatalf("retired spellings must fold: %q %q", events[permIdx].Payload, turns[0].InteractionMode)
	}
	s.DeleteSession(got.ID)

	in.Events[permIdx].Payload = json.RawMessage(`{"permission_mode":"root"}`)
	if _, err := s.ImportExport(in); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("an unknown permission in the log: %v", err)
	}
	in.Events[permIdx] = exp.Events[permIdx]
	in.Turns[0].ExecutionOverride = "yolo"
	if _, err := s.ImportExport(in); errs.KindOf(err) != errs.InvalidValue {
		t.Fatalf("an unknown override on a turn: %v", err)
	}
	if n := sessionCount(t, s); n != 0 {
		t.Fatalf("a refused import left %d sessions", n)
	}
}

func TestImportedRunningTurnIsInterrupted(t *testing.T) {
	s, _ := openTemp(t)
	in := exportWithTurn(t, s)
	in.Turns = slices.Clone(in.Turns)
	in.Turns[0].Status = TurnRunning
	got, err := s.ImportExport(in)
	if err != nil {
		t.Fatal(err)
	}
	if turns, _ := s.Turns(got.ID); turns[0].Status != TurnInterrupted {
		t.Fatalf("status %q", turns[0].Status)
	}
}
