package main

import (
	"fmt"
	"go/constant"
	"go/types"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// How Go's encoding/json writes a value decides its TypeScript type:
//
//   - a nil pointer, slice or map is written as null, so such a field is `T | null`, and a slice
//     `T[] | null`: the Go type cannot say a facade always makes it, and the page must not trust
//     what the compiler cannot check (write `x ?? []` where an empty list is meant);
//   - omitempty drops the zero value of a pointer, slice, map, string, number or bool, so such a
//     field is optional (`x?: T`) and never null; omitempty on a struct drops nothing;
//     omitzero drops every zero value;
//   - time.Time is an RFC 3339 string, json.RawMessage and interfaces are any JSON (`unknown`),
//     []byte is base64 text, a map is a Record with string keys;
//   - a string type with constants of its own is the union of their values.
//
// A type with a MarshalJSON of its own writes what it likes, so the generator refuses it
// instead of guessing; time.Time and json.RawMessage are the two it knows.

// typeName is a named type's Go identity: its package path and name.
type typeName struct{ pkg, name string }

func (n typeName) String() string { return n.pkg + "." + n.name }

func nameOf(obj *types.TypeName) typeName {
	if obj.Pkg() == nil {
		return typeName{name: obj.Name()}
	}
	return typeName{obj.Pkg().Path(), obj.Name()}
}

// writer renders Go types as TypeScript. It runs twice: the first pass only collects the named
// types reached (and finds clashing names), the second renders with the names settled.
type writer struct {
	src     *source
	reached map[typeName]*types.TypeName
	names   map[typeName]string
	errs    []string
}

var (
	jsonMarshaler = interfaceOf("MarshalJSON", types.NewSlice(types.Typ[types.Byte]))
	textMarshaler = interfaceOf("MarshalText", types.NewSlice(types.Typ[types.Byte]))
)

// interfaceOf is interface{ name() (result, error) }.
func interfaceOf(name string, result types.Type) *types.Interface {
	errType := types.Universe.Lookup("error").Type()
	sig := types.NewSignatureType(nil, nil, nil, nil,
		types.NewTuple(types.NewVar(0, nil, "", result), types.NewVar(0, nil, "", errType)), false)
	return types.NewInterfaceType([]*types.Func{types.NewFunc(0, nil, name, sig)}, nil).Complete()
}

func implements(t types.Type, iface *types.Interface) bool {
	return types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface)
}

// wire is the type of a value of t as it arrives: null included where Go can write null.
func (w *writer) wire(t types.Type) string {
	if w.nullable(t) {
		return w.base(t) + " | null"
	}
	return w.base(t)
}

// nullable says whether Go writes null for some value of t.
func (w *writer) nullable(t types.Type) bool {
	if n, ok := types.Unalias(t).(*types.Named); ok && known[nameOf(n.Obj())] != "" {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer, *types.Map:
		return true
	case *types.Slice:
		return !isBytes(u)
	}
	return false
}

// known are the library types whose JSON form the generator knows without reading them.
var known = map[typeName]string{
	{"time", "Time"}:                "string",
	{"time", "Duration"}:            "number",
	{"encoding/json", "RawMessage"}: "unknown",
	{"encoding/json", "Number"}:     "string",
}

