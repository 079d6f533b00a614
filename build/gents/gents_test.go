package main

import (
	"bytes"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the module root, seen from this package's directory.
const root = "../.."

// TestGeneratedIsCurrent fails while the checked-in contract differs from what the Go side
// says now: a DTO, a facade method or an event changed without `make gen`.
func TestGeneratedIsCurrent(t *testing.T) {
	src, err := load(root, contract...)
	if err != nil {
		t.Fatal(err)
	}
	files, err := generate(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{output, apiDoc} {
		want := files[path]
		got, err := os.ReadFile(filepath.Join(root, path))
		if err != nil {
			t.Fatal(err)
		}
		if line, ok := firstDiff(got, want); !ok {
			t.Errorf("%s is stale (run `make gen`); first difference at line %d, in %s:\n  checked in: %s\n  Go says:    %s",
				path, line.n, declarationAt(want, line.n), line.got, line.want)
		}
	}
}

type diffLine struct {
	n         int
	got, want string
}

// firstDiff finds the first line where got and want differ.
func firstDiff(got, want []byte) (diffLine, bool) {
	if bytes.Equal(got, want) {
		return diffLine{}, true
	}
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; ; i++ {
		at := func(lines []string) string {
			if i < len(lines) {
				return fmt.Sprintf("%q", lines[i])
			}
			return "(end of file)"
		}
		if i >= len(g) || i >= len(w) || g[i] != w[i] {
			return diffLine{i + 1, at(g), at(w)}, false
		}
	}
}

// declarationAt names the declaration (or the section of API.md) around line n (1-based).
func declarationAt(file []byte, n int) string {
	lines := strings.Split(string(file), "\n")
	for i := min(n, len(lines)) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "export ") || strings.HasPrefix(lines[i], "#") {
			return strings.TrimSuffix(lines[i], " {")
		}
	}
	return "the header"
}

func TestFirstDiff(t *testing.T) {
	if _, ok := firstDiff([]byte("a\nb\n"), []byte("a\nb\n")); !ok {
		t.Fatal("equal files differ")
	}
	if d, _ := firstDiff([]byte("a\nb\nc"), []byte("a\nB\nc")); d.n != 2 || d.got != `"b"` || d.want != `"B"` {
		t.Fatalf("%+v", d)
	}
	if d, _ := firstDiff([]byte("a"), []byte("a\nb")); d.n != 2 || d.got != "(end of file)" {
		t.Fatalf("%+v", d)
	}
}

// TestShapes pins the mapping of each Go shape to its TypeScript type.
func TestShapes(t *testing.T) {
	const pkg = "agentdesk/build/gents/testdata/fixture"
	src, err := load(root, pkg)
	if err != nil {
		t.Fatal(err)
	}
	w := &writer{src: src, reached: map[typeName]*types.TypeName{}, names: map[typeName]string{}}
	named := func(name string) *types.Named { return src.pkgs[pkg].Scope().Lookup(name).Type().(*types.Named) }
	got := w.declare(named("Shapes")) + w.declare(named("Color")) + w.declare(named("Plain"))
	want := `/** Shapes has one field of each kind. */
export interface Shapes {
  id: string;
  inner: Tagged;
  /** Name shadows Base's Name: the shallower field wins. */
  name: number;
  opt?: string;
  ptr: Tagged | null;
  optPtr?: Tagged;
  list: string[] | null;
  optList?: number[];
  ptrList: (Tagged | null)[] | null;
  map: Record<string, Color> | null;
  when: string;
  optWhen: string;
  zero?: string;
  raw: unknown;
  any: unknown;
  bytes: string;
  color: Color;
  plain: Plain;
  Untagged: boolean;
  quoted: string;
  'dash-ed': string;
  anonymous: { A: boolean; };
}
/** Color is a string type with constants: a union. */
export type Color = 'red' | 'green';
/** Plain is a string type without constants: a string. */
export type Plain = string;
`
	if d, ok := firstDiff([]byte(got), []byte(want)); !ok {
		t.Fatalf("line %d: got %s, want %s\n%s", d.n, d.got, d.want, got)
	}
	if len(w.errs) > 0 {
		t.Fatal(w.errs)
	}
}
