/**
 * The Checkpoints facade's types (Go: app/checkpoints.go, backend/rewind): the wire types come from
 * generated.ts; the unions and constants here are the UI's own spelling of what Go sends as strings.
 */
import type * as G from './generated';

export type RestoreScope = 'files' | 'conversation' | 'both';
export const RESTORE_SCOPES: readonly RestoreScope[] = ['files', 'conversation', 'both'];

/** Why a snapshot was taken (Go: checkpoint.Reason*). */
export type CheckpointReason =
  | 'turn'
  | 'before_tool'
  | 'after_tool'
  | 'turn_end'
  | 'before_restore'
  | 'restored'
  | 'before_review'
  | 'reviewed';

export type Checkpoint = G.Checkpoint;

export type ChangeAction = 'create' | 'modify' | 'delete';

export type FileChangeRef = G.FileChange;

export type CheckpointMark = G.CheckpointView;

export type RestoreMark = G.RestoreItem;

export type ReviewMark = G.ReviewItem;

export type HunkLine = G.Line;

export type ServerHunk = G.Hunk;

export type FileDiff = G.FileDiff;

export type RestorePreview = G.Preview;

export type ReviewState = 'pending' | 'accepted' | 'reverted';

export type FileReview = G.FileChanges;

export type TurnChanges = G.TurnChanges;

export type ReviewRequest = G.ReviewRequest;

export type CheckpointUsage = G.Usage;

export type CheckpointSettings = G.CheckpointSettingsView;

/** A write's or an edit's change staged for review before apply (Go: decision.StagedReview). */
export type StagedReview = G.StagedReview;

export type HunkVerdict = G.HunkVerdict;
