package server

import (
	"context"
	"strings"

	acp "github.com/coder/acp-go-sdk"

	"agentdesk/backend/agent"
	"agentdesk/backend/errs"
	"agentdesk/backend/store"
)

// PromptFailed is a turn that failed; the message carries the turn's error.
const PromptFailed errs.Kind = "ACP_PROMPT_FAILED"

// Prompt runs the message through the real runtime — it starts, steers or queues a turn like
// any other caller's — and answers when that turn has ended, after every update it caused.
func (s *Server) Prompt(ctx context.Context, req acp.PromptRequest) (acp.PromptResponse, error) {
	id := string(req.SessionId)
	if _, err := s.opts.Store.GetSession(id); err != nil {
		return acp.PromptResponse{}, s.fail(err)
	}
	s.attach(id)
	ended := make(chan agent.TurnEnded, 16)
	s.mu.Lock()
	s.waiters[id] = append(s.waiters[id], ended)
	s.mu.Unlock()
	defer s.unwait(id, ended)
	ack, err := s.opts.Runtime.Send(agent.Input{SessionID: id, Text: promptText(req.Prompt)})
	if err != nil {
		return acp.PromptResponse{}, s.fail(err)
	}
	if ack.Cleared {
		return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
	}
	te, err := s.await(ctx, id, ack, ended)
	if err != nil {
		return acp.PromptResponse{}, s.fail(err)
	}
	return s.answer(te)
}

// await waits for the end of the prompt's turn: the one started (or steered), or, for a
// queued message, the last turn the queue runs. A cancelled request cancels the turn and still
// waits for its end, which comes promptly (R-RUN-4).
func (s *Server) await(ctx context.Context, id string, ack agent.Ack, ended chan agent.TurnEnded) (agent.TurnEnded, error) {
	if ack.Queued {
		wctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		stop := context.AfterFunc(ctx, func() { s.opts.Runtime.Cancel(id) })
		defer stop()
		if err := s.opts.Runtime.Wait(wctx, id); err != nil {
			return agent.TurnEnded{}, err
		}
		s.out.flush()
		return s.lastTurn(id)
	}
	done := ctx.Done()
	for {
		select {
		case te := <-ended:
			if te.TurnID == ack.TurnID {
				return te, nil
			}
		case <-done:
			s.opts.Runtime.Cancel(id)
			done = nil
		}
	}
}

func (s *Server) lastTurn(id string) (agent.TurnEnded, error) {
	turns, err := s.opts.Store.Turns(id)
	if err != nil || len(turns) == 0 {
		return agent.TurnEnded{SessionID: id, Status: store.TurnDone}, err
	}
	t := turns[len(turns)-1]
	return agent.TurnEnded{SessionID: id, TurnID: t.ID, Status: t.Status, Error: t.Error}, nil
}

// answer maps how the turn ended onto ACP: done is end_turn, cancelled is cancelled, a turn
// stopped at its step limit is max_turn_requests, and a failure is an error carrying its text.
func (s *Server) answer(te agent.TurnEnded) (acp.PromptResponse, error) {
	switch te.Status {
	case store.TurnCancelled:
		if strings.HasPrefix(te.Error, string(agent.TooManySteps)+":") {
			return acp.PromptResponse{StopReason: acp.StopReasonMaxTurnRequests}, nil
		}
		return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
	case store.TurnFailed:
		return acp.PromptResponse{}, s.fail(errs.New(PromptFailed, "Error", te.Error))
	}
	return acp.PromptResponse{StopReason: acp.StopReasonEndTurn}, nil
}

// turnEnded runs on the outbox after every update the turn queued before it ended.
func (s *Server) turnEnded(te agent.TurnEnded) {
	s.mu.Lock()
	waiters := append([]chan agent.TurnEnded(nil), s.waiters[te.SessionID]...)
	s.mu.Unlock()
	for _, w := range waiters {
		select {
		case w <- te:
		default: // buffered for every turn a prompt can see; a full one has stopped reading
		}
	}
}

func (s *Server) unwait(id string, ch chan agent.TurnEnded) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := s.waiters[id]
	for i, w := range list {
		if w == ch {
			s.waiters[id] = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(s.waiters[id]) == 0 {
		delete(s.waiters, id)
	}
}
