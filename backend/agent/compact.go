package agent

import (
	"errors"
	"fmt"
	"strings"

	"agentdesk/backend/errs"
	"agentdesk/backend/eventlog"
	"agentdesk/backend/provider"
)

// A conversation that outgrows the model's context window is compacted rather than failed: the
// same provider summarises the oldest part of the history, the summary is recorded as a
// context.compacted entry, and from then on the model reads the summary and the recent turns
// verbatim (history_compact.go). The log keeps every entry, so a fork from before the
// compaction continues from the original words.

// Error kinds of compaction.
const (
	// ContextTooLong: even after summarising, the conversation does not fit. Args: Window, Tokens.
	ContextTooLong errs.Kind = "CONTEXT_TOO_LONG"
	// SummaryEmpty: the model answered the summary request with nothing.
	SummaryEmpty errs.Kind = "CONTEXT_SUMMARY_EMPTY"
)

// EventCompacted is broadcast when a compaction was recorded, so open windows reload the
// transcript and show it.
const EventCompacted = "session.compacted"

// CompactedView is the payload of session.compacted.
type CompactedView struct {
	SessionID string `json:"sessionId"`
	TurnID    string `json:"turnId"`
	Seq       int64  `json:"seq"`
	From      int64  `json:"from"`
	Through   int64  `json:"through"`
	Summary   string `json:"summary"`
}

// The budget, as fractions of the window: a request past compactAt is compacted; what stays
// verbatim is at most keepShare of it (keepOnOverflow when the model refused a request the
// estimate let through, so the estimate was low); the summary may take summaryShare.
const (
	compactAt      = 0.8
	keepShare      = 0.3
	keepOnOverflow = 0.15
	summaryShare   = 0.125
	maxSummary     = 4096
	// summaryInputShare bounds one summary request's conversation text; a longer prefix is
	// summarised in parts, each with the summary so far.
	summaryInputShare = 0.5
	// maxPart caps one message part as the summary request quotes it (head and tail kept).
	maxPart = 6000
)

// keepBudget is how many tokens of messages may stay verbatim: share of the window, less when
// the system prompt and the tools take so much that the rest would cross the threshold again.
func keepBudget(req provider.Request, window int, share float64) int {
	fixed := req
	fixed.Messages = nil
	room := int(compactAt*float64(window)) - requestTokens(fixed) - summaryTokens(window)
	return max(0, min(int(share*float64(window)), room))
}

// summaryTokens is how long a summary may be.
func summaryTokens(window int) int {
	return min(maxSummary, max(256, int(summaryShare*float64(window))))
}

// reserve is what a request leaves of the window for the answer.
func reserve(window int) int { return min(8192, window/4) }

// fit compacts the history when req would take more than compactAt of the window.
func (t *turn) fit(req provider.Request) (provider.Request, error) {
	if t.prov == nil {
		return req, nil // no model chosen yet, so no window to measure against
	}
	window := provider.WindowOf(t.prov)
	if t.history.tokens(req) <= int(compactAt*float64(window)) {
		return req, nil
	}
	return t.compact(req, window, eventlog.CompactedThreshold)
}

// stream sends req; when the model refuses it as too long, the history is compacted and the
// request sent once more. A second refusal fails the turn with CONTEXT_TOO_LONG.
func (t *turn) stream(req provider.Request, emit func(provider.Event)) (provider.Response, error) {
	resp, err := t.prov.Stream(t.ctx, req, emit)
	if overflowed(err) {
		window := provider.WindowOf(t.prov)
		if req, err = t.compact(req, window, eventlog.CompactedOverflow); err != nil {
			return resp, err
		}
		if resp, err = t.prov.Stream(t.ctx, req, emit); overflowed(err) {
			return resp, errs.Wrap(ContextTooLong, err, "Window", window, "Tokens", t.history.tokens(req))
		}
	}
	if err == nil {
		t.history.observe(req, resp)
	}
	return resp, err
}

func overflowed(err error) bool {
	var e *errs.Error
	return errors.As(err, &e) && e.Kind == provider.ContextOverflow
}

// compact summarises the oldest part of the history, records it, and returns req with the
// history as the model reads it from now on.
func (t *turn) compact(req provider.Request, window int, reason string) (provider.Request, error) {
	before := t.history.tokens(req)
	keep := keepShare
	if reason == eventlog.CompactedOverflow {
		keep = keepOnOverflow
	}
	h := t.history.h
	c, ok := h.plan(keepBudget(req, window, keep))
	if !ok {
		return req, errs.New(ContextTooLong, "Window", window, "Tokens", before)
	}
	summary, err := t.summarise(h.msgs[:c.At], window)
	if err != nil {
		return req, err
	}
	dropped := 0
	for _, m := range h.msgs[:c.At] {
		dropped += messageTokens(m)
	}
	after := before - dropped + textTokens(summaryIntro+summary) + partTokens
	ev := eventlog.ContextCompacted{TurnID: t.active.turnID, From: c.From, Through: c.Through, Summary: summary,
		TokensBefore: before, TokensAfter: after, Window: window, Reason: reason}
	// Written at once, on its own: the history read next must find it in the log.
	row, err := t.rt.opts.Store.AppendStep(t.sessionID, ev)
	if err != nil {
		return req, err
	}
	t.rt.opts.Publish(EventCompacted, CompactedView{SessionID: t.sessionID, TurnID: t.active.turnID, Seq: row.Seq,
		From: c.From, Through: c.Through, Summary: summary})
	if req.Messages, err = t.history.messages(t.rt.opts.Store, t.sessionID); err != nil {
		return req, err
	}
	t.history.usage = usage{}
	if n := t.history.tokens(req); n > window-reserve(window) {
		return req, errs.New(ContextTooLong, "Window", window, "Tokens", n)
	}
	return req, nil
}

