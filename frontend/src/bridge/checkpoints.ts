/** Wire types of the Checkpoints facade (Go: app/checkpoints.go, backend/review). */

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

export interface Checkpoint {
  id: number;
  sessionId: string;
  turnId?: string;
  workspace: string;
  reason: CheckpointReason;
  detail?: string;
  files: number;
  bytes: number;
  createdAt: string;
}

export type ChangeAction = 'create' | 'modify' | 'delete';

export interface FileChangeRef {
  path: string;
  action: ChangeAction;
}

/** A checkpoint as the log keeps it and checkpoint.created announces it. */
export interface CheckpointMark {
  sessionId?: string;
  turnId?: string;
  callId?: string;
  /** Absent when the snapshot could not be taken: error says why (an error kind). */
  checkpointId?: number;
  reason: CheckpointReason;
  files?: number;
  /** The checkpoint the change list is measured from (before the call, or before the turn). */
  from?: number;
  changed?: FileChangeRef[] | null;
  error?: string;
  errorArgs?: Record<string, unknown> | null;
}

export interface RestoreMark {
  checkpointId: number;
  turnId?: string;
  scope: RestoreScope;
  /** The checkpoint of what the restore replaced: restoring it undoes the restore. */
  undoId?: number;
  changed: FileChangeRef[] | null;
  forkId?: string;
  forkOf?: string;
}

export interface ReviewMark {
  turnId: string;
  path: string;
  action: 'accept' | 'revert';
  hunks?: number[] | null;
  reason?: string;
  undoId?: number;
}

/** One line of a hunk, with its end of line; numbers are 1-based, 0 where the side has none. */
export interface HunkLine {
  kind: 'ctx' | 'add' | 'del';
  text: string;
  old?: number;
  new?: number;
}

export interface ServerHunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
}

export interface FileDiff {
  path: string;
  action: ChangeAction;
  before: string;
  after: string;
  hunks: ServerHunk[] | null;
  /** binary, too_large, link, large_file */
  omitted?: string;
  unrestorable?: boolean;
}

export interface RestorePreview {
  checkpoint: Checkpoint;
  scope: RestoreScope;
  files: FileDiff[] | null;
  deletes: string[] | null;
  unrestorable: string[] | null;
  turnId?: string;
  prompt?: string;
}

export type ReviewState = 'pending' | 'accepted' | 'reverted';

export interface FileReview extends FileDiff {
  state: ReviewState;
  hunkStates: ReviewState[] | null;
  reasons?: string[] | null;
}

export interface TurnChanges {
  turnId: string;
  from: number;
  to: number;
  running?: boolean;
  files: FileReview[] | null;
}

export interface ReviewRequest {
  sessionId: string;
  turnId: string;
  path: string;
  action: 'accept' | 'revert';
  /** 0-based indexes of the file's hunks; none: the whole file. */
  hunks?: number[];
  reason?: string;
}

export interface CheckpointUsage {
  bytes: number;
  quota: number;
  checkpoints: number;
}

export interface CheckpointSettings {
  quota: number;
  maxFileSize: number;
  secrets: string[] | null;
  defaultSecrets: string[] | null;
  reviewBeforeApply: boolean;
  usage?: CheckpointUsage | null;
  /** Why there is no checkpoint store (an error kind). */
  unavailable?: string;
}

/** A write's or an edit's change staged for review before apply (Go: agent.StagedReview). */
export interface StagedReview {
  stagedId: number;
  hunks: ServerHunk[] | null;
}

export interface HunkVerdict {
  hunk: number;
  accept: boolean;
  reason?: string;
}
