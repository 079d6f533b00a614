/**
 * The Checkpoints facade's types (Go: app/checkpoints.go, backend/rewind): the wire types come from
 * generated.ts; the unions and constants here are the UI's own spelling of what Go sends as strings.
 */
import type {
  Checkpoint,
  FileChange as FileChangeRef,
  CheckpointView as CheckpointMark,
  RestoreItem as RestoreMark,
  ReviewItem as ReviewMark,
  Line as HunkLine,
  Hunk as ServerHunk,
  FileDiff,
  Preview as RestorePreview,
  FileChanges as FileReview,
  TurnChanges,
  ReviewRequest,
  Usage as CheckpointUsage,
  CheckpointSettingsView as CheckpointSettings,
  // A write's or an edit's change staged for review before apply (Go: decision.StagedReview).
  StagedReview,
  HunkVerdict,
} from './generated';

/** The wire types the UI uses as they are (generated from Go), under the names it knows them by. */
export type {
  Checkpoint, FileChangeRef, CheckpointMark, RestoreMark, ReviewMark, HunkLine, ServerHunk, FileDiff,
  RestorePreview, FileReview, TurnChanges, ReviewRequest, CheckpointUsage, CheckpointSettings, StagedReview,
  HunkVerdict,
};

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

export type ChangeAction = 'create' | 'modify' | 'delete';

export type ReviewState = 'pending' | 'accepted' | 'reverted';

