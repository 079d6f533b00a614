package tool

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"

	"agentdesk/backend/i18n"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/locales"
)

// The property names are a contract: scripts and outside tests send exactly these.
var wantProps = map[mode.Tool]struct{ props, required []string }{
	mode.ToolRead:         {[]string{"path", "offset", "limit"}, []string{"path"}},
	mode.ToolGlob:         {[]string{"pattern"}, []string{"pattern"}},
	mode.ToolGrep:         {[]string{"pattern", "path"}, []string{"pattern"}},
	mode.ToolBash:         {[]string{"command", "timeout_s", "escalate"}, []string{"command"}},
	mode.ToolEdit:         {[]string{"path", "old_string", "new_string"}, []string{"path", "old_string", "new_string"}},
	mode.ToolWrite:        {[]string{"path", "content"}, []string{"path", "content"}},
	mode.ToolAskUser:      {[]string{"question", "options", "multiple"}, []string{"question"}},
	mode.ToolExitPlanMode: {[]string{"plan"}, []string{"plan"}},
}

func TestRegistryHoldsTheEightTools(t *testing.T) {
	names := registry.Names()
	want := []mode.Tool{"read", "glob", "grep", "bash", "edit", "write", "ask_user", "exit_plan_mode"}
	if !slices.Equal(names, want) {
		t.Fatalf("names %v, want %v", names, want)
	}
	for _, n := range names {
		if get(t, n).Name() != n {
			t.Errorf("tool %q reports name %q", n, get(t, n).Name())
		}
	}
	if _, ok := registry.Get("ls"); ok {
		t.Error("an unknown tool was found")
	}
}

func TestSchemasAreObjectsWithTheExactProperties(t *testing.T) {
	for name, want := range wantProps {
		tl := get(t, name)
		var s struct {
			Type       string                    `json:"type"`
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
			Additional *bool                     `json:"additionalProperties"`
		}
		raw := tl.Schema()
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: schema is not JSON: %v\n%s", name, err, raw)
		}
		if s.Type != "object" || s.Additional == nil || *s.Additional {
			t.Errorf("%s: type %q, additionalProperties %v", name, s.Type, s.Additional)
		}
		if got := propOrder(t, raw); !slices.Equal(got, want.props) {
			t.Errorf("%s: properties %v, want %v (in this order)", name, got, want.props)
		}
		if !slices.Equal(s.Required, want.required) {
			t.Errorf("%s: required %v, want %v", name, s.Required, want.required)
		}
		for p, def := range s.Properties {
			if def["type"] == "" || def["title"] == "" || def["description"] == "" {
				t.Errorf("%s.%s lacks type, title or description: %v", name, p, def)
			}
		}
		if strings.TrimSpace(tl.Description()) == "" {
			t.Errorf("%s has no description", name)
		}
	}
}

// propOrder reads the property names in document order, which the fn-form follows.
func propOrder(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(s.Properties)))
	var names []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 && dec.More() {
				names = append(names, v)
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return names
}

func TestSchemaIsACopy(t *testing.T) {
	s := get(t, mode.ToolRead).Schema()
	s[0] = 'X'
	if get(t, mode.ToolRead).Schema()[0] != '{' {
		t.Fatal("editing a returned schema changed the tool's schema")
	}
}

func TestDescribeMapsEachToolToItsGateKind(t *testing.T) {
	cases := []struct {
		tool  mode.Tool
		input string
		want  policy.Call
	}{
		{mode.ToolRead, `{"path":"a.go"}`, policy.Call{Kind: policy.KindRead, Path: "a.go"}},
		{mode.ToolGlob, `{"pattern":"src/**/*.go"}`, policy.Call{Kind: policy.KindRead, Path: "src"}},
		{mode.ToolGlob, `{"pattern":"**/*.go"}`, policy.Call{Kind: policy.KindRead, Path: "."}},
		{mode.ToolGlob, `{"pattern":"../other/*.go"}`, policy.Call{Kind: policy.KindRead, Path: "../other"}},
		{mode.ToolGlob, `{"pattern":"/etc/*.conf"}`, policy.Call{Kind: policy.KindRead, Path: "/etc"}},
		{mode.ToolGrep, `{"pattern":"x"}`, policy.Call{Kind: policy.KindRead, Path: "."}},
		{mode.ToolGrep, `{"pattern":"x","path":"/tmp"}`, policy.Call{Kind: policy.KindRead, Path: "/tmp"}},
		{mode.ToolBash, `{"command":"go test ./..."}`, policy.Call{Kind: policy.KindBash, Command: "go test ./..."}},
		{mode.ToolEdit, `{"path":"a","old_string":"x","new_string":"y"}`, policy.Call{Kind: policy.KindEdit, Path: "a"}},
		{mode.ToolWrite, `{"path":"../b","content":""}`, policy.Call{Kind: policy.KindWrite, Path: "../b"}},
		{mode.ToolAskUser, `{"question":"Which?"}`, policy.Call{Kind: policy.KindAsk}},
		{mode.ToolExitPlanMode, `{"plan":"# P"}`, policy.Call{Kind: policy.KindPlanExit}},
	}
	for _, c := range cases {
		call, err := get(t, c.tool).Describe(json.RawMessage(c.input))
		if err != nil {
			t.Fatalf("%s %s: %v", c.tool, c.input, err)
		}
		if call.Gate != c.want {
			t.Errorf("%s %s: gate %+v, want %+v", c.tool, c.input, call.Gate, c.want)
		}
		if call.Summary == "" {
			t.Errorf("%s: empty summary", c.tool)
		}
	}
}

