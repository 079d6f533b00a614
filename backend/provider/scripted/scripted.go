// Package scripted is a provider that replays a JSON script instead of calling a model: one
// scripted response per Stream call, in order. It drives tests and the offline demo.
package scripted

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"agentdesk/backend/errs"
	"agentdesk/backend/provider/llm"
)

// Name is the provider's name.
const Name = "scripted"

// Provider replays one script. It is safe for concurrent use: each Stream call takes the next
// response exactly once. A script that branches (see branch.go) follows the conversation of
// one session, so such a provider serves one session.
type Provider struct {
	file      string
	responses []response
	window    int

	mu    sync.Mutex
	next  int
	last  int               // the response played last, -1 before the first
	calls []string          // the ids of its tool calls, as played
	plays []int             // how often each response was played
	vars  map[string]string // the script's variables so far
}

// Load reads the script at path.
func Load(path string) (*Provider, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return FromBytes(path, data)
}

// FromBytes builds a provider from script text (an embedded demo script, say); name stands for
// the file in error messages.
func FromBytes(name string, data []byte) (*Provider, error) {
	responses, vars, window, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	if vars == nil {
		vars = map[string]string{}
	}
	if window == 0 {
		window = unbounded
	}
	return &Provider{file: name, responses: responses, last: -1, plays: make([]int, len(responses)), vars: vars, window: window}, nil
}

// unbounded is the window of a script that names none: more than any conversation holds.
const unbounded = 1 << 40

// ContextWindow implements llm.Windowed: the script's context_window, else unbounded.
func (p *Provider) ContextWindow() int { return p.window }

// Name implements provider.Provider.
func (p *Provider) Name() string { return Name }

// Len is how many responses the script has.
func (p *Provider) Len() int { return len(p.responses) }

// Used is how many responses Stream calls have taken so far.
func (p *Provider) Used() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.next
}

// Stream replays the next response: it waits delay_ms, emits the text word by word (no faster
// than bytes_per_s, when given), fails if the response carries an error, and otherwise emits each
// tool call. The request is read only where the previous response branches on it (a recorder
// around this provider keeps it).
func (p *Provider) Stream(ctx context.Context, req llm.Request, emit func(llm.Event)) (llm.Response, error) {
	if err := ctx.Err(); err != nil {
		return llm.Response{}, err
	}
	r, err := p.take(req)
	if err != nil {
		return llm.Response{}, err
	}
	if err := sleep(ctx, time.Duration(r.DelayMS)*time.Millisecond); err != nil {
		return llm.Response{}, err
	}
	return play(ctx, r, llm.Emitter(emit))
}

// take hands out the next response — the one the last response's rules point to, else the
// next in the file — with its variables filled in, or SCRIPT_EXHAUSTED once every one was used.
func (p *Provider) take(req llm.Request) (response, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.last < 0 {
		p.next = min(resumedAt(req), len(p.responses))
	}
	if p.last >= 0 {
		if to, ok := follow(p.responses[p.last], p.calls, req, p.vars); ok {
			p.next = to
		}
	}
	if p.next >= len(p.responses) {
		return response{}, errs.New(llm.ScriptExhausted, "File", p.file, "Count", len(p.responses))
	}
	r := p.played(p.next)
	p.last = p.next
	p.next++
	return r, nil
}

// resumedAt is where a new process picks up the script: at the start, unless its first request
// goes on with a step a stopped process began (its last message answers tool calls: a turn taken
// up after a restart), where each answer the conversation holds stands for a response played.
func resumedAt(req llm.Request) int {
	n := len(req.Messages)
	if n == 0 || len(req.Messages[n-1].ToolResults) == 0 || req.Messages[n-1].Text != "" {
		return 0
	}
	played := 0
	for _, m := range req.Messages {
		if m.Role == llm.RoleAssistant {
			played++
		}
	}
	return played
}

// played is response i as it is played now: variables filled in, and tool call ids made unique
// when the response is played again (a branch back), since one conversation cannot hold one id
// twice.
func (p *Provider) played(i int) response {
	p.plays[i]++
	r := p.responses[i]
	r.Text = expand(r.Text, p.vars)
	r.ToolCalls = append([]toolCall(nil), r.ToolCalls...)
	p.calls = p.calls[:0]
	for j := range r.ToolCalls {
		c := &r.ToolCalls[j]
		if p.plays[i] > 1 {
			c.ID += "_" + strconv.Itoa(p.plays[i])
		}
		c.Input = expandInput(c.Input, p.vars)
		p.calls = append(p.calls, c.ID)
	}
	return r
}

func play(ctx context.Context, r response, emit func(llm.Event)) (llm.Response, error) {
	var out llm.Response
	// The answer grows by its pieces in a builder: a string added to piece by piece copies all of
	// it each time, and for a long answer that copying was nearly all a scripted turn's work.
	var text strings.Builder
	pace := pacer{perSecond: r.BytesPerS, start: time.Now()}
	for _, piece := range words(r.Text) {
		if err := pace.wait(ctx, text.Len()); err != nil {
			out.Text = text.String()
			return out, err
		}
		text.WriteString(piece)
		emit(llm.Event{Kind: llm.EventTextDelta, Text: piece})
	}
	out.Text = text.String()
	if r.Error != "" {
		return out, llm.StreamError(Name, r.Error, "")
	}
	for _, c := range r.ToolCalls {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		// A copy per call, so a consumer that edits the input cannot change the script.
		call := llm.ToolCall{ID: c.ID, Name: c.Name, Input: bytes.Clone(c.Input)}
		out.ToolCalls = append(out.ToolCalls, call)
		emit(llm.Event{Kind: llm.EventToolCall, Call: &call})
	}
	out.StopReason = llm.StopEndTurn
	if len(out.ToolCalls) > 0 {
		out.StopReason = llm.StopToolUse
	}
	return out, nil
}

// words splits text after each run of white space, so the pieces join back to the exact text
// and the UI sees a stream the way a real model sends it.
func words(text string) []string {
	var out []string
	start, inSpace := 0, false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if inSpace && !space {
			out = append(out, text[start:i])
			start = i
		}
		inSpace = space
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// sleep waits d or until ctx is done, returning ctx's error in that case.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pacer holds a text back to a rate, as a model's stream comes: it sleeps only once the text sent
// is a few milliseconds ahead of the rate, not for each word.
type pacer struct {
	perSecond int
	start     time.Time
}

const paceSlack = 4 * time.Millisecond

// wait returns once sent bytes are due at the rate (at once with no rate), or the context ends.
func (p pacer) wait(ctx context.Context, sent int) error {
	if p.perSecond <= 0 {
		return ctx.Err()
	}
	due := p.start.Add(time.Duration(int64(sent) * int64(time.Second) / int64(p.perSecond)))
	if ahead := time.Until(due); ahead > paceSlack {
		return sleep(ctx, ahead)
	}
	return ctx.Err()
}
