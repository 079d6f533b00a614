import type { Transcript, TurnDeltaEvent } from '../../bridge';
import { transcriptReducer } from './transcriptReducer';

export type DeltaEvent = Omit<TurnDeltaEvent, 'seq'> & { seq?: number };

/**
 * Applies a burst of an answer's deltas in one reducer pass: consecutive deltas of one stream
 * (a turn, or a tool call's) are joined first, each checked fresh against the transcript as it
 * is (a delta already in a snapshot is dropped, as the reducer drops it), so N deltas copy the
 * transcript's items once instead of N times. The same as reducing them one by one.
 */
export function reduceDeltas(t: Transcript, batch: readonly DeltaEvent[]): Transcript {
  for (let i = 0; i < batch.length; ) {
    const first = batch[i]!;
    let j = i + 1;
    if (typeof first.seq === 'number') {
      while (j < batch.length && batch[j]!.turnId === first.turnId && batch[j]!.callId === first.callId && typeof batch[j]!.seq === 'number') j++;
    }
    if (j - i === 1) {
      t = transcriptReducer(t, { type: 'turn.delta', e: first });
      i = j;
      continue;
    }
    const seen = t.deltaSeq?.[`${first.turnId}/${first.callId ?? ''}`] ?? 0;
    let seq = seen;
    let text = '';
    for (let k = i; k < j; k++) {
      const d = batch[k]!;
      if (d.seq! <= seq) continue;
      seq = d.seq!;
      text += d.text;
    }
    if (seq > seen) t = transcriptReducer(t, { type: 'turn.delta', e: { ...batch[j - 1]!, text, seq } });
    i = j;
  }
  return t;
}
