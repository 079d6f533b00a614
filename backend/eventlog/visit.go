package eventlog

// Visitor receives a log's entries in order, one method per type. Unreadable has no default: a
// reader that embeds Ignore for the types it does not need must still say what an entry it
// cannot read becomes.
type Visitor interface {
	UserMessage(UserMessage)
	AssistantMessage(AssistantMessage)
	QueuedMessage(QueuedMessage)
	ToolResult(ToolResult)
	DirectTool(DirectTool)
	ContextCleared(ContextCleared)
	ModeSet(ModeSet)
	PermissionSet(PermissionSet)
	Checkpoint(Checkpoint)
	Restore(Restore)
	Review(Review)
	ContextCompacted(ContextCompacted)
	WorktreeCopied(WorktreeCopied)
	WorktreeSetup(WorktreeSetup)
	Unreadable(Unreadable)
}

// Walk hands every record to v, in order.
func Walk(log []Record, v Visitor) {
	for _, r := range log {
		r.Payload.visit(v)
	}
}

// Ignore is embedded by readers that need only some types; it deliberately has no Unreadable.
type Ignore struct{}

func (Ignore) UserMessage(UserMessage)           {}
func (Ignore) AssistantMessage(AssistantMessage) {}
func (Ignore) QueuedMessage(QueuedMessage)       {}
func (Ignore) ToolResult(ToolResult)             {}
func (Ignore) DirectTool(DirectTool)             {}
func (Ignore) ContextCleared(ContextCleared)     {}
func (Ignore) ModeSet(ModeSet)                   {}
func (Ignore) PermissionSet(PermissionSet)       {}
func (Ignore) Checkpoint(Checkpoint)             {}
func (Ignore) Restore(Restore)                   {}
func (Ignore) Review(Review)                     {}
func (Ignore) ContextCompacted(ContextCompacted) {}
func (Ignore) WorktreeCopied(WorktreeCopied)     {}
func (Ignore) WorktreeSetup(WorktreeSetup)       {}

func (m UserMessage) visit(v Visitor)      { v.UserMessage(m) }
func (m AssistantMessage) visit(v Visitor) { v.AssistantMessage(m) }
func (m QueuedMessage) visit(v Visitor)    { v.QueuedMessage(m) }
func (m ToolResult) visit(v Visitor)       { v.ToolResult(m) }
func (m DirectTool) visit(v Visitor)       { v.DirectTool(m) }
func (m ContextCleared) visit(v Visitor)   { v.ContextCleared(m) }
func (m ModeSet) visit(v Visitor)          { v.ModeSet(m) }
func (m PermissionSet) visit(v Visitor)    { v.PermissionSet(m) }
func (m Unreadable) visit(v Visitor)       { v.Unreadable(m) }
