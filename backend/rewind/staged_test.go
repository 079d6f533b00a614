package rewind_test

import (
	"encoding/json"
	"strings"
	"testing"

	"agentdesk/backend/checkpoint"
	"agentdesk/backend/decision"
	"agentdesk/backend/store"
)

// Review before apply: in Ask, a write is staged and its approval shows the change as hunks;
// the person accepts one and rejects the other with a reason; only the accepted hunk lands, and
// the model hears of the rejected one — its diff and the reason — in the same turn, as an error.
func TestReviewBeforeApplyAppliesOnlyTheAcceptedHunks(t *testing.T) {
	base := lines(30, nil)
	proposed := lines(30, map[int]string{3: "line three\n", 25: "line twenty-five\n"})
	r := newRig(t, script(call("write", map[string]any{"path": "f.txt", "content": proposed}), `{"text":"I see."}`),
		checkpoint.Options{})
	if _, err := r.st.SetCheckpointSettings(store.CheckpointSettings{Quota: 1 << 30, MaxFileSize: 1 << 20, ReviewBeforeApply: true}); err != nil {
		t.Fatal(err)
	}
	put(t, r.workspace, "f.txt", base, 0o644)
	var payload decision.ApprovalPayload
	reason := "line 25 is parsed by the release script"
	r.onDecision(func(d decision.Decision) *decision.Resolution {
		json.Unmarshal(d.Payload, &payload)
		res := decision.ApprovalReviewed(decision.AllowOnce, "", "", []decision.HunkVerdict{{Hunk: 0, Accept: true},
			{Hunk: 1, Accept: false, Reason: reason}})
		return &res
	})
	r.send("reword")
	if payload.Review == nil || len(payload.Review.Hunks) != 2 || payload.Review.StagedID == 0 {
		t.Fatalf("the approval must show the staged change's hunks: %+v", payload.Review)
	}
	st, baseKept, proposedKept, err := r.cps.StagedChange(payload.Review.StagedID)
	if err != nil || st.Path != "f.txt" || string(baseKept) != base || string(proposedKept) != proposed {
		t.Fatalf("the change must be staged in the checkpoint store: %+v %v", st, err)
	}
	if got := read(t, r.workspace, "f.txt"); got != lines(30, map[int]string{3: "line three\n"}) {
		t.Fatalf("only the accepted hunk may land:\n%s", got)
	}
	reqs := r.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests: the rejection must reach the model in the same turn", len(reqs))
	}
	if last := reqs[1]; !strings.Contains(last, "PARTIALLY_APPLIED") || !strings.Contains(last, reason) ||
		!strings.Contains(last, "+line twenty-five") || strings.Contains(last, "+line three") {
		t.Fatalf("the model must hear what was rejected and why:\n%s", last)
	}
}

// Every hunk rejected is the call rejected, with the reasons; nothing is written.
func TestReviewBeforeApplyRejectingEveryHunkWritesNothing(t *testing.T) {
	r := newRig(t, script(call("write", map[string]any{"path": "f.txt", "content": "changed\n"}), `{"text":"OK."}`),
		checkpoint.Options{})
	r.st.SetCheckpointSettings(store.CheckpointSettings{Quota: 1 << 30, MaxFileSize: 1 << 20, ReviewBeforeApply: true})
	put(t, r.workspace, "f.txt", "original\n", 0o644)
	r.onDecision(func(d decision.Decision) *decision.Resolution {
		res := decision.ApprovalReviewed(decision.AllowOnce, "", "", []decision.HunkVerdict{{Hunk: 0, Reason: "keep it"}})
		return &res
	})
	r.send("change it")
	if read(t, r.workspace, "f.txt") != "original\n" {
		t.Fatal("a change with every hunk rejected was written")
	}
	if last := r.requests()[1]; !strings.Contains(last, "REJECTED_BY_USER") || !strings.Contains(last, "keep it") {
		t.Fatalf("the model saw:\n%s", last)
	}
}
