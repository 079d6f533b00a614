package mode

import "strings"

// routeRule is one line of the router's table.
type routeRule struct {
	mode      ExecutionMode
	reasonKey string
	phrases   [][]string // English phrases, matched anywhere as consecutive words
	leading   [][]string // English phrases that count only at the start of the request
	han       []string   // Chinese substrings
	question  bool       // also matches a request phrased as a question
	custom    func(request) (string, bool)
}

func (r routeRule) match(req request) (string, bool) {
	for _, p := range r.phrases {
		if containsPhrase(req.words, p) {
			return strings.Join(p, " "), true
		}
	}
	for _, p := range r.leading {
		if hasPrefix(req.words, p) {
			return strings.Join(p, " "), true
		}
	}
	for _, h := range r.han {
		if strings.Contains(req.raw, h) {
			return h, true
		}
	}
	if r.custom != nil {
		return r.custom(req)
	}
	if r.question && isQuestion(req.raw) {
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

// routeRules is the router's table, in priority order (see Route).
var routeRules = []routeRule{
	{
		mode: ModePropose, reasonKey: "route.reason.propose",
		phrases: words("only propose|just propose|propose a|propose changes|propose a fix|suggest a patch|" +
			"suggest a fix|suggest changes|suggest how|suggest some|only suggest|just suggest|" +
			"don't change|dont change|do not change|don't modify|dont modify|do not modify|" +
			"don't edit|dont edit|do not edit|don't touch|dont touch|do not touch|" +
			"don't apply|do not apply|without changing|without modifying|without editing|" +
			"no changes|proposal only|show me a diff|show me the diff"),
		han: []string{"只提建议", "只给建议", "提个建议", "给个建议", "给些建议", "给出建议", "提出建议", "不要修改", "不要改", "别改",
			"不要动", "别动", "不修改", "先别改", "只读", "给出补丁", "给个补丁", "建议一个补丁"},
	},
	{
		mode: ModeVerified, reasonKey: "route.reason.verified",
		phrases: words("verify|verified|make sure the tests pass|make sure tests pass|make sure all tests pass|" +
			"make sure it passes|make sure the build passes|ensure the tests pass|ensure tests pass|" +
			"ensure all tests pass|until the tests pass|until tests pass|until all tests pass|" +
			"tests still pass|and confirm it works|prove it works"),
		han: []string{"验证", "确保测试通过", "确保所有测试通过", "确保通过测试", "直到测试通过", "测试全部通过", "跑通测试", "确认测试通过"},
	},
	{
		mode: ModePlan, reasonKey: "route.reason.plan",
		phrases: words("design|plan|plan out|architecture|architect|roadmap|outline a|migration strategy|" +
			"how should we|how should i|what's the best way to structure|come up with an approach|step by step plan"),
		han: []string{"设计", "计划", "规划", "方案", "架构", "路线图", "思路"},
	},
	{
		mode: ModeAnalyze, reasonKey: "route.reason.analyze",
		leading: words("what|what's|whats|why|how|where|which|who|when|explain|describe|" +
			"summarize|summarise|tell me|walk me through|review|analyze|analyse|investigate why|help me understand"),
		phrases: words("explain|what does|how does|why does|why is|code review|overview of"),
		han: []string{"解释", "为什么", "是什么", "什么是", "怎么回事", "如何工作", "分析", "说明一下", "介绍一下", "总结", "哪里", "哪个",
			"讲讲", "看看这段", "审查", "评审"},
		question: true,
	},
	{
		mode: ModeDebug, reasonKey: "route.reason.debug",
		phrases: words("bug|bugs|fix|fixes|crash|crashes|crashing|error|errors|exception|panic|panics|failing|fails|" +
			"failed|broken|debug|stack trace|traceback|doesn't work|does not work|not working|regression|" +
			"segfault|flaky|hangs|deadlock|leak"),
		han: []string{"修复", "崩溃", "报错", "错误", "异常", "调试", "失败", "不工作", "修一下", "修好", "闪退", "卡死", "死锁", "内存泄漏", "排查"},
	},
}
