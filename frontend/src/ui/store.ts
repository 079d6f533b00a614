import { useSyncExternalStore } from 'react';

/** A minimal observable value: the one place a piece of frontend state lives. */
export interface Store<S> {
  get(): S;
  set(next: S | ((prev: S) => S)): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      const value = typeof next === 'function' ? (next as (prev: S) => S)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStore<S>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** A store that can also hold its listeners back: a burst of changes is drawn once. */
export interface FramedStore<S> extends Store<S> {
  /**
   * Changes the value now (get() sees it at once) and tells the listeners at the next frame,
   * once for every change made before it. set() tells them at once, this change included; a
   * set() that changes nothing tells nothing, and what was held back keeps its frame.
   */
  setLater(next: S | ((prev: S) => S)): void;
}

/**
 * The next frame, or a timer where no frame comes: a hidden window draws none, and what it held
 * back must still be told before long.
 */
export function nextFrame(f: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    f();
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : null;
  const timer = setTimeout(run, 100);
  return () => {
    done = true;
    if (frame !== null) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/**
 * Runs f once the frame being prepared has been painted: after a change the person must see at
 * once (a turn's end), work that can wait (reconciling with the stored log) does not delay it.
 */
export function afterPaint(f: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancelFrame = nextFrame(() => (timer = setTimeout(f, 0)));
  return () => {
    cancelFrame();
    clearTimeout(timer);
  };
}

export interface Pacing {
  /** The view takes at most 1/share of the time while changes keep coming. */
  share: number;
  /** The longest a held-back change waits, however costly the view. */
  maxWaitMs: number;
  frame: (f: () => void) => () => void;
  now: () => number;
  later: (f: () => void, ms: number) => () => void;
}

const browserPacing: Pacing = {
  share: 4,
  maxWaitMs: 250,
  frame: nextFrame,
  now: () => performance.now(),
  later: (f, ms) => {
    const id = setTimeout(f, ms);
    return () => clearTimeout(id);
  },
};

/**
 * A schedule for createFramedStore that tells at the next frame, but not sooner than the view
 * can afford: after a telling whose work took W ms (the listeners, and the render React runs in
 * the microtask they queued), the next waits until share × W ms after it began. A cheap change
 * (a delta of the answer) is still drawn every frame; a burst that mounts a screen of new tool
 * cards each time is drawn a few times a second instead of every frame, and the page keeps up
 * with the turn instead of spending its time drawing rows that scroll past unseen.
 */
export function pacedFrames(pacing: Partial<Pacing> = {}): (f: () => void) => () => void {
  const { share, maxWaitMs, frame, now, later } = { ...browserPacing, ...pacing };
  let last = { at: -Infinity, cost: 0 };
  return (f) => {
    let cancel: () => void = () => {};
    const run = () => {
      const at = now();
      f();
      queueMicrotask(() => (last = { at, cost: now() - at }));
    };
    const wait = Math.min(maxWaitMs, last.at + share * last.cost - now());
    if (wait <= 0) return frame(run);
    const stopTimer = later(() => (cancel = frame(run)), wait);
    cancel = stopTimer;
    return () => cancel();
  };
}

export function createFramedStore<S>(initial: S, schedule: (f: () => void) => () => void = nextFrame): FramedStore<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  let cancel: (() => void) | null = null;
  const notify = () => {
    cancel?.();
    cancel = null;
    for (const l of [...listeners]) l();
  };
  const change = (next: S | ((prev: S) => S)) => {
    const value = typeof next === 'function' ? (next as (prev: S) => S)(state) : next;
    if (Object.is(value, state)) return false;
    state = value;
    return true;
  };
  return {
    get: () => state,
    set(next) {
      if (change(next)) notify();
    },
    setLater(next) {
      if (change(next) && !cancel) cancel = schedule(notify);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
