package mode

import (
	"slices"
	"strings"
)

// routeRule is one line of the router's table.
type routeRule struct {
	mode ExecutionMode
	// carry: the mode is the previous turn's (see carryOn), not one of the table's.
	carry     bool
	reasonKey string
	phrases   [][]string // English phrases that decide anywhere, as consecutive words
	leading   [][]string // English phrases that decide at the start of the request
	han       []string   // Chinese substrings that decide anywhere
	// topics name what a request is about ("debug", "error", "design"): they decide only outside a
	// change request, so "change the log level to debug" is not a debugging task.
	topics    [][]string
	hanTopics []string
	// hanLeading are Chinese substrings that decide at the start, after the openers.
	hanLeading []string
	// readOnly: leading and hanLeading count only when the request names no change at all
	// ("list the files", but not "list the files and delete the old ones").
	readOnly bool
	question bool // also matches a request phrased as a question (not "can you…?")
	custom   func(request) (string, bool)
}

func (r routeRule) match(req request) (string, bool) {
	for _, p := range r.phrases {
		if containsPhrase(req.words, p) {
			return strings.Join(p, " "), true
		}
	}
	for _, h := range r.han {
		if strings.Contains(req.compact, h) {
			return h, true
		}
	}
	if !r.readOnly || !req.edits {
		for _, p := range r.leading {
			if hasPrefix(req.lead, p) {
				return strings.Join(p, " "), true
			}
		}
		for _, h := range r.hanLeading {
			if strings.HasPrefix(req.han, h) {
				return h, true
			}
		}
	}
	if !req.changing {
		for _, p := range r.topics {
			if containsPhrase(req.words, p) {
				return strings.Join(p, " "), true
			}
		}
		for _, h := range r.hanTopics {
			if strings.Contains(req.compact, h) {
				return h, true
			}
		}
	}
	if r.custom != nil {
		if m, ok := r.custom(req); ok {
			return m, true
		}
	}
	if r.question && !req.polite && isQuestion(req.raw) {
		return "?", true
	}
	return "", false
}

func isQuestion(raw string) bool {
	return strings.HasSuffix(raw, "?") || strings.HasSuffix(raw, "？") || strings.HasSuffix(raw, "吗")
}

// words splits a space-separated list of phrases written as "a b|c d" into word lists.
func words(list string) [][]string {
	var out [][]string
	for _, p := range strings.Split(list, "|") {
		out = append(out, strings.Fields(p))
	}
	return out
}

// set is a space-separated list of words as a set.
func set(list string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(list) {
		out[w] = true
	}
	return out
}

// changeVerbs open an English change request.
var changeVerbs = set("add change set rename remove delete update create write implement make move replace " +
	"bump convert enable disable turn log refactor extract introduce support use switch upgrade increase " +
	"decrease raise lower drop install insert append generate modify edit handle")

// hanChangeVerbs name a change in a Chinese request.
var hanChangeVerbs = []string{"加上", "加一个", "加个", "添加", "增加", "新增", "改成", "改为", "改一下", "改吧", "删除", "删掉",
	"去掉", "移除", "重命名", "替换", "实现", "创建", "新建", "编写", "升级", "更新", "设置为", "设为", "启用", "禁用",
	"开启", "关闭", "转成", "转换", "记录到", "重构", "写入", "处理", "显示成", "显示为"}

// onlyWords matches a message made only of words from vocab, with at least one from keys:
// "thanks!", "perfect, that works, thanks" — but not "thanks, now add a flag".
func onlyWords(keys, vocab string) func(request) (string, bool) {
	k, v := set(keys), set(keys+" "+vocab)
	return func(req request) (string, bool) {
		if len(req.all) == 0 || req.compact != strings.Join(req.all, "") && !asciiOnly(req.compact) {
			return "", false
		}
		key := ""
		for _, w := range req.all {
			if !v[w] {
				return "", false
			}
			if k[w] && key == "" {
				key = w
			}
		}
		return key, key != ""
	}
}

func asciiOnly(s string) bool {
	for _, r := range s {
		if r > 127 {
			return false
		}
	}
	return true
}

// either matches what a or b matches, a first.
func either(a, b func(request) (string, bool)) func(request) (string, bool) {
	return func(req request) (string, bool) {
		if m, ok := a(req); ok {
			return m, true
		}
		return b(req)
	}
}

