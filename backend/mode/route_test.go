package mode

import "testing"

// routeCorpus pins the Smart router on requests in every shipped language (R-MODE-2).
var routeCorpus = []struct {
	text string
	want ExecutionMode
}{
	// English — proposal only: never mutates.
	{"Only propose a change to the config loader, don't apply it", ModePropose},
	{"Just propose how to rename the package", ModePropose},
	{"Don't change anything, but tell me how you would refactor this", ModePropose},
	{"Do not modify any files; suggest a patch for the race", ModePropose},
	{"Suggest a patch for the nil pointer in main.go", ModePropose},
	{"Please suggest a fix for the failing login test", ModePropose},
	{"Can you propose changes to speed up the build?", ModePropose},
	{"Without changing the code, show me a diff that would add logging", ModePropose},
	{"Don’t touch the files, just suggest some improvements", ModePropose},
	// English — verified.
	{"Add input validation and make sure the tests pass", ModeVerified},
	{"Fix the flaky test and verify it passes ten times in a row", ModeVerified},
	{"Refactor the store and ensure all tests pass", ModeVerified},
	{"Keep going until the tests pass", ModeVerified},
	// English — plan.
	{"Design a caching layer for the API client", ModePlan},
	{"Plan the migration from SQLite to Postgres", ModePlan},
	{"How should we structure the plugin system?", ModePlan},
	{"Outline a roadmap for the 2.0 release", ModePlan},
	{"We need an architecture for multi-window support", ModePlan},
	// English — analyze.
	{"What does the Fold function do?", ModeAnalyze},
	{"Why is the build slow on CI?", ModeAnalyze},
	{"Explain the turn loop state machine", ModeAnalyze},
	{"How does the gate decide protected paths?", ModeAnalyze},
	{"Where is the default permission mode stored?", ModeAnalyze},
	{"Summarize the changes in the last commit", ModeAnalyze},
	{"Can you explain how the router works", ModeAnalyze},
	{"Is this function thread safe?", ModeAnalyze},
	{"Review the error handling in the store package", ModeAnalyze},
	{"Walk me through the startup sequence", ModeAnalyze},
	{"Why does the app crash when I open a second window?", ModeAnalyze},
	// English — debug.
	{"Fix the crash when the workspace folder is deleted", ModeDebug},
	{"The app panics on startup, debug it", ModeDebug},
	{"Login is broken after the last merge", ModeDebug},
	{"There's a bug in the decimal parser", ModeDebug},
	{"Investigate the memory leak in the event bus", ModeDebug},
	{"tests are failing on main", ModeDebug},
	{"Please fix the typo error in the README", ModeDebug},
	// English — execute.
	{"Add a --json flag to the sessions list command", ModeExecute},
	{"Rename Foo to Bar across the codebase", ModeExecute},
	{"Write unit tests for the queue package", ModeExecute},
	{"Implement dark mode for the settings page", ModeExecute},
	{"Update the dependencies to the latest versions", ModeExecute},
	{"Create a Makefile with build and lint targets", ModeExecute},
	{"Convert the config from YAML to TOML", ModeExecute},
	{"Bump the version to 1.4.0", ModeExecute},
	{"Can you add a license header to every Go file", ModeExecute},
	// Chinese — proposal only.
	{"只提建议，不要直接改代码", ModePropose},
	{"不要修改任何文件，告诉我怎么重构", ModePropose},
	{"给个建议：这个函数怎么优化", ModePropose},
	{"先别改，给出补丁看看", ModePropose},
	{"别动代码，只读看一下有没有问题", ModePropose},
	// Chinese — verified.
	{"给登录加上校验，并确保测试通过", ModeVerified},
	{"修好这个测试并验证它能稳定通过", ModeVerified},
	// Chinese — plan.
	{"设计一个插件系统", ModePlan},
	{"帮我规划一下数据库迁移", ModePlan},
	{"给出多窗口支持的架构方案", ModePlan},
	{"制定一个发布计划", ModePlan},
	// Chinese — analyze.
	{"解释一下这个状态机", ModeAnalyze},
	{"为什么构建这么慢", ModeAnalyze},
	{"这个函数是线程安全的吗", ModeAnalyze},
	{"分析一下启动流程", ModeAnalyze},
	{"默认权限保存在哪里？", ModeAnalyze},
	{"总结最近一次提交的改动", ModeAnalyze},
	// Chinese — debug.
	{"修复打开第二个窗口时的崩溃", ModeDebug},
	{"启动时报错了，帮我看看", ModeDebug},
	{"登录功能有bug", ModeDebug},
	{"排查一下事件总线的内存泄漏", ModeDebug},
	// Chinese — execute.
	{"给会话列表命令加一个 --json 参数", ModeExecute},
	{"把 Foo 重命名为 Bar", ModeExecute},
	{"为队列包编写单元测试", ModeExecute},
	{"实现设置页面的深色模式", ModeExecute},
}

