import { structuredPatch } from 'diff';

/** One line of a hunk: added, removed, or context, with its numbers in the old and the new file. */
export interface DiffLine {
  kind: 'add' | 'del' | 'ctx';
  text: string;
  /** 1-based line number in the file before; absent for an added line. */
  old?: number;
  /** 1-based line number in the file after; absent for a removed line. */
  new?: number;
}

export interface Hunk {
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

export interface DiffModel {
  hunks: Hunk[];
  added: number;
  removed: number;
}

/** The change as hunks with `context` lines around each, computed with jsdiff. */
export function buildDiff(before: string, after: string, context = 3): DiffModel {
  const patch = structuredPatch('a', 'b', before, after, '', '', { context });
  let added = 0;
  let removed = 0;
  const hunks = patch.hunks.map((h) => {
    let o = h.oldStart;
    let n = h.newStart;
    const lines: DiffLine[] = [];
    for (const raw of h.lines) {
      const mark = raw[0];
      const text = raw.slice(1);
      if (mark === '+') {
        lines.push({ kind: 'add', text, new: n++ });
        added++;
      } else if (mark === '-') {
        lines.push({ kind: 'del', text, old: o++ });
        removed++;
      } else if (mark === ' ') {
        lines.push({ kind: 'ctx', text, old: o++, new: n++ });
      }
      // "\ No newline at end of file" is about the line before; the card does not show it.
    }
    return { oldStart: h.oldStart, newStart: h.newStart, lines };
  });
  return { hunks, added, removed };
}

/** One row of the side-by-side view: the old line on the left, the new on the right. */
export interface SideRow {
  left?: DiffLine;
  right?: DiffLine;
}

/** Pairs each run of removed lines with the run of added lines after it; context sits on both sides. */
export function sideBySide(hunk: Hunk): SideRow[] {
  const rows: SideRow[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++) rows.push({ left: dels[i], right: adds[i] });
    dels = [];
    adds = [];
  };
  for (const l of hunk.lines) {
    if (l.kind === 'del') {
      if (adds.length) flush();
      dels.push(l);
    } else if (l.kind === 'add') {
      adds.push(l);
    } else {
      flush();
      rows.push({ left: l, right: l });
    }
  }
  flush();
  return rows;
}

/** A file's lines; a final newline ends the last line rather than starting an empty one. */
export function fileLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The shape of a hunk the server computed (Go: backend/hunk); its lines keep their end of line. */
export interface ServerHunkLike {
  oldStart: number;
  newStart: number;
  /** ctx, add or del (Go sends a string); any other kind reads as context. */
  lines: { kind: string; text: string; old?: number; new?: number }[] | null;
}

/**
 * The server's hunks as the view's model: the same hunks a review accepts or reverts by index, so
 * what the person sees is exactly what the server applies.
 */
export function fromServer(hunks: readonly ServerHunkLike[]): DiffModel {
  let added = 0;
  let removed = 0;
  const out = hunks.map((h) => ({
    oldStart: h.oldStart,
    newStart: h.newStart,
    lines: (h.lines ?? []).map((l): DiffLine => {
      if (l.kind === 'add') added++;
      if (l.kind === 'del') removed++;
      const text = l.text.replace(/\r?\n$/, '');
      return l.kind === 'add' ? { kind: 'add', text, new: l.new } : l.kind === 'del' ? { kind: 'del', text, old: l.old } : { kind: 'ctx', text, old: l.old, new: l.new };
    }),
  }));
  return { hunks: out, added, removed };
}
