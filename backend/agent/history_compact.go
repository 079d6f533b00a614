package agent

import (
	"sort"

	"agentdesk/backend/eventlog"
	"agentdesk/backend/provider"
)

// A compaction (compact.go) replaces the oldest part of the model history with a summary. The
// history notes at which log entry each message began, so a context.compacted entry, naming the
// last entry it summarised, cuts the history at the same message whether it is read live or
// rebuilt from the log after a restart.

// summaryIntro leads the summary as the model reads it. Model-facing, so English and here.
const summaryIntro = "[The earlier part of this conversation was summarised to fit the model's context window. Summary:]\n\n"

// walk hands records to h in order, noting the entry each new message began at.
func (h *history) walk(log []eventlog.Record) {
	for i := range log {
		eventlog.Walk(log[i:i+1], h)
		h.origin = h.origin[:min(len(h.origin), len(h.msgs))] // a /clear emptied the history
		for len(h.origin) < len(h.msgs) {
			h.origin = append(h.origin, log[i].Seq)
		}
	}
}

// ContextCompacted puts the summary in place of every message that began at or before entry
// Through; what began after it stays word for word.
func (h *history) ContextCompacted(c eventlog.ContextCompacted) {
	k := sort.Search(len(h.origin), func(i int) bool { return h.origin[i] > c.Through })
	for _, m := range h.msgs[:k] {
		for _, call := range m.ToolCalls {
			delete(h.open, call.ID)
		}
	}
	kept, keptOrigin := h.msgs[k:], h.origin[k:]
	if len(kept) > 0 && kept[0].Role == provider.RoleUser && len(kept[0].ToolResults) > 0 {
		// Results of calls the summary took away; a cut the runtime makes never leaves them,
		// only a log written by hand does.
		first := kept[0]
		first.ToolResults = nil
		kept = append([]provider.Message{first}, kept[1:]...)
	}
	summary := provider.Message{Role: provider.RoleUser, Text: summaryIntro + c.Summary}
	origin := c.Through
	if len(kept) > 0 && kept[0].Role == provider.RoleUser {
		// The message after the cut is the person's: one user message, so turns keep alternating.
		if kept[0].Text != "" {
			summary.Text += "\n\n" + kept[0].Text
		}
		origin, kept, keptOrigin = keptOrigin[0], kept[1:], keptOrigin[1:]
	}
	h.msgs = append([]provider.Message{summary}, kept...)
	h.origin = append([]int64{origin}, keptOrigin...)
	h.from = c.From
}

// cut is a planned compaction: messages before At are summarised, entries From through Through.
type cut struct {
	At            int
	From, Through int64
}

// plan picks where to cut: the earliest point whose remainder fits keep tokens, else the latest
// point there is, so the most recent turns stay verbatim. A cut lands only before an assistant
// message or a message of the person's own, never between a call and its result. It fails when
// the history has no such point after its first message.
func (h *history) plan(keep int) (cut, bool) {
	tail := make([]int, len(h.msgs)+1)
	for i := len(h.msgs) - 1; i >= 0; i-- {
		tail[i] = tail[i+1] + messageTokens(h.msgs[i])
	}
	best := -1
	for k := 1; k < len(h.msgs); k++ {
		if !h.cuttable(k) {
			continue
		}
		best = k
		if tail[k] <= keep {
			break
		}
	}
	if best < 0 {
		return cut{}, false
	}
	from := h.from
	if from == 0 {
		from = h.origin[0]
	}
	return cut{At: best, From: from, Through: h.origin[best] - 1}, true
}

func (h *history) cuttable(k int) bool {
	if h.origin[k-1] >= h.origin[k] {
		return false // both came from one entry: the cut could not be found again from the log
	}
	m := h.msgs[k]
	return m.Role == provider.RoleAssistant || len(m.ToolResults) == 0
}

// Token estimates: about four bytes a token, the rule of thumb for English and code, plus a
// little per message and per part for the framing every vendor adds.
const (
	bytesPerToken = 4
	partTokens    = 4
)

func textTokens(s string) int { return sizeTokens(len(s)) }

func sizeTokens(n int) int { return (n + bytesPerToken - 1) / bytesPerToken }

func messageTokens(m provider.Message) int {
	n := partTokens + textTokens(m.Text)
	for _, c := range m.ToolCalls {
		n += partTokens + textTokens(c.Name) + sizeTokens(len(c.Input))
	}
	for _, r := range m.ToolResults {
		n += partTokens + textTokens(r.Content)
	}
	return n
}

func requestTokens(req provider.Request) int {
	n := textTokens(req.System)
	for _, m := range req.Messages {
		n += messageTokens(m)
	}
	for _, t := range req.Tools {
		n += partTokens + textTokens(t.Name) + textTokens(t.Description) + sizeTokens(len(t.InputSchema))
	}
	return n
}

// usage is the vendor's count for the last request next to the estimate of the same request,
// so the next estimate can be corrected by what the model really counted.
type usage struct {
	reported, estimated int
}

// observe keeps what the model reported for req and its answer (nothing when it reported none).
func (c *conversation) observe(req provider.Request, resp provider.Response) {
	if resp.Usage.InputTokens <= 0 {
		c.usage = usage{}
		return
	}
	answer := provider.Message{Role: provider.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls}
	c.usage = usage{reported: int(resp.Usage.InputTokens + resp.Usage.OutputTokens), estimated: requestTokens(req) + messageTokens(answer)}
}

// tokens estimates req: bytes over four, raised by how much more the model counted last time
// than that rule said (what was added since is estimated by the rule).
func (c *conversation) tokens(req provider.Request) int {
	n := requestTokens(req)
	if c.usage.reported > c.usage.estimated {
		n += c.usage.reported - c.usage.estimated
	}
	return n
}
