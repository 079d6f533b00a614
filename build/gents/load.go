package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"

	"agentdesk/app"
	"agentdesk/backend/decision"
)

// source is what the generator reads: the type-checked packages of the module (agentdesk's own
// from source, so their doc comments are at hand; the rest from export data) and the doc
// comments by "pkgpath.Name", "pkgpath.Name.Field" and "pkgpath.Name.Method".
type source struct {
	pkgs map[string]*types.Package
	docs map[string]string
}

// contract are the packages read from source, whose docs and constants reach the page: the
// facades and the domain below them.
var contract = []string{"agentdesk/app", "agentdesk/backend/..."}

func load(dir string, patterns ...string) (*source, error) {
	cfg := &packages.Config{Dir: dir, Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax |
		packages.NeedTypes | packages.NeedImports}
	list, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	src := &source{pkgs: map[string]*types.Package{}, docs: map[string]string{}}
	var problems []string
	packages.Visit(list, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			problems = append(problems, e.Error())
		}
		if p.Types != nil {
			src.pkgs[p.PkgPath] = p.Types
		}
		for _, f := range p.Syntax {
			src.readDocs(p.PkgPath, f)
		}
	})
	if len(problems) > 0 {
		return nil, fmt.Errorf("loading packages:\n%s", strings.Join(problems, "\n"))
	}
	return src, nil
}

// readDocs keeps the doc comments of types, their fields and methods.
func (s *source) readDocs(pkg string, f *ast.File) {
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				ts, ok := spec.(*ast.TypeSpec)
				if !ok {
					continue
				}
				doc := ts.Doc
				if doc == nil && len(d.Specs) == 1 {
					doc = d.Doc
				}
				key := pkg + "." + ts.Name.Name
				s.docs[key] = doc.Text()
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fld := range st.Fields.List {
						text := fld.Doc.Text()
						if text == "" {
							text = fld.Comment.Text()
						}
						for _, n := range fld.Names {
							s.docs[key+"."+n.Name] = text
						}
					}
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if recv := receiverName(d.Recv.List[0].Type); recv != "" {
					s.docs[pkg+"."+recv+"."+d.Name.Name] = d.Doc.Text()
				}
			}
		}
	}
}

func receiverName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// method is one "Struct.Method" the bridge serves, with its request (nil: none) and result
// (nil: the method returns only an error).
type method struct {
	name     string
	doc      string
	req, res types.Type
}

// methods lists what app.Services.Methods serves, the same map both transports use, so a
// method the page can call is never missing here; go/types gives each its signature.
func (s *source) methods() ([]method, error) {
	appPkg := s.pkgs["agentdesk/app"]
	names := make([]string, 0)
	for name := range (&app.Services{}).Methods() {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]method, 0, len(names))
	for _, name := range names {
		facade, fn, _ := strings.Cut(name, ".")
		obj := appPkg.Scope().Lookup(facade)
		if obj == nil {
			return nil, fmt.Errorf("%s: no type %s in app", name, facade)
		}
		m, _, _ := types.LookupFieldOrMethod(types.NewPointer(obj.Type()), true, appPkg, fn)
		f, ok := m.(*types.Func)
		if !ok {
			return nil, fmt.Errorf("%s: no such method", name)
		}
		sig := f.Type().(*types.Signature)
		mt := method{name: name, doc: s.docs["agentdesk/app."+facade+"."+fn]}
		if sig.Params().Len() == 1 {
			mt.req = sig.Params().At(0).Type()
		}
		if sig.Results().Len() == 2 {
			mt.res = sig.Results().At(0).Type()
		}
		out = append(out, mt)
	}
	return out, nil
}

// event is one broadcast the page can subscribe to and the type of its payload.
type event struct {
	name    string
	payload types.Type
}

// events reads app.EventPayloads, the one table of what is broadcast with which payload.
func (s *source) events() ([]event, error) {
	table := app.EventPayloads()
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	sort.Strings(names)
	out := make([]event, 0, len(names))
	for _, name := range names {
		t, err := s.typeOf(table[name])
		if err != nil {
			return nil, fmt.Errorf("event %s: %w", name, err)
		}
		out = append(out, event{name: name, payload: t})
	}
	return out, nil
}

// form is one decision kind with the types of its payload and its answer.
type form struct {
	kind            string
	payload, answer types.Type
}

// forms reads decision.Forms, the one table of what each kind of decision carries: both travel
// as json.RawMessage, so only this table tells the page their types.
func (s *source) forms() ([]form, error) {
	table := decision.Forms()
	kinds := make([]string, 0, len(table))
	for k := range table {
		kinds = append(kinds, string(k))
	}
	sort.Strings(kinds)
	out := make([]form, 0, len(kinds))
	for _, k := range kinds {
		f := table[decision.Kind(k)]
		payload, err := s.typeOf(f.Payload)
		if err != nil {
			return nil, fmt.Errorf("decision %s: %w", k, err)
		}
		answer, err := s.typeOf(f.Answer)
		if err != nil {
			return nil, fmt.Errorf("decision %s: %w", k, err)
		}
		out = append(out, form{kind: k, payload: payload, answer: answer})
	}
	return out, nil
}