// wholeMessage matches a message that is exactly one of the English phrases or Chinese texts,
// punctuation and spaces aside.
func wholeMessage(english, chinese string) func(request) (string, bool) {
	en := map[string]bool{}
	for _, p := range strings.Split(english, "|") {
		en[strings.Join(strings.Fields(p), " ")] = true
	}
	zh := set(chinese)
	return func(req request) (string, bool) {
		if len(req.all) > 0 && len(req.all) <= 5 && asciiOnly(req.compact) {
			if s := strings.Join(req.all, " "); en[s] {
				return s, true
			}
		}
		if s := strings.TrimRight(req.compact, "啊呀哈呢~"); zh[s] {
			return s, true
		}
		return "", false
	}
}

var (
	goOn       = words("carry on|continue|go on|keep going|keep at it|resume")
	goOnFiller = set("where you left off from there with it the task work what were doing on then now please again")
)

// carriesOn matches a message that only says to go on: "carry on", "ok, continue where you left
// off", "好的，继续", "继续刚才的工作" — but not "keep going until the tests pass".
func carriesOn(req request) (string, bool) {
	for _, p := range goOn {
		if hasPrefix(req.lead, p) && !slices.ContainsFunc(req.lead[len(p):], func(w string) bool { return !goOnFiller[w] }) {
			return strings.Join(p, " "), true
		}
	}
	s := req.han
	for _, o := range []string{"好的", "好", "嗯", "那就", "那", "ok"} {
		s = strings.TrimPrefix(s, o)
	}
	s = strings.TrimRight(s, "吧啊呀")
	switch s {
	case "继续", "接着", "接着来", "接着做", "接着干", "继续做", "继续来", "继续干", "继续执行", "继续下去", "继续往下",
		"往下做", "继续刚才的", "继续刚才的工作", "继续刚才的任务", "继续上面的", "继续上次的":
		return s, true
	}
	return "", false
}

var (
	negations = words("don't|dont|do not|never|without")
	verbs     = set("change modify edit touch apply write implement commit make " +
		"changing modifying editing touching applying writing making implementing committing")
	whole  = set("anything any it them yet code files file nothing changes a stuff things now")
	owners = set("the my this our these those your")
	places = set("code files file repo repository codebase workspace project source sources tree")
)

// notToChange matches an explicit negation of any change: "don't change anything", "do not
// modify any files", "without touching the code", "不要改代码", "别动" — but not a constraint on a
// change, such as "refactor it without changing its behavior" or "不要改变它的行为".
func notToChange(req request) (string, bool) {
	w := req.words
	for i := range w {
		for _, n := range negations {
			k := i + len(n)
			if !hasPrefix(w[i:], n) || k >= len(w) || !verbs[w[k]] {
				continue
			}
			k++
			if k == len(w) || whole[w[k]] || owners[w[k]] && k+1 < len(w) && places[w[k+1]] {
				return strings.Join(w[i:k], " "), true
			}
		}
	}
	if !strings.ContainsAny(req.compact, "不别无") {
		return "", false
	}
	for _, phrase := range hanNegations {
		i := strings.Index(req.compact, phrase)
		if i < 0 {
			continue
		}
		// Not a change, then: anything, the code, the files, or the end of the message.
		if rest := req.compact[i+len(phrase):]; rest == "" || slices.ContainsFunc(hanObjects, func(o string) bool { return strings.HasPrefix(rest, o) }) {
			return phrase, true
		}
		// Or the clause ends right after the verb: "先别改，给出补丁".
		if j := strings.Index(req.raw, phrase); j >= 0 && strings.ContainsAny(firstRune(req.raw[j+len(phrase):]), "，,。.；;！!？? ") {
			return phrase, true
		}
	}
	return "", false
}

// hanNegations are "don't change" in Chinese: a negation, an optional 直接 and a verb of change.
var hanNegations = func() []string {
	var out []string
	for _, n := range []string{"先不要", "不要", "先别", "别", "不用", "不需要", "无需", "不"} {
		for _, v := range []string{"修改", "改动", "编辑", "改", "动手", "动", "写", "碰", "应用", "实现"} {
			out = append(out, n+"直接"+v, n+v)
		}
	}
	return out
}()

var hanObjects = []string{"任何", "代码", "文件", "东西", "仓库", "项目"}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

var (
	failure = set("fail fails failing failed crash crashes crashing crashed panic panics panicking error errors " +
		"hang hangs hanging broken break breaks exception timeout flaky deadlock deadlocks")
	pipelines = set("ci build builds pipeline tests test checks")
	timesOut  = words("time out|times out|timed out|timing out")
	causes    = words("what's causing|what is causing|what causes|what caused")
	negated   = set("doesn't don't won't can't cannot isn't didn't wouldn't")
	works     = set("work works working build compile start load run open save connect pass")
)

