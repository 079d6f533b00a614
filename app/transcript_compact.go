package app

import "agentdesk/backend/eventlog"

// CompactedItem is a compaction as the transcript shows it: the entries the model now reads as
// a summary, the summary itself and the estimates of the history before and after.
type CompactedItem struct {
	From         int64  `json:"from"`
	Through      int64  `json:"through"`
	Summary      string `json:"summary"`
	TokensBefore int    `json:"tokensBefore"`
	TokensAfter  int    `json:"tokensAfter"`
	Window       int    `json:"window"`
	Reason       string `json:"reason,omitempty"`
}

func (tl *timelineReader) ContextCompacted(c eventlog.ContextCompacted) {
	tl.add(Item{Type: "compacted", TurnID: c.TurnID, Compacted: &CompactedItem{From: c.From, Through: c.Through, Summary: c.Summary,
		TokensBefore: c.TokensBefore, TokensAfter: c.TokensAfter, Window: c.Window, Reason: c.Reason}})
}
