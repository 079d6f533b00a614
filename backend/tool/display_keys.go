package tool

// DisplayKeys lists every key a tool's Message may carry, for the test that each has a message
// in every language.
var DisplayKeys = []string{
	"tool.result.write.created", "tool.result.write.replaced", "tool.result.edit.done",
	"tool.result.glob.none", "tool.result.glob.more", "tool.result.grep.none", "tool.result.grep.more",
	"tool.result.read.empty", "tool.result.read.partial",
	"tool.result.bash.exit", "tool.result.bash.exitNoOutput", "tool.result.bash.timedOut", "tool.result.bash.timedOutNoOutput",
	"tool.result.bash.ended", "tool.result.bash.endedNoOutput",
	"tool.result.ask.answered", "tool.result.ask.chose", "tool.result.ask.none", "tool.result.ask.declined",
	"tool.result.plan.approved", "tool.result.plan.approvedNote", "tool.result.plan.keepPlanning",
	"tool.result.plan.keepPlanningSilent", "tool.result.plan.declined", "tool.result.noReason", "tool.result.notRun",
}
