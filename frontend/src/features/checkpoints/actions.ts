import { createContext, useContext } from 'react';

/**
 * What the transcript's checkpoint markers can open: the restore of a checkpoint (its preview
 * first) and the review of a turn's changes. The session view provides them; a transcript shown
 * elsewhere (a test, a read-only view) offers neither.
 */
export interface CheckpointActions {
  restore: (checkpointId: number) => void;
  review: (turnId: string) => void;
  /** Opens another session (the fork a conversation restore made). */
  openSession: (id: string) => void;
  /** Forks this session before log entry `before` and opens the fork (before a compaction). */
  forkBefore?: (before: number) => Promise<void>;
  /** Whether a turn may be restored to: a Chat turn ran no tool, so there is nothing to restore. */
  restorable?: (turnId: string) => boolean;
}

export const CheckpointActionsContext = createContext<CheckpointActions | null>(null);

export const useCheckpointActions = () => useContext(CheckpointActionsContext);
