package mode

import (
	"slices"
	"strings"
	"unicode"
)

// Decision is what a turn runs as and why. ReasonKey is a locale key; ReasonArgs fills its
// template (Match is the phrase that decided, when there was one).
type Decision struct {
	Mode       ExecutionMode
	ReasonKey  string
	ReasonArgs map[string]any
}

// Resolve decides the execution mode of one turn from the effective preference and the message:
// Chat runs as chat, an override runs as itself, and plain Smart asks the router. previous is the
// mode the session's previous turn resolved to ("" for none); only an explicit "carry on" reads
// it, so nothing inferred for an earlier turn is carried over otherwise (R-MODE-2).
func Resolve(p Preference, text string, previous ExecutionMode) Decision {
	switch {
	case p.Interaction == Chat:
		return Decision{Mode: ModeChat, ReasonKey: "route.reason.chat"}
	case p.Interaction != Smart:
		// Not a valid preference; read it as the decoders would, never wider.
		return Decision{Mode: ModeAnalyze, ReasonKey: "route.reason.unrecognized"}
	case p.Override.IsSet() && p.Override.Valid():
		return Decision{Mode: p.Override.ExecutionMode(), ReasonKey: "route.reason.override",
			ReasonArgs: map[string]any{"Mode": string(p.Override)}}
	case p.Override.IsSet():
		return Decision{Mode: ModeAnalyze, ReasonKey: "route.reason.unrecognized"}
	}
	return RouteAfter(text, previous)
}

// Route is the Smart router for a request with no previous turn (see RouteAfter).
func Route(text string) Decision { return RouteAfter(text, "") }

// RouteAfter is the Smart router: a deterministic reading of one request (R-MODE-2). Its only
// other input is the previous turn's resolved mode, which only a bare "carry on" uses. Rules are
// tried in the order of routeRules and the first that matches decides:
//
//  1. propose  — the person asked only for a proposal, or not to change anything; this must win
//     so such a request never mutates
//  2. chat     — the whole message is a greeting, thanks or small talk: it needs only an answer
//  3. carry on — the whole message is "carry on" / "继续": the previous turn's mode
//  4. verified — the person asked for proof (tests pass, verify)
//  5. plan     — a design, plan or architecture request
//  6. debug    — a question why something fails
//  7. analyze  — a listing or reading request that changes nothing, a question, or an
//     explain/review request
//  8. debug    — a bug, crash, error or fix
//  9. execute  — anything else is an actionable request
//
// A request that opens with a change verb ("change the log level to debug", "把……改成") is a
// change request: words that only name a topic ("debug", "error", "plan", "design") do not decide
// it; only phrases that state the task do.
//
// English is matched on whole words (so "explain" never matches "plan"); Chinese, which has no
// spaces, is matched on substrings.
func RouteAfter(text string, previous ExecutionMode) Decision {
	req := newRequest(text)
	for _, r := range routeRules {
		if match, ok := r.match(req); ok {
			if r.carry {
				return carryOn(previous, match)
			}
			return Decision{Mode: r.mode, ReasonKey: r.reasonKey, ReasonArgs: map[string]any{"Match": match}}
		}
	}
	return Decision{Mode: ModeExecute, ReasonKey: "route.reason.execute"}
}

// carryOn keeps the previous turn's mode. With no previous turn there is nothing to carry on, so
// the message needs only an answer; a stored mode that is not recognized reads as analyze.
func carryOn(previous ExecutionMode, match string) Decision {
	if previous == "" {
		return Decision{Mode: ModeChat, ReasonKey: "route.reason.continue_none", ReasonArgs: map[string]any{"Match": match}}
	}
	m, ok := DecodeExecutionMode(string(previous))
	if !ok {
		return Decision{Mode: ModeAnalyze, ReasonKey: "route.reason.unrecognized"}
	}
	return Decision{Mode: m, ReasonKey: "route.reason.continue", ReasonArgs: map[string]any{"Match": match, "Mode": string(m)}}
}

