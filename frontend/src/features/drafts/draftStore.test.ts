import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDraftStore, decisionScope, MESSAGE, NEW_TASK, type DraftStorage } from './draftStore';

function memoryStorage(init: Record<string, string> = {}): DraftStorage & { data: Record<string, string>; writes: number } {
  const s = {
    data: { ...init },
    writes: 0,
    getItem: (k: string) => s.data[k] ?? null,
    setItem: (k: string, v: string) => {
      s.writes++;
      s.data[k] = v;
    },
  };
  return s;
}

describe('draft store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('keeps a draft per session and scope, and writes it once typing pauses', () => {
    const storage = memoryStorage();
    const d = createDraftStore({ storage, delayMs: 100 });
    d.set('s1', MESSAGE, 'h');
    d.set('s1', MESSAGE, 'hello');
    d.set(NEW_TASK, MESSAGE, 'a new task');
    expect(d.text('s1')).toBe('hello');
    expect(d.text('s2')).toBe('');
    expect(storage.writes).toBe(0);
    vi.advanceTimersByTime(100);
    expect(storage.writes).toBe(1);

    const reloaded = createDraftStore({ storage });
    expect(reloaded.text('s1')).toBe('hello');
    expect(reloaded.text(NEW_TASK)).toBe('a new task');
    expect(reloaded.text('s2')).toBe('');
  });

  it('forgets a draft set to empty or cleared', () => {
    const storage = memoryStorage();
    const d = createDraftStore({ storage });
    d.set('s1', MESSAGE, 'x');
    d.set('s1', decisionScope('d1'), { reason: 'no' });
    d.flush();
    d.set('s1', MESSAGE, '');
    d.clear('s1', decisionScope('d1'));
    expect(d.get('s1', MESSAGE)).toBeUndefined();
    d.flush();
    expect(createDraftStore({ storage }).get('s1', decisionScope('d1'))).toBeUndefined();
  });

  it('never throws on corrupt or foreign storage', () => {
    for (const raw of ['{not json', '[]', '42', 'null', JSON.stringify({ x: 1, y: { session: 1 } })]) {
      const storage = memoryStorage({ 'agentdesk.drafts': raw });
      const d = createDraftStore({ storage });
      expect(d.text('s1')).toBe('');
      d.set('s1', MESSAGE, 'ok');
      d.flush();
      expect(createDraftStore({ storage }).text('s1')).toBe('ok');
    }
  });

  it('keeps working when storage throws', () => {
    const storage: DraftStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    const d = createDraftStore({ storage });
    d.set('s1', MESSAGE, 'typed');
    expect(() => d.flush()).not.toThrow();
    expect(d.text('s1')).toBe('typed');
  });

  it('drops a deleted session’s drafts and the drafts of decisions no longer waiting', () => {
    const storage = memoryStorage();
    const d = createDraftStore({ storage });
    d.set('s1', MESSAGE, 'one');
    d.set('s1', decisionScope('a'), { reason: 'a' });
    d.set('s1', decisionScope('b'), { reason: 'b' });
    d.set('s2', MESSAGE, 'two');
    d.set('s2', decisionScope('a'), { reason: 'other session' });
    d.flush();
    d.keepDecisions('s1', ['b']);
    expect(d.get('s1', decisionScope('a'))).toBeUndefined();
    expect(d.get('s1', decisionScope('b'))).toEqual({ reason: 'b' });
    expect(d.get('s2', decisionScope('a'))).toEqual({ reason: 'other session' });
    d.dropSession('s2');
    d.flush();
    const reloaded = createDraftStore({ storage });
    expect(reloaded.text('s1')).toBe('one');
    expect(reloaded.text('s2')).toBe('');
    expect(reloaded.get('s2', decisionScope('a'))).toBeUndefined();
  });

  it('caps what it writes: the oldest drafts go first, an oversized one stays on the page only', () => {
    let t = 1000;
    const storage = memoryStorage();
    const d = createDraftStore({ storage, maxTotalChars: 400, maxEntryChars: 300, now: () => t });
    for (let i = 0; i < 6; i++) {
      t += 1;
      d.set(`s${i}`, MESSAGE, `draft ${i}`);
    }
    d.set('big', MESSAGE, 'x'.repeat(1000));
    d.flush();
    expect(storage.data['agentdesk.drafts']!.length).toBeLessThanOrEqual(400);
    const reloaded = createDraftStore({ storage, now: () => t });
    expect(reloaded.text('s5')).toBe('draft 5');
    expect(reloaded.text('s0')).toBe('');
    expect(reloaded.text('big')).toBe('');
    expect(d.text('big')).toHaveLength(1000);
  });

  it('forgets drafts left untouched for too long', () => {
    let t = 0;
    const storage = memoryStorage();
    const d = createDraftStore({ storage, maxAgeMs: 1000, now: () => t });
    d.set('s1', MESSAGE, 'old');
    d.flush();
    t = 2000;
    expect(createDraftStore({ storage, maxAgeMs: 1000, now: () => t }).text('s1')).toBe('');
  });

  it('merges with what another window wrote meanwhile', () => {
    const storage = memoryStorage();
    const a = createDraftStore({ storage });
    const b = createDraftStore({ storage });
    a.set('s1', MESSAGE, 'from a');
    a.flush();
    b.set('s2', MESSAGE, 'from b');
    b.flush();
    const reloaded = createDraftStore({ storage });
    expect(reloaded.text('s1')).toBe('from a');
    expect(reloaded.text('s2')).toBe('from b');
  });

  it('keeps session ids that look like scopes apart', () => {
    const d = createDraftStore({ storage: memoryStorage() });
    d.set('a:b', 'c', 'one');
    d.set('a', 'b:c', 'two');
    expect(d.text('a:b', 'c')).toBe('one');
    expect(d.text('a', 'b:c')).toBe('two');
  });
});
