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
// Chat runs as chat, an override runs as itself, and plain Smart asks the router. Nothing is
// carried over from earlier turns (R-MODE-2).
func Resolve(p Preference, text string) Decision {
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
	return Route(text)
}

// Route is the Smart router: a deterministic, stateless reading of one request (R-MODE-2).
// Rules are tried in priority order and the first that matches decides:
//
//  1. propose  — the person asked only for a proposal; this must win so it never mutates
//  2. verified — the person asked for proof (tests pass, verify)
//  3. plan     — a design, plan or architecture request
//  4. analyze  — a question or an explain/review request
//  5. debug    — a bug, crash, error or fix
//  6. execute  — anything else is an actionable request
//
// English is matched on whole words (so "explain" never matches "plan"); Chinese, which has no
// spaces, is matched on substrings.
func Route(text string) Decision {
	req := newRequest(text)
	for _, r := range routeRules {
		if match, ok := r.match(req); ok {
			return Decision{Mode: r.mode, ReasonKey: r.reasonKey, ReasonArgs: map[string]any{"Match": match}}
		}
	}
	return Decision{Mode: ModeExecute, ReasonKey: "route.reason.execute"}
}

// request is the text prepared once for every rule.
type request struct {
	raw   string
	words []string // lower-case English words, polite request openers removed
}

func newRequest(text string) request {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’') || unicode.Is(unicode.Han, r)
	})
	for i, w := range words {
		words[i] = strings.ReplaceAll(w, "’", "'")
	}
	return request{raw: strings.TrimSpace(text), words: stripOpeners(words)}
}

// openers turn a request into a question only grammatically ("can you fix…"); dropping them lets
// the rest of the sentence decide.
var openers = [][]string{{"can", "you"}, {"could", "you"}, {"would", "you"}, {"will", "you"}, {"please"}, {"pls"}, {"hey"}, {"ok"}, {"okay"}}

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
