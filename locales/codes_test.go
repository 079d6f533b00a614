package locales_test

import (
	"go/constant"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"agentdesk/backend/decision"
	"agentdesk/backend/i18n"
)

const kindType = "agentdesk/backend/errs.Kind"

// errorKinds type-checks the module's Go sources and returns every constant whose type is
// errs.Kind, by value, with where it is declared: a code is found by its type, so a new one
// cannot hide behind a spelling a pattern would miss.
func errorKinds(t *testing.T) map[string]string {
	t.Helper()
	cfg := &packages.Config{Dir: "..", Mode: packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "agentdesk", "agentdesk/app/...", "agentdesk/backend/...")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		if p.Types == nil || !strings.HasPrefix(p.PkgPath, "agentdesk") {
			return
		}
		for _, obj := range p.TypesInfo.Defs {
			c, ok := obj.(*types.Const)
			if !ok || types.TypeString(c.Type(), nil) != kindType || c.Val().Kind() != constant.String {
				continue
			}
			found[constant.StringVal(c.Val())] = p.Fset.Position(c.Pos()).String()
		}
	})
	return found
}

// Every error code the Go code can raise has words in every shipped language: the UI shows
// "error.<KIND>", and a code without a message shows as the raw code.
func TestEveryErrorKindHasAMessage(t *testing.T) {
	kinds := errorKinds(t)
	if len(kinds) < 50 || kinds["INTERNAL"] == "" || kinds["TOO_MANY_STEPS"] == "" {
		t.Fatalf("the walk found too few codes (%d): %v", len(kinds), kinds)
	}
	var keys []string
	for k := range kinds {
		keys = append(keys, "error."+k)
	}
	sort.Strings(keys)
	for _, m := range i18n.Missing(keys...) {
		key := m[strings.Index(m, "error.")+len("error."):]
		t.Errorf("no message for %s (declared at %s)", m, kinds[key])
	}
}

// Every decision kind is named in every place the UI names one by kind (the composer's own
// mode names are the frontend's, checked by its tests).
func TestEveryDecisionKindHasWords(t *testing.T) {
	var keys []string
	for _, k := range decision.Kinds {
		for _, prefix := range []string{"decision.kind.", "notify.title.", "composer.chip.waiting."} {
			keys = append(keys, prefix+string(k))
		}
	}
	for _, m := range i18n.Missing(keys...) {
		t.Errorf("no message for %s", m)
	}
}
