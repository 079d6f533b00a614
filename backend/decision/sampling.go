package decision

import (
	"encoding/json"
	"slices"

	"agentdesk/backend/errs"
)

// A sampling request is an MCP server asking to use the person's model while one of its tools
// runs: the composer shows the exact prompt and which model would answer. The person allows it
// once, allows it for that server for the rest of the session, or denies it (with a reason).

// SamplingChoice is a button of the sampling composer.
type SamplingChoice string

const (
	SampleOnce   SamplingChoice = "allow_once"
	SampleServer SamplingChoice = "allow_server" // becomes a session grant for the server
	SampleDeny   SamplingChoice = "deny"
)

// samplingAllows are the choices that answer; SampleDeny is a rejection.
var samplingAllows = []SamplingChoice{SampleOnce, SampleServer}

// SamplingAnswer is the Answer of an allowed sampling request.
type SamplingAnswer struct {
	Choice SamplingChoice `json:"choice"`
}

// SamplingMessage is one message of the prompt, as text.
type SamplingMessage struct {
	Role string `json:"role"` // "user" or "assistant"
	Text string `json:"text"`
}

// SamplingPayload is what the sampling composer shows: whose request, the model that would
// answer, and the whole prompt.
type SamplingPayload struct {
	Server       string            `json:"server"`
	Tool         string            `json:"tool"`
	Model        string            `json:"model"`
	SystemPrompt string            `json:"systemPrompt"`
	Messages     []SamplingMessage `json:"messages"`
	MaxTokens    int               `json:"maxTokens"`
}

// Sampling builds the resolution of a sampling request: deny is a rejection with the person's
// reason; any other choice is an answer, checked (an unknown one leaves the decision pending).
func Sampling(c SamplingChoice, reason string) Resolution {
	if c == SampleDeny {
		return Resolution{Outcome: Rejected, Reason: reason}
	}
	return Resolution{Outcome: Answered, Answer: mustJSON(SamplingAnswer{Choice: c})}
}

// ParseSampling reads a sampling request's answer; a choice that does not allow is
// INVALID_VALUE (a denial is a rejection, not an answer).
func ParseSampling(raw json.RawMessage) (SamplingAnswer, error) {
	var a SamplingAnswer
	if err := decodeStrict(raw, &a, "choice"); err != nil {
		return a, err
	}
	if !slices.Contains(samplingAllows, a.Choice) {
		return a, errs.Invalid("choice", string(a.Choice), names(samplingAllows))
	}
	return a, nil
}
