package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/display"
	"agentdesk/backend/errs"
	"agentdesk/backend/hunk"
	"agentdesk/backend/mode"
	"agentdesk/backend/policy"
	"agentdesk/backend/tool"
)

// Review before apply (Settings, Ask permission only): a write or an edit the gate asks about
// is staged in the checkpoint store and its approval shows the change hunk by hunk. The person
// accepts or rejects each; what they accepted is applied to the file, and the model hears in
// the same turn which hunks were rejected and why, as the call's error.

// PartiallyApplied starts the result of a staged change the person accepted only in part.
const PartiallyApplied errs.Kind = "PARTIALLY_APPLIED"

// staging is a call's change held for review, and the person's verdicts once answered.
type staging struct {
	review   decision.StagedReview
	path     string
	accepted []int
	rejected []decision.HunkVerdict
}

// stage prepares the approval of a write or an edit for review before apply, when Settings ask
// for it. A change that cannot be shown as hunks (binary, too large) is approved whole.
func (t *turn) stage(g *gated, p *decision.ApprovalPayload) {
	if p.Change == nil || p.Change.Omitted != "" || !t.reviewsBeforeApply(g) {
		return
	}
	hunks := hunk.Diff(p.Change.Before, p.Change.After)
	if len(hunks) == 0 {
		return
	}
	var base []byte
	if !p.Change.Created {
		base = []byte(p.Change.Before)
	}
	st, err := t.rt.opts.Checkpoints.Stage(checkpoint.Staged{SessionID: t.sessionID, TurnID: t.active.turnID, CallID: g.call.ID,
		Path: g.resolved.Target.Rel}, base, []byte(p.Change.After))
	if err != nil {
		return // not kept, so not staged: the approval stays all or nothing
	}
	g.staged = &staging{review: decision.StagedReview{StagedID: st.ID, Hunks: hunks}, path: p.Change.Path}
	p.Review = &g.staged.review
}

// reviewsBeforeApply: Settings ask for it, the session is in Ask, and the call writes or
// edits a file inside the workspace.
func (t *turn) reviewsBeforeApply(g *gated) bool {
	k := g.desc.Gate.Kind
	if t.rt.opts.Checkpoints == nil || (k != policy.KindWrite && k != policy.KindEdit) || !g.resolved.Target.Inside {
		return false
	}
	cs, err := t.rt.opts.Store.CheckpointSettings()
	if err != nil || !cs.ReviewBeforeApply {
		return false
	}
	sess, err := t.rt.opts.Store.GetSession(t.sessionID)
	if err != nil {
		return false
	}
	perm, _ := sess.Permission()
	return perm == policy.Ask
}

// takeVerdicts reads the person's verdicts on the hunks; every hunk rejected is a rejection of
// the call with their reasons.
func (s *staging) takeVerdicts(vs []decision.HunkVerdict) error {
	rejected := map[int]decision.HunkVerdict{}
	for _, v := range vs {
		if v.Hunk >= len(s.review.Hunks) {
			return errs.Invalid("hunk", fmt.Sprint(v.Hunk), []string{fmt.Sprintf("0–%d", len(s.review.Hunks)-1)})
		}
		if !v.Accept {
			rejected[v.Hunk] = v
		}
	}
	for i := range s.review.Hunks {
		if v, ok := rejected[i]; ok {
			s.rejected = append(s.rejected, v)
		} else {
			s.accepted = append(s.accepted, i)
		}
	}
	if len(s.accepted) == 0 {
		return errs.New(policy.RejectedByUser, "Reason", s.reasons())
	}
	return nil
}

// partial reports a change the person accepted only in part.
func (s *staging) partial() bool { return s != nil && len(s.rejected) > 0 }

// reasons are the person's reasons for the rejected hunks, one a line.
func (s *staging) reasons() string {
	var lines []string
	for _, v := range s.rejected {
		if r := strings.TrimSpace(v.Reason); r != "" {
			lines = append(lines, fmt.Sprintf("hunk %d: %s", v.Hunk+1, r))
		}
	}
	return strings.Join(lines, "\n")
}

// runPartial applies only the accepted hunks, on the file as it is now, through the write tool
// at the target the gate resolved; the result is an error naming what was rejected.
func (t *turn) runPartial(g *gated, env tool.Env) (tool.Result, error) {
	now := t.preview(g)
	if now == nil || now.Omitted != "" {
		return tool.Result{}, errs.New(hunk.Conflict, "Hunk", g.staged.rejected[0].Hunk+1)
	}
	merged, err := hunk.Apply(now.Before, g.staged.review.Hunks, g.staged.accepted, false)
	if err != nil {
		return tool.Result{}, err
	}
	w, ok := t.rt.opts.Tools.Get(mode.ToolWrite)
	if !ok {
		return tool.Result{}, errs.New(UnknownTool, "Tool", string(mode.ToolWrite))
	}
	input, err := json.Marshal(map[string]string{"path": now.Path, "content": merged})
	if err != nil {
		return tool.Result{}, errs.Wrap(errs.Internal, err)
	}
	if _, err := w.Run(t.ctx, env, input); err != nil {
		return tool.Result{}, err
	}
	s := g.staged
	return tool.Result{Output: s.partialText(), IsError: true,
		Display: display.Say("tool.result.partial", "Path", s.path, "Applied", len(s.accepted), "Total", len(s.review.Hunks))}, nil
}

// partialText tells the model what of its change landed and what the person rejected, why.
func (s *staging) partialText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: the person reviewed your change to %s hunk by hunk and applied %d of its %d hunks. They rejected:\n",
		PartiallyApplied, s.path, len(s.accepted), len(s.review.Hunks))
	var idx []int
	for _, v := range s.rejected {
		idx = append(idx, v.Hunk)
	}
	fmt.Fprintf(&b, "```diff\n%s```\n", hunk.Patch(s.path, s.review.Hunks, idx))
	if r := s.reasons(); r != "" {
		fmt.Fprintf(&b, "Their reasons:\n%s\n", r)
	}
	b.WriteString("The file now has only the hunks they accepted; read it before changing it again.")
	return b.String()
}
