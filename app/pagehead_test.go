package app

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

func TestWithHeadPutsTheScriptBeforeTheBundle(t *testing.T) {
	assets := fstest.MapFS{
		"index.html":  {Data: []byte(`<html><head><script type="module" src="./a.js"></script></head></html>`)},
		"assets/a.js": {Data: []byte("x")},
	}
	page, err := fs.ReadFile(withHead(assets, func() string { return "<script>1</script>" }), "index.html")
	if err != nil {
		t.Fatal(err)
	}
	if want := `<head><script>1</script><script type="module"`; !strings.Contains(string(page), want) {
		t.Fatalf("page %s does not hold %s", page, want)
	}
	other, _ := fs.ReadFile(withHead(assets, func() string { return "<script>1</script>" }), "assets/a.js")
	if string(other) != "x" {
		t.Fatalf("another file changed: %q", other)
	}
	if got := scriptJSON([]byte(`{"t":"</script>\u2028"}`)); strings.Contains(got, "</") || strings.Contains(got, "\u2028") {
		t.Fatalf("unsafe in a script: %q", got)
	}
}

// The palette is set before the first paint from the saved theme; anything else follows the OS.
func TestSchemeHeadSetsThePaletteBeforeThePagePaints(t *testing.T) {
	for theme, want := range map[string]string{"dark": `const t="dark"`, "light": `const t="light"`, "system": `const t="system"`,
		"": `const t="system"`, `"};alert(1);//`: `const t="system"`} {
		head := schemeHead(theme)
		if !strings.Contains(head, want) || !strings.Contains(head, `setAttribute("data-scheme"`) ||
			!strings.Contains(head, "html[data-scheme=dark]{background:#17171a") {
			t.Errorf("theme %q: %s", theme, head)
		}
	}
}