// summarise asks the turn's provider for a summary of msgs: in one request when they fit its
// share of the window, else part by part, each part with the summary so far.
func (t *turn) summarise(msgs []provider.Message, window int) (string, error) {
	out := summaryTokens(window)
	budget := max(1, int(summaryInputShare*float64(window))-out)
	summary := ""
	for _, part := range boundParts(splitTranscript(msgs, budget)) {
		req := provider.Request{System: summarySystem, MaxTokens: out,
			Messages: []provider.Message{{Role: provider.RoleUser, Text: summaryPrompt(summary, part)}}}
		resp, err := t.prov.Stream(t.ctx, req, nil)
		if err != nil {
			if overflowed(err) {
				return "", errs.Wrap(ContextTooLong, err, "Window", window, "Tokens", requestTokens(req))
			}
			return "", err
		}
		if summary = strings.TrimSpace(resp.Text); summary == "" {
			return "", errs.New(SummaryEmpty)
		}
	}
	return summary, nil
}

// The summary request. Model-facing, so English and here rather than in locales/.
const summarySystem = "You summarise a conversation between a person and an AI coding agent, so that the agent can continue the work from your summary alone, without the original messages."

func summaryPrompt(soFar, part string) string {
	var b strings.Builder
	b.WriteString("Summarise the conversation below so the agent can carry on from the summary alone. Keep the person's requests " +
		"and preferences (in their words where it matters), the decisions made, the files read or changed (with paths) and " +
		"what changed in them, the commands run and their outcomes, errors met and how they were resolved, and what remains " +
		"to be done. Be concise and factual; invent nothing. Answer with the summary only.\n\n")
	if soFar != "" {
		fmt.Fprintf(&b, "<summary_so_far>\n%s\n</summary_so_far>\n\nThe conversation continues; fold it into one summary.\n\n", soFar)
	}
	fmt.Fprintf(&b, "<conversation>\n%s</conversation>", part)
	return b.String()
}

// maxSummaryParts bounds the summary requests of one compaction: a history far beyond the
// window (a long session opened with a smaller model) keeps its first part, where the task was
// set, and its latest ones, and says what was left out between them.
const maxSummaryParts = 8

func boundParts(parts []string) []string {
	if len(parts) <= maxSummaryParts {
		return parts
	}
	left := len(parts) - maxSummaryParts
	gap := fmt.Sprintf("[… %d more parts of the conversation are left out here …]\n\n", left)
	return append([]string{parts[0] + gap}, parts[len(parts)-maxSummaryParts+1:]...)
}

// splitTranscript renders msgs as plain text for the summary request, in parts of at most
// budget tokens (a part holds at least one message).
func splitTranscript(msgs []provider.Message, budget int) []string {
	var parts []string
	var b strings.Builder
	for _, m := range msgs {
		text := renderMessage(m)
		if b.Len() > 0 && textTokens(b.String()+text) > budget {
			parts = append(parts, b.String())
			b.Reset()
		}
		b.WriteString(text)
	}
	if b.Len() > 0 {
		parts = append(parts, b.String())
	}
	return parts
}

func renderMessage(m provider.Message) string {
	var b strings.Builder
	for _, r := range m.ToolResults {
		status := "result"
		if r.IsError {
			status = "error"
		}
		fmt.Fprintf(&b, "[tool %s of %s %s]\n%s\n\n", status, r.Name, r.CallID, capPart(r.Content))
	}
	if m.Text != "" {
		who := "Person"
		if m.Role == provider.RoleAssistant {
			who = "Agent"
		}
		fmt.Fprintf(&b, "%s: %s\n\n", who, capPart(m.Text))
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(&b, "[agent calls %s %s] %s\n\n", c.Name, c.ID, capPart(string(c.Input)))
	}
	return b.String()
}

// capPart keeps the head and the tail of a long part: the summary needs its gist, not all of it.
func capPart(s string) string {
	if len(s) <= maxPart {
		return s
	}
	half := maxPart / 2
	return strings.ToValidUTF8(s[:half]+fmt.Sprintf("\n[… %d bytes left out …]\n", len(s)-2*half)+s[len(s)-half:], "")
}
