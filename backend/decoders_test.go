package backend_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Decision and log payloads each have one decoder, in decision and eventlog: a second decoder
// drifts from the first and tends to drop the error. The rule is read from the syntax alone.
// Outside those two packages, no production file under backend/ or app/ hands encoding/json
// (Unmarshal or NewDecoder) a value named Payload — d.Payload, []byte(row.Payload) — nor
// unmarshals into a variable whose type comes from decision or eventlog or is named *Payload.
// Either half alone matches the usual shape of a second decoder:
// var p ApprovalPayload; json.Unmarshal(d.Payload, &p).
// A payload passed on verbatim (acp's rawInput hands the client the JSON as it is) is no decoder
// of a kind and is not matched: it names neither.

// payloadDecodes lists every call under the roots that decodes a payload outside its package.
func payloadDecodes(t *testing.T, roots ...string) []string {
	t.Helper()
	var out []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			if rel, _ := filepath.Rel(root, path); ownsPayloads(filepath.ToSlash(rel)) {
				return nil
			}
			found, err := decodesInFile(path)
			out = append(out, found...)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// ownsPayloads is true under the two packages that decode payloads (a path below backend/).
func ownsPayloads(rel string) bool {
	return strings.HasPrefix(rel, "eventlog/") || strings.HasPrefix(rel, "decision/")
}

func decodesInFile(path string) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		return nil, err
	}
	jsonName := importName(f, "encoding/json")
	if jsonName == "" {
		return nil, nil
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && decodesPayload(call, jsonName) {
			out = append(out, fset.Position(call.Pos()).String()+": decodes a decision or log payload outside decision and eventlog")
		}
		return true
	})
	return out, nil
}

func importName(f *ast.File, path string) string {
	for _, spec := range f.Imports {
		if p, _ := strconv.Unquote(spec.Path.Value); p == path {
			if spec.Name != nil {
				return spec.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}

func decodesPayload(call *ast.CallExpr, jsonName string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || len(call.Args) == 0 {
		return false
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != jsonName || (sel.Sel.Name != "Unmarshal" && sel.Sel.Name != "NewDecoder") {
		return false
	}
	if mentionsPayload(call.Args[0]) {
		return true
	}
	return sel.Sel.Name == "Unmarshal" && len(call.Args) > 1 && isPayloadType(targetType(call.Args[1]))
}

// mentionsPayload is true when e reads a field named Payload.
func mentionsPayload(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok && s.Sel.Name == "Payload" {
			found = true
		}
		return !found
	})
	return found
}

// targetType is the declared type of &v, as written: "decision.ApprovalPayload"; "" when unknown.
func targetType(e ast.Expr) string {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return ""
	}
	if lit, ok := u.X.(*ast.CompositeLit); ok {
		return typeName(lit.Type)
	}
	id, ok := u.X.(*ast.Ident)
	if !ok || id.Obj == nil {
		return ""
	}
	switch decl := id.Obj.Decl.(type) {
	case *ast.ValueSpec:
		return typeName(decl.Type)
	case *ast.AssignStmt:
		for i, lhs := range decl.Lhs {
			if l, ok := lhs.(*ast.Ident); ok && l.Name == id.Name && i < len(decl.Rhs) {
				if lit, ok := decl.Rhs[i].(*ast.CompositeLit); ok {
					return typeName(lit.Type)
				}
			}
		}
	}
	return ""
}

func typeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.StarExpr:
		return typeName(t.X)
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); ok {
			return x.Name + "." + t.Sel.Name
		}
	}
	return ""
}

func isPayloadType(name string) bool {
	return strings.HasSuffix(name, "Payload") || strings.HasPrefix(name, "decision.") || strings.HasPrefix(name, "eventlog.")
}

func TestPayloadsAreDecodedOnlyByTheirOwnPackages(t *testing.T) {
	for _, v := range payloadDecodes(t, ".", filepath.Join("..", "app")) {
		t.Error(v)
	}
}

func TestThePayloadRuleCatchesDecoders(t *testing.T) {
	root := t.TempDir()
	write := func(rel, src string) {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const head = "package x\nimport (\n\t\"encoding/json\"\n\t\"agentdesk/backend/decision\"\n)\n"
	write("acp/server/bad.go", head+`func f(d decision.Decision) { var p decision.ApprovalPayload; json.Unmarshal(d.Payload, &p) }`)
	write("cli/row.go", head+`func f(row struct{ Payload string }) { var v map[string]any; json.Unmarshal([]byte(row.Payload), &v) }`)
	write("cli/typed.go", head+`func f(raw []byte) { p := decision.PlanPayload{}; json.Unmarshal(raw, &p) }`)
	write("cli/local.go", head+`type QuestionPayload struct{}; func f(raw []byte) { json.Unmarshal(raw, &QuestionPayload{}) }`)
	write("cli/renamed.go", "package x\nimport j \"encoding/json\"\n"+`func f(d struct{ Payload []byte }) { j.NewDecoder(reader(d.Payload)).Decode(nil) }`)
	write("eventlog/ok.go", head+`func f(d decision.Decision) { var v any; json.Unmarshal(d.Payload, &v) }`)
	write("cli/ok_test.go", head+`func f(d decision.Decision) { var p decision.ApprovalPayload; json.Unmarshal(d.Payload, &p) }`)
	write("tool/ok.go", "package x\nimport \"encoding/json\"\n"+`type input struct{}; func f(raw []byte) { var in input; json.Unmarshal(raw, &in) }`)
	got := payloadDecodes(t, root)
	if len(got) != 5 {
		t.Fatalf("want 5 decodes, got %d: %v", len(got), got)
	}
}
