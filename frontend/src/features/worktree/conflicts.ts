import type { TaskChanges } from '../../bridge/generated';
import { createStore } from '../../ui/store';

/** One file of a task whose change the person's folder could not take: its conflicting hunks (numbered from 1), none when it goes whole. */
export interface Conflict {
  path: string;
  hunks: number[];
}

/** The conflicts last found for each session, shown in its composer until they are resolved or dismissed. */
export const conflictStore = createStore<Readonly<Record<string, readonly Conflict[]>>>({});

export function showConflicts(sessionId: string, conflicts: readonly Conflict[]) {
  conflictStore.set((all) => {
    const had = all[sessionId] ?? [];
    if (had.length === 0 && conflicts.length === 0) return all;
    return { ...all, [sessionId]: conflicts };
  });
}

export function conflictsOf(changes: TaskChanges): Conflict[] {
  return (changes.files ?? [])
    .filter((f) => f.state === 'conflict')
    .map((f) => ({
      path: f.path,
      hunks: (f.hunkStates ?? []).flatMap((s, i) => (s === 'conflict' ? [i + 1] : [])),
    }));
}
