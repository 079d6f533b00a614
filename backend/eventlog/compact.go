package eventlog

import "errors"

// TypeContextCompacted is the log type of a compaction.
const TypeContextCompacted = "context.compacted"

// ContextCompacted is the runtime summarising the oldest part of the model's history because
// the next request would not fit the model's context window: from this entry on, the model is
// sent Summary in place of what entries From through Through had put in its history (after the
// last /clear, a previous summary included), then everything after Through verbatim. The entries
// themselves stay in the log, so the transcript still shows them and a fork from before this
// entry continues from them word for word. Tokens are estimates of the history before and
// after, against the model's Window.
type ContextCompacted struct {
	TurnID       string `json:"turn_id,omitempty"`
	From         int64  `json:"from"`
	Through      int64  `json:"through"`
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
	Window       int    `json:"window"`
	// Reason is "threshold" (the estimate crossed the limit) or "overflow" (the model refused
	// the request as too long).
	Reason string `json:"reason,omitempty"`
}

// Reasons of a compaction.
const (
	CompactedThreshold = "threshold"
	CompactedOverflow  = "overflow"
)

func (ContextCompacted) LogType() string   { return TypeContextCompacted }
func (m ContextCompacted) visit(v Visitor) { v.ContextCompacted(m) }

func (m ContextCompacted) validate() error {
	if m.Through < 1 || m.From < 1 || m.From > m.Through {
		return errors.New("from and through must name a range of entries")
	}
	return required("summary", m.Summary)
}
