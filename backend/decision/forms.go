package decision

// Form is what a kind's decision carries both ways, as zero values: the payload the composer
// shows (Decision.Payload) and the answer it sends back (Resolution.Answer).
type Form struct {
	Payload Payload
	Answer  any
}

// Forms is every kind's payload and answer type. Both travel as json.RawMessage, so the contract
// generator (build/gents) reads this table to type the page's decision cards; its test fails
// when a kind has no form, or a payload that is not the one its decoder reads.
func Forms() map[Kind]Form {
	return map[Kind]Form{
		KindQuestion:    {QuestionPayload{}, QuestionAnswer{}},
		KindApproval:    {ApprovalPayload{}, ApprovalAnswer{}},
		KindPlanReview:  {PlanPayload{}, PlanAnswer{}},
		KindElicitation: {ElicitationPayload{}, ElicitationAnswer{}},
		KindSampling:    {SamplingPayload{}, SamplingAnswer{}},
		KindContinue:    {ContinuePayload{}, ContinueAnswer{}},
	}
}