func TestRouteCorpus(t *testing.T) {
	var en, zh, proposals int
	for _, c := range routeCorpus {
		if hasHan(c.text) {
			zh++
		} else {
			en++
		}
		if c.want == ModePropose {
			proposals++
		}
		t.Run(c.text, func(t *testing.T) {
			got := Route(c.text)
			if got.Mode != c.want {
				t.Fatalf("Route(%q) = %s (%s %v), want %s", c.text, got.Mode, got.ReasonKey, got.ReasonArgs, c.want)
			}
			if want := "route.reason." + string(c.want); got.ReasonKey != want {
				t.Fatalf("reason key %q, want %q", got.ReasonKey, want)
			}
		})
	}
	if en < 40 || zh < 20 || proposals < 10 {
		t.Fatalf("corpus too small: %d English, %d Chinese, %d proposal-only; want ≥40, ≥20, ≥10", en, zh, proposals)
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

func TestRouteNeverMatchesInsideWords(t *testing.T) {
	// "explain" contains "plan", "prefix" contains "fix", "terror" contains "error".
	for text, want := range map[string]ExecutionMode{
		"Explain the cache":               ModeAnalyze,
		"Add a prefix option to the CLI":  ModeExecute,
		"Add a terrorism filter to input": ModeExecute,
	} {
		if got := Route(text).Mode; got != want {
			t.Errorf("Route(%q) = %s, want %s", text, got, want)
		}
	}
}

func TestRouteIsStatelessAndDeterministic(t *testing.T) {
	first := Route("Design a caching layer")
	Route("Fix the crash")
	again := Route("Design a caching layer")
	if first.Mode != again.Mode || first.ReasonKey != again.ReasonKey {
		t.Fatalf("routing changed between identical requests: %+v then %+v", first, again)
	}
	if Route("Add a flag").Mode != ModeExecute {
		t.Fatal("an earlier plan request leaked into a later turn")
	}
}

func TestProposeNeverMutates(t *testing.T) {
	if ModePropose.MayMutate() || ModePropose.Offers(ToolWrite) || ModePropose.Offers(ToolEdit) || ModePropose.Offers(ToolBash) {
		t.Fatal("propose must never mutate")
	}
}

func TestResolve(t *testing.T) {
	cases := []struct {
		name string
		pref Preference
		text string
		want ExecutionMode
		key  string
	}{
		{"chat runs as chat whatever the text says", Preference{Interaction: Chat}, "Fix the crash", ModeChat, "route.reason.chat"},
		{"an override wins over the router", Preference{Interaction: Smart, Override: Plan}, "Fix the crash", ModePlan, "route.reason.override"},
		{"plain smart asks the router", Preference{Interaction: Smart}, "Fix the crash", ModeDebug, "route.reason.debug"},
		{"an unknown interaction reads as analyze", Preference{Interaction: "agent"}, "Add a flag", ModeAnalyze, "route.reason.unrecognized"},
		{"an unknown override reads as analyze", Preference{Interaction: Smart, Override: "yolo"}, "Add a flag", ModeAnalyze, "route.reason.unrecognized"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Resolve(c.pref, c.text)
			if got.Mode != c.want || got.ReasonKey != c.key {
				t.Fatalf("got %s/%s, want %s/%s", got.Mode, got.ReasonKey, c.want, c.key)
			}
		})
	}
}
