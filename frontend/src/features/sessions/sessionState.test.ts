// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Session } from '../../bridge';
import { applyState, mergeList, mergeSession, nextUnread, sessionBadge } from './sessionState';

const s = (id: string, live: Partial<Session> = {}): Session => ({
  id,
  title: id,
  workspace: '/w',
  interactionMode: 'smart',
  executionOverride: '',
  permissionMode: 'ask',
  running: false,
  waiting: 0,
  stateSeq: 0,
  createdAt: '2025-01-01T10:00:00Z',
  updatedAt: '2025-01-01T10:00:00Z',
  ...live,
});

describe('the live state of a session keeps the newest report', () => {
  it('a create response that arrives after the broadcast of its first turn keeps the running dot', () => {
    const broadcast = s('a', { running: true, stateSeq: 7 });
    const createResponse = s('a', { running: false, stateSeq: 5, title: 'renamed meanwhile', updatedAt: '2025-01-01T10:00:01Z' });
    const merged = mergeSession(broadcast, createResponse);
    expect(merged.running).toBe(true);
    expect(merged.stateSeq).toBe(7);
    expect(merged.title).toBe('renamed meanwhile');
  });

  it('an older response does not undo a newer title (the first message names the session)', () => {
    const broadcast = s('a', { title: 'Fix the login bug', updatedAt: '2025-01-01T10:00:05Z', running: true, stateSeq: 3 });
    const created = s('a', { title: 'New session', updatedAt: '2025-01-01T10:00:00Z', stateSeq: 1 });
    const merged = mergeSession(broadcast, created);
    expect(merged.title).toBe('Fix the login bug');
    expect(merged.running).toBe(true);
  });

  it('a newer report replaces an older one, in lists and in session.state alike', () => {
    expect(mergeSession(s('a', { running: true, stateSeq: 3 }), s('a', { running: false, stateSeq: 4 })).running).toBe(false);
    const list = [s('a', { running: true, stateSeq: 3 }), s('b')];
    expect(applyState(list, { sessionId: 'a', running: false, waiting: 0, stateSeq: 4 })[0]?.running).toBe(false);
    expect(applyState(list, { sessionId: 'a', running: false, waiting: 0, stateSeq: 2 })[0]?.running).toBe(true);
    expect(applyState(list, { sessionId: 'a', running: true, waiting: 2, stateSeq: 9 })[0]?.waiting).toBe(2);
    expect(applyState(list, { sessionId: 'a', running: false, waiting: 0, stateSeq: 4 })[1]).toBe(list[1]);
  });

  it('a server that sends no seq is taken as it comes', () => {
    expect(mergeSession(s('a', { running: true }), s('a', { running: false })).running).toBe(false);
    expect(mergeList([s('a', { running: true, stateSeq: 1 })], [s('b')]).map((x) => x.id)).toEqual(['b']);
  });
});

describe('unread: a turn ended where the person was not looking', () => {
  const running = [s('a', { running: true }), s('b', { running: true })];
  const ended = [s('a', { running: false }), s('b', { running: false })];

  it('marks the sessions that went idle, except the one in view', () => {
    expect(nextUnread([], running, ended, 'a')).toEqual(['b']);
    expect(nextUnread([], running, ended, null).sort()).toEqual(['a', 'b']);
  });

  it('is read once it is opened, and forgotten once it is gone', () => {
    expect(nextUnread(['a', 'b'], ended, ended, 'b')).toEqual(['a']);
    expect(nextUnread(['a', 'b'], ended, [s('b')], null)).toEqual(['b']);
  });

  it('stays the same array when nothing changed, so the store does not re-render', () => {
    const unread = ['b'];
    expect(nextUnread(unread, ended, ended, 'a')).toBe(unread);
    expect(nextUnread(unread, running, running, null)).toBe(unread);
  });
});

describe('the sidebar badge', () => {
  it('puts a waiting decision first, then a running turn, then news', () => {
    expect(sessionBadge({ running: true, waiting: 1 }, true)).toBe('waiting');
    expect(sessionBadge({ running: true, waiting: 0 }, true)).toBe('running');
    expect(sessionBadge({ running: false }, true)).toBe('unread');
    expect(sessionBadge({}, false)).toBeNull();
  });
});