// asksWhyItFails matches a question about a failure: "why does the test fail?", "what's causing
// the panic", "为什么编译不过".
func asksWhyItFails(req request) (string, bool) {
	why := slices.Contains(req.words, "why") || hasPrefix(req.lead, []string{"how", "come"}) ||
		slices.ContainsFunc(causes, func(p []string) bool { return hasPrefix(req.lead, p) })
	if why {
		for _, w := range req.words {
			if failure[w] {
				return w, true
			}
		}
		for _, p := range timesOut {
			if containsPhrase(req.words, p) {
				return strings.Join(p, " "), true
			}
		}
		if slices.Contains(req.words, "red") && slices.ContainsFunc(req.words, func(w string) bool { return pipelines[w] }) {
			return "red", true
		}
		if slices.ContainsFunc(req.words, func(w string) bool { return negated[w] }) &&
			slices.ContainsFunc(req.words, func(w string) bool { return works[w] }) {
			return "why", true
		}
	}
	if containsAny(req.compact, []string{"为什么", "为啥", "怎么会", "咋"}) {
		for _, f := range []string{"失败", "报错", "错误", "崩溃", "挂了", "挂掉", "出错", "不工作", "不行", "不能用", "跑不通",
			"编译不过", "通不过", "不通过", "卡住", "卡死", "异常", "超时", "闪退", "panic", "坏", "打不开", "用不了", "连不上",
			"启动不了", "跑不起来", "不起作用", "红了", "是红的", "变红"} {
			if strings.Contains(req.compact, f) {
				return f, true
			}
		}
	}
	return "", false
}