func TestSummaryShowsTheFullCall(t *testing.T) {
	cmd := "rm -rf build && make all 2>&1 | tee log.txt"
	call, err := get(t, mode.ToolBash).Describe(json.RawMessage(jsonInput(t, map[string]any{"command": cmd})))
	if err != nil || call.Summary != cmd {
		t.Fatalf("bash summary %q, %v", call.Summary, err)
	}
	call, err = get(t, mode.ToolEdit).Describe(json.RawMessage(
		`{"path":"a.go","old_string":"one\ntwo","new_string":"three"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "path: a.go\nold_string:\none\ntwo\nnew_string: three"; call.Summary != want {
		t.Fatalf("edit summary %q, want %q", call.Summary, want)
	}
}

func TestDefsFollowTheProfile(t *testing.T) {
	if defs := registry.Defs(mode.ProfileOf(mode.ModeChat).Tools); len(defs) != 0 {
		t.Fatalf("chat got %d tool definitions", len(defs))
	}
	plan := registry.Defs(mode.ProfileOf(mode.ModePlan).Tools)
	if got := defNames(plan); !slices.Equal(got, []string{"read", "glob", "grep", "ask_user", "exit_plan_mode"}) {
		t.Fatalf("plan defs %v", got)
	}
	shuffled := registry.Defs([]mode.Tool{"exit_plan_mode", "grep", "read", "no_such", "read", "glob", "ask_user"})
	if !reflect.DeepEqual(shuffled, plan) {
		t.Fatalf("defs depend on the input order: %v", defNames(shuffled))
	}
	for _, d := range registry.Defs(mode.ProfileOf(mode.ModeExecute).Tools) {
		if d.Description == "" || !json.Valid(d.InputSchema) {
			t.Errorf("def %s is incomplete", d.Name)
		}
	}
}

func defNames(defs []Def) []string {
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return names
}

func TestLocaleKeys(t *testing.T) {
	en, zh := loadLocale(t, "en"), loadLocale(t, "zh-CN")
	var keys []string
	for _, k := range Kinds {
		keys = append(keys, "error."+string(k))
	}
	keys = append(keys, DisplayKeys...)
	keys = append(keys, "tool.result.rejected", "tool.result.rejectedWithReason")
	for name, want := range wantProps {
		keys = append(keys, "tool."+string(name)+".label", "tool."+string(name)+".hint")
		for _, p := range want.props {
			keys = append(keys, "tool."+string(name)+".param."+p)
		}
	}
	for _, k := range keys {
		if en[k] == "" || zh[k] == "" {
			t.Errorf("key %q: en %q, zh-CN %q", k, en[k], zh[k])
		}
		if !hasHan(zh[k]) {
			t.Errorf("zh-CN %q is not Chinese: %q", k, zh[k])
		}
	}
	if len(en) != len(zh) {
		t.Errorf("en has %d keys, zh-CN %d", len(en), len(zh))
	}
	for k := range en {
		if _, ok := zh[k]; !ok {
			t.Errorf("zh-CN lacks %q", k)
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// loadLocale reads every message of lang (all locale files), like the app does.
func loadLocale(t *testing.T, lang string) map[string]string {
	t.Helper()
	all, err := i18n.Keys(locales.FS)
	if err != nil {
		t.Fatal(err)
	}
	return all[lang]
}

// TestErrorsRenderInEveryLanguage checks that each error's arguments fill its message.
func TestErrorsRenderInEveryLanguage(t *testing.T) {
	b, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	ws := workspace(t, map[string]string{"a.txt": "x\nx\n"})
	_, editErr := run(t, mode.ToolEdit, Env{Workspace: ws}, `{"path":"a.txt","old_string":"x","new_string":"y"}`)
	_, inputErr := get(t, mode.ToolRead).Describe(json.RawMessage(`{"path":1}`))
	for _, lang := range locales.Languages {
		for _, e := range []error{editErr, inputErr} {
			msg := b.Error(lang, e)
			if strings.Contains(msg, "<no value>") || strings.HasPrefix(msg, "error.") {
				t.Errorf("%s: %q", lang, msg)
			}
		}
	}
	if msg := b.Error("en", editErr); !strings.Contains(msg, "2 times") || !strings.Contains(msg, "a.txt") {
		t.Errorf("edit message %q must name the count and the file", msg)
	}
	if msg := b.Error("en", inputErr); !strings.Contains(msg, "read") || !strings.Contains(msg, `"path"`) {
		t.Errorf("input message %q must name the tool and the field", msg)
	}
}

func BenchmarkDescribe(b *testing.B) {
	inputs := []struct {
		tool  mode.Tool
		input json.RawMessage
	}{
		{mode.ToolBash, json.RawMessage(`{"command":"go test ./... && git status","timeout_s":300}`)},
		{mode.ToolEdit, json.RawMessage(`{"path":"backend/tool/read.go","old_string":"func a() {}\n","new_string":"func b() {}\n"}`)},
		{mode.ToolRead, json.RawMessage(`{"path":"README.md","offset":10,"limit":50}`)},
		{mode.ToolGlob, json.RawMessage(`{"pattern":"src/**/*.{ts,tsx}"}`)},
	}
	tools := make([]Tool, len(inputs))
	for i, in := range inputs {
		tools[i], _ = registry.Get(in.tool)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		k := i % len(inputs)
		if _, err := tools[k].Describe(inputs[k].input); err != nil {
			b.Fatal(err)
		}
	}
}
