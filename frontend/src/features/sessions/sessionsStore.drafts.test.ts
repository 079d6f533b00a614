import { beforeEach, describe, expect, it } from 'vitest';
import { FakeDesk } from '../../app/testing/fakeDesk';
import { createApi } from '../../bridge';
import { session } from '../../test/fakeTransport';
import { decisionScope, drafts, MESSAGE } from '../drafts/draftStore';
import { createSessionsStore } from './sessionsStore';

beforeEach(() => drafts.reset());

const noUnread = { load: () => [], save: () => undefined };

describe('drafts of deleted sessions', () => {
  it('go with the session, deleted here or by another client', async () => {
    const fake = new FakeDesk({ sessions: [session('s1', 'One', '2025-01-02T08:00:00Z'), session('s2', 'Two', '2025-01-01T08:00:00Z')] });
    const store = createSessionsStore(createApi(() => fake), noUnread);
    const stop = store.start();
    drafts.set('s1', MESSAGE, 'typed in one');
    drafts.set('s1', decisionScope('d1'), { reason: 'no' });
    drafts.set('s2', MESSAGE, 'typed in two');

    await store.remove('s1');
    expect(drafts.get('s1', MESSAGE)).toBeUndefined();
    expect(drafts.get('s1', decisionScope('d1'))).toBeUndefined();
    expect(drafts.text('s2')).toBe('typed in two');

    fake.emit('sessions.changed', { sessions: [], removed: ['s2'] });
    expect(drafts.get('s2', MESSAGE)).toBeUndefined();
    stop();
  });
});