func isBytes(s *types.Slice) bool {
	b, ok := s.Elem().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// base is t's type without the null a nil value adds.
func (w *writer) base(t types.Type) string {
	t = types.Unalias(t)
	if n, ok := t.(*types.Named); ok {
		return w.named(n)
	}
	switch u := t.(type) {
	case *types.Basic:
		return basic(u)
	case *types.Pointer:
		return w.base(u.Elem())
	case *types.Slice:
		if isBytes(u) {
			return "string"
		}
		return arrayOf(w.wire(u.Elem()))
	case *types.Array:
		return arrayOf(w.wire(u.Elem()))
	case *types.Map:
		return "Record<string, " + w.wire(u.Elem()) + ">"
	case *types.Interface:
		return "unknown"
	case *types.Struct:
		var b strings.Builder
		b.WriteString("{ ")
		for _, f := range w.fields(u, "") {
			fmt.Fprintf(&b, "%s; ", f.ts)
		}
		return b.String() + "}"
	}
	w.errs = append(w.errs, fmt.Sprintf("no JSON form for %s", t))
	return "unknown"
}

func arrayOf(elem string) string {
	if strings.Contains(elem, " | ") {
		return "(" + elem + ")[]"
	}
	return elem + "[]"
}

func basic(b *types.Basic) string {
	switch {
	case b.Info()&types.IsString != 0:
		return "string"
	case b.Info()&types.IsBoolean != 0:
		return "boolean"
	case b.Info()&types.IsNumeric != 0:
		return "number"
	}
	return "unknown"
}

// named is a reference to a named type, which is declared once in the output.
func (w *writer) named(n *types.Named) string {
	id := nameOf(n.Obj())
	if ts, ok := known[id]; ok {
		return ts
	}
	if n.TypeArgs().Len() > 0 {
		w.errs = append(w.errs, fmt.Sprintf("%s: generic types are not supported", id))
		return "unknown"
	}
	if implements(n, jsonMarshaler) {
		w.errs = append(w.errs, fmt.Sprintf("%s has its own MarshalJSON: its JSON form is not its Go type", id))
		return "unknown"
	}
	if implements(n, textMarshaler) {
		return "string"
	}
	if b, ok := n.Underlying().(*types.Basic); ok && !inModule(id.pkg) {
		return basic(b) // a library's scalar type, such as os.FileMode
	}
	if _, seen := w.reached[id]; !seen {
		w.reached[id] = n.Obj()
		w.declare(n) // reach what it reaches, in the collecting pass
	}
	if name, ok := w.names[id]; ok {
		return name
	}
	return id.name
}

func inModule(pkg string) bool { return pkg == "agentdesk" || strings.HasPrefix(pkg, "agentdesk/") }

func isScalar(t types.Type) bool {
	_, ok := t.Underlying().(*types.Basic)
	return ok
}

// field is one property of an interface, rendered.
type field struct {
	name string
	ts   string
	doc  string
}

// candidate is a struct field as encoding/json sees it before resolving clashes.
type candidate struct {
	field
	index  []int
	tagged bool
}

// fields lists a struct's properties as encoding/json writes them: tags name them, "-" drops
// them, the fields of an untagged embedded struct are promoted, and of clashing names the
// shallowest wins, then the only tagged one; a clash left undecided drops them all.
func (w *writer) fields(st *types.Struct, owner string) []field {
	var all []candidate
	w.collect(st, owner, nil, &all)
	byName := map[string][]candidate{}
	for _, c := range all {
		byName[c.name] = append(byName[c.name], c)
	}
	var kept []candidate
	for _, cs := range byName {
		if c, ok := dominant(cs); ok {
			kept = append(kept, c)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return slices.Compare(kept[i].index, kept[j].index) < 0 })
	out := make([]field, len(kept))
	for i, c := range kept {
		out[i] = c.field
	}
	return out
}

func dominant(cs []candidate) (candidate, bool) {
	sort.SliceStable(cs, func(i, j int) bool { return len(cs[i].index) < len(cs[j].index) })
	top := cs[:1]
	for _, c := range cs[1:] {
		if len(c.index) == len(cs[0].index) {
			top = append(top, c)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	var tagged []candidate
	for _, c := range top {
		if c.tagged {
			tagged = append(tagged, c)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return candidate{}, false
}

func (w *writer) collect(st *types.Struct, owner string, index []int, out *[]candidate) {
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		at := append(slices.Clone(index), i)
		if v.Embedded() && name == "" {
			t := types.Unalias(v.Type())
			if p, ok := t.(*types.Pointer); ok {
				t = types.Unalias(p.Elem())
			}
			if s, ok := t.Underlying().(*types.Struct); ok {
				inner := ""
				if n, ok := t.(*types.Named); ok {
					inner = nameOf(n.Obj()).String()
				}
				w.collect(s, inner, at, out)
				continue
			}
		}
		if !v.Exported() {
			continue
		}
		if name == "" {
			name = v.Name()
		}
		*out = append(*out, candidate{field: w.property(name, opts, v.Type(), w.src.docs[owner+"."+v.Name()]), index: at, tagged: tag != ""})
	}
}

// property renders one field under its JSON name and options.
func (w *writer) property(name, opts string, t types.Type, doc string) field {
	has := func(o string) bool { return slices.Contains(strings.Split(opts, ","), o) }
	key := name
	if !isIdent(name) {
		key = tsString(name)
	}
	ts := w.wire(t)
	if has("string") && isScalar(t) {
		ts = "string"
	}
	if has("omitzero") || has("omitempty") && omittable(t) {
		return field{name: name, ts: key + "?: " + w.base(t), doc: doc}
	}
	return field{name: name, ts: key + ": " + ts, doc: doc}
}

// omittable says whether omitempty can drop a value of t: never a struct's.
func omittable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return false
	case *types.Array:
		return u.Len() == 0
	}
	return true
}

// tsString is s as a single-quoted TypeScript string literal.
func tsString(s string) string {
	q := strconv.Quote(s) // escapes everything but the quotes we change
	q = strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
	return "'" + strings.ReplaceAll(q, "'", `\'`) + "'"
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return s != ""
}

// enumValues are the values of the constants of a string type declared in its package, in
// the order of the source: the union the page may send or receive.
func enumValues(n *types.Named) []string {
	b, ok := n.Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsString == 0 || n.Obj().Pkg() == nil {
		return nil
	}
	scope := n.Obj().Pkg().Scope()
	var consts []*types.Const
	for _, name := range scope.Names() {
		if c, ok := scope.Lookup(name).(*types.Const); ok && types.Identical(c.Type(), n) {
			consts = append(consts, c)
		}
	}
	sort.Slice(consts, func(i, j int) bool { return consts[i].Pos() < consts[j].Pos() })
	var out []string
	for _, c := range consts {
		v := tsString(constant.StringVal(c.Val()))
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
