import { describe, expect, it } from 'vitest';
import { createFramedStore } from './store';

/** A schedule the test runs by hand: what is waiting, and how many frames were asked for. */
function manual() {
  const waiting: (() => void)[] = [];
  let asked = 0;
  const schedule = (f: () => void) => {
    asked++;
    waiting.push(f);
    return () => waiting.splice(waiting.indexOf(f), 1);
  };
  return { schedule, waiting, asked: () => asked };
}

describe('a framed store', () => {
  it('holds a burst of changes back to one notification at the next frame, with get() current meanwhile', () => {
    const clock = manual();
    const store = createFramedStore(0, clock.schedule);
    let told = 0;
    store.subscribe(() => told++);
    for (let i = 1; i <= 100; i++) store.setLater((n) => n + 1);
    expect(store.get()).toBe(100);
    expect(told).toBe(0);
    expect(clock.asked()).toBe(1);
    clock.waiting[0]!();
    expect(told).toBe(1);
  });

  it('tells at once on set(), what was held back included, and cancels the frame', () => {
    const clock = manual();
    const store = createFramedStore('a', clock.schedule);
    let told = 0;
    store.subscribe(() => told++);
    store.setLater('b');
    store.set('b'); // no change of its own, but the held-back one is told now
    expect(told).toBe(1);
    expect(clock.waiting).toHaveLength(0);
    store.setLater('b'); // no change: nothing to tell
    expect(clock.asked()).toBe(1);
    store.set('c');
    expect(told).toBe(2);
  });
});
