import { describe, expect, it } from 'vitest';
import { createFramedStore, pacedFrames } from './store';

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

  it('tells at once on a set() that changes something, what was held back included, and cancels the frame', () => {
    const clock = manual();
    const store = createFramedStore('a', clock.schedule);
    let told = 0;
    store.subscribe(() => told++);
    store.setLater('b');
    store.set('b'); // no change of its own: the held-back one keeps its frame
    expect(told).toBe(0);
    expect(clock.waiting).toHaveLength(1);
    store.set('c'); // a change: told now, with the held-back one, and the frame is cancelled
    expect(told).toBe(1);
    expect(clock.waiting).toHaveLength(0);
    store.setLater('c'); // no change: nothing to tell
    expect(clock.asked()).toBe(1);
    store.set('d');
    expect(told).toBe(2);
  });
});

/** A clock, frames and timers run by hand, for pacedFrames. */
function pacedByHand() {
  let t = 0;
  const frames: (() => void)[] = [];
  const timers: { f: () => void; ms: number }[] = [];
  const schedule = pacedFrames({
    now: () => t,
    frame: (f) => {
      frames.push(f);
      return () => frames.splice(frames.indexOf(f), 1);
    },
    later: (f, ms) => {
      const timer = { f, ms };
      timers.push(timer);
      return () => timers.splice(timers.indexOf(timer), 1);
    },
  });
  const tick = (ms: number) => (t += ms);
  return { schedule, frames, timers, tick };
}

const microtasks = () => Promise.resolve();

describe('paced frames', () => {
  it('tell at the next frame while the view is cheap, and wait while it is costly (share 4, at most 250 ms)', async () => {
    const c = pacedByHand();
    const draw = (ms: number) => () => c.tick(ms);

    c.schedule(draw(2));
    expect(c.frames).toHaveLength(1);
    c.frames.shift()!();
    await microtasks();
    c.tick(14); // the next frame: 16 ms after the cheap one began
    c.schedule(draw(30));
    expect(c.timers).toHaveLength(0);
    c.frames.shift()!();
    await microtasks();
    // It took 30 ms: the next waits until 4 × 30 ms after it began, then for a frame.
    c.schedule(draw(100));
    expect(c.frames).toHaveLength(0);
    expect(c.timers.map((x) => x.ms)).toEqual([90]);
    c.tick(90);
    c.timers.shift()!.f();
    expect(c.frames).toHaveLength(1);
    c.frames.shift()!();
    await microtasks();
    // However costly, a change waits at most 250 ms.
    c.schedule(draw(1));
    expect(c.timers.map((x) => x.ms)).toEqual([250]);
  });

  it('cancel the wait and the frame alike', async () => {
    const c = pacedByHand();
    let ran = 0;
    c.schedule(() => {
      ran++;
      c.tick(50);
    });
    c.frames.shift()!();
    await microtasks();
    const cancel = c.schedule(() => ran++);
    expect(c.timers).toHaveLength(1);
    cancel();
    expect(c.timers).toHaveLength(0);
    const cancelFrame = c.schedule(() => ran++);
    c.tick(250);
    c.timers.shift()!.f();
    cancelFrame();
    expect(c.frames).toHaveLength(0);
    expect(ran).toBe(1);
  });

  it('hold a burst in a framed store to one telling, and a set() tells at once', async () => {
    const c = pacedByHand();
    const store = createFramedStore(0, c.schedule);
    let told = 0;
    store.subscribe(() => {
      told++;
      c.tick(40);
    });
    for (let i = 0; i < 100; i++) store.setLater((n) => n + 1);
    c.frames.shift()!();
    await microtasks();
    for (let i = 0; i < 100; i++) store.setLater((n) => n + 1);
    expect(told).toBe(1);
    expect(c.timers.map((x) => x.ms)).toEqual([120]);
    store.set((n) => n + 1); // a turn's end: told now, the wait dropped
    expect(told).toBe(2);
    expect(c.timers).toHaveLength(0);
    expect(store.get()).toBe(201);
  });
});