// routeRules is the router's table, in priority order (see RouteAfter).
var routeRules = []routeRule{
	{
		mode: ModePropose, reasonKey: "route.reason.propose",
		phrases: words("only propose|just propose|only suggest|just suggest|suggest a patch|suggest a fix|suggest changes|" +
			"suggest how|suggest some|suggest what|propose a|propose changes|propose improvements|propose how|" +
			"proposal only|a proposal for|write up a proposal|draft a patch|sketch a patch|show me a diff|show me the diff|" +
			"how would you|what would you change|what would you do|what would you suggest|what do you suggest|" +
			"what do you recommend|do you recommend|would you recommend|any suggestions|some suggestions|ideas for|" +
			"read-only|read only|no edits|no changes|dry run|don't apply|do not apply|leave the code|leave the files|" +
			"leave everything|just tell me|only tell me|only describe|just describe|i'll do it myself|i will do it myself|" +
			"what you'd change|what you would change|changes you'd make|changes you would make|no code changes|no file changes|no code edits|without code changes"),
		topics:  words("suggestion|suggestions|recommendation|recommendations|advice|proposal"),
		leading: words("suggest|propose|recommend|advise"),
		han: []string{"只提建议", "只给建议", "提个建议", "给个建议", "给些建议", "给点建议", "提点建议", "给出建议", "提出建议",
			"提出一些", "改进建议", "优化建议", "修复建议", "补丁建议", "有什么建议", "建议一下", "你建议", "推荐一个", "推荐一下",
			"只读", "给出补丁", "给个补丁", "建议一个补丁", "你会怎么", "你会如何", "如果是你", "怎么改比较好", "如何改比较好",
			"只告诉我", "只说", "只描述", "提案", "点子", "不要应用", "只看不改", "你会改", "你要改", "我自己来改", "我自己改",
			"供我选", "供我参考", "给我参考"},
		custom: notToChange,
	},
	{
		mode: ModeChat, reasonKey: "route.reason.greeting",
		custom: either(onlyWords("hello hi hey hiya howdy yo greetings morning afternoon evening",
			"good there all everyone agentdesk friend how are you doing today"),
			wholeMessage("", "你好 您好 嗨 哈喽 哈啰 早 早安 早上好 中午好 下午好 晚上好 在吗 在不在 大家好 你好呀")),
	},
	{
		mode: ModeChat, reasonKey: "route.reason.thanks",
		custom: either(onlyWords("thanks thank thx ty cheers appreciate appreciated",
			"you so much a lot great awesome perfect nice cool that that's works worked it got ok okay good very many helpful really again i"),
			wholeMessage("", "谢谢 谢谢你 谢谢您 多谢 感谢 非常感谢 太感谢了 辛苦了 太好了谢谢 好的谢谢 谢啦 谢了 好的多谢")),
	},
	{
		mode: ModeChat, reasonKey: "route.reason.smalltalk",
		custom: wholeMessage("how are you|how are you doing|how's it going|what can you do|what can you help with|who are you|"+
			"what are you|what's your name|nice work|good job|great job|well done|ok|okay|cool|got it|tell me a joke|"+
			"good night|bye|goodbye|lol|who made you|who built you|who created you|are you there|are you an ai|what model are you",
			"你好吗 你叫什么 你叫什么名字 谁开发了你 你是什么模型 你能做什么 你会做什么 你会什么 你是谁 干得漂亮 干得好 做得好 不错 很好 好的 好 嗯 知道了 明白了 收到 讲个笑话 说个笑话 再见 拜拜 晚安"),
	},
	{carry: true, reasonKey: "route.reason.continue", custom: carriesOn},
	{
		mode: ModeVerified, reasonKey: "route.reason.verified",
		phrases: words("verify it|verify that|verify this|verify the fix|verify everything|and verify|then verify|to verify|" +
			"make sure the tests pass|make sure tests pass|make sure all tests pass|make sure it passes|make sure the build passes|" +
			"ensure the tests pass|ensure tests pass|ensure all tests pass|until the tests pass|until tests pass|until all tests pass|" +
			"tests still pass|and confirm it works|prove it works|and run the tests|then run the tests"),
		leading: words("verify"),
		han: []string{"并验证", "然后验证", "再验证", "验证一下", "验证它", "验证是否", "确保测试通过", "确保所有测试通过", "确保通过测试",
			"直到测试通过", "测试全部通过", "跑通测试", "确认测试通过"},
	},
	{
		mode: ModePlan, reasonKey: "route.reason.plan",
		phrases: words("plan out|a plan for|a plan to|migration plan|an architecture for|a roadmap|outline a|migration strategy|" +
			"how should we|how should i|what's the best way to structure|come up with an approach|step by step plan|" +
			"design a|design an|design the"),
		leading:    words("plan|design|architect|outline"),
		topics:     words("design|plan|architecture|architect|roadmap|design doc"),
		han:        []string{"设计一个", "设计一下", "规划", "方案", "路线图", "思路", "制定"},
		hanTopics:  []string{"设计", "计划", "架构"},
		hanLeading: []string{"设计"},
	},
	{mode: ModeDebug, reasonKey: "route.reason.debug_why", custom: asksWhyItFails},
	{
		mode: ModeAnalyze, reasonKey: "route.reason.read", readOnly: true,
		leading: words("list|show|read|open|print|display|find|search|grep|look|locate|count|check|cat|give me a list"),
		han:     []string{"有哪些"},
		hanLeading: []string{"列出", "列一下", "显示", "查看", "看看", "看一下", "读一下", "读取", "读", "打开", "找出", "找到", "找一下",
			"搜索", "查找", "查一下", "统计", "检查"},
	},
	{
		mode: ModeAnalyze, reasonKey: "route.reason.analyze",
		leading: words("what|what's|whats|why|how|where|which|who|when|explain|describe|" +
			"summarize|summarise|tell me|walk me through|review|analyze|analyse|investigate why|help me understand"),
		phrases: words("explain|what does|how does|why does|why is|code review|overview of"),
		han: []string{"解释", "为什么", "是什么", "什么是", "怎么回事", "如何工作", "怎么工作", "分析", "说明一下", "介绍一下", "总结",
			"哪里", "哪个", "哪些", "讲讲", "描述", "看看这段", "审查", "评审"},
		question: true,
	},
	{
		mode: ModeDebug, reasonKey: "route.reason.debug",
		phrases: words("bug|bugs|crash|crashes|crashing|crashed|broken|regression|segfault|deadlock|leak|flaky|hangs|" +
			"doesn't work|does not work|not working|stack trace|traceback|times out|timed out"),
		leading: words("fix|debug|investigate|troubleshoot|diagnose|repair"),
		topics: words("fix|fixes|error|errors|exception|panic|panics|panicking|fail|fails|failing|failed|debug|" +
			"nil pointer|doesn't|won't|can't|cannot|anymore|any more|no longer|stopped working|is wrong|are wrong|the wrong|" +
			"something's wrong"),
		han:       []string{"修复", "崩溃", "报错", "闪退", "卡死", "死锁", "内存泄漏", "不工作", "坏了", "挂了", "修一下", "修好", "排查", "调试一下"},
		hanTopics: []string{"错误", "异常", "调试", "失败", "不显示", "不对", "不正确", "没反应", "不生效", "出问题", "有问题"},
	},
}