// request is the text prepared once for every rule.
type request struct {
	raw     string   // the text, trimmed
	all     []string // lower-case English words
	words   []string // all, polite request openers removed
	lead    []string // words, when the request opens with them (not after Chinese text)
	compact string   // lower-case text without spaces or punctuation ("好的，继续" → "好的继续")
	han     string   // compact, Chinese request openers removed
	polite  bool     // opened as a request ("can you…", "能不能…"): a question mark does not make it a question
	// changing: the request opens with a change verb (English) or names one (Chinese); words that
	// only name a topic do not decide it.
	changing bool
	// edits: a change verb appears anywhere, so a listing or reading verb does not make the request read-only.
	edits bool
}

func newRequest(text string) request {
	all := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("'’-_", r)) || unicode.Is(unicode.Han, r)
	})
	for i, w := range all {
		all[i] = strings.Trim(strings.ReplaceAll(w, "’", "'"), "'")
	}
	all = slices.DeleteFunc(all, func(w string) bool { return w == "" })
	words := stripOpeners(all)
	compact := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, text)
	han := stripHanOpeners(compact)
	req := request{raw: strings.TrimSpace(text), all: all, words: words, compact: compact, han: han,
		polite: slices.ContainsFunc(politeOpeners, func(o []string) bool { return hasPrefix(all, o) }) ||
			slices.ContainsFunc(hanPoliteOpeners, func(o string) bool { return strings.HasPrefix(compact, o) })}
	if r := firstRune(han); r == "" || !unicode.Is(unicode.Han, []rune(r)[0]) {
		req.lead = words
	}
	req.changing = len(req.lead) > 0 && changeVerbs[req.lead[0]] || containsAny(compact, hanChangeVerbs) || addsTo(han)
	req.edits = req.changing || slices.ContainsFunc(words, func(w string) bool { return changeVerbs[w] })
	return req
}

// addsTo reads the Chinese "把……", "给/为……加……": a change even without a listed verb.
func addsTo(han string) bool {
	if strings.HasPrefix(han, "把") {
		return true
	}
	if !strings.HasPrefix(han, "给") && !strings.HasPrefix(han, "为") || containsAny(han, []string{"给出", "给个", "给我", "给些", "给点"}) {
		return false
	}
	return strings.Contains(notAdding.Replace(han), "加")
}

// notAdding are words with 加 that add nothing: load, speed up, encrypt.
var notAdding = strings.NewReplacer("加载", "", "加速", "", "加密", "")

// openers turn a request into a question only grammatically ("can you fix…"); dropping them lets
// the rest of the sentence decide.
var openers = [][]string{{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"please"}, {"pls"}, {"hey"}, {"ok"}, {"okay"}}

// politeOpeners are the openers that ask for something to be done.
var politeOpeners = [][]string{{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"please"}, {"pls"}}

var hanPoliteOpeners = []string{"请", "麻烦", "能不能", "可不可以", "可以", "能否", "你能", "你可以", "能帮我"}

var hanOpeners = []string{"请你", "请", "麻烦你", "麻烦", "能不能", "可不可以", "可以", "能否", "你能", "你可以", "能帮我", "帮我", "帮忙"}

func stripOpeners(words []string) []string {
	for changed := true; changed; {
		changed = false
		for _, o := range openers {
			if hasPrefix(words, o) {
				words, changed = words[len(o):], true
			}
		}
	}
	return words
}

func stripHanOpeners(s string) string {
	for changed := true; changed; {
		changed = false
		for _, o := range hanOpeners {
			if strings.HasPrefix(s, o) {
				s, changed = s[len(o):], true
			}
		}
	}
	return s
}

func hasPrefix(words, prefix []string) bool {
	return len(words) >= len(prefix) && slices.Equal(words[:len(prefix)], prefix)
}

// containsPhrase reports whether phrase occurs as consecutive words.
func containsPhrase(words, phrase []string) bool {
	for i := 0; i+len(phrase) <= len(words); i++ {
		if hasPrefix(words[i:], phrase) {
			return true
		}
	}
	return false
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
