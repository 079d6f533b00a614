// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import { emptyQueue, occupant, queueReducer } from './decisionQueue';
import { modelLabelText } from './ModelLabel';
import { canRun, type RunsOnSettings } from './useProviderLabel';

const t = makeT(catalog, 'en');
const none: RunsOnSettings = { provider: { kind: '', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } }, providerReady: false };

describe('what the composer says the turn runs on', () => {
  it('with serve --provider scripted it names the command line’s provider, never “No model set up”', () => {
    const scripted: RunsOnSettings = { ...none, providerReady: true, commandLine: { kind: 'scripted' } };
    expect(modelLabelText(t, scripted, null)).toBe('Scripted');
    expect(canRun(scripted, null)).toBe(true);
    expect(modelLabelText(t, none, null)).toBe('No model set up');
    expect(canRun(none, null)).toBe(false);
  });
  it('a demo session runs on its own script, and a session on an external agent names it', () => {
    expect(modelLabelText(t, none, { demo: true })).toBe('Offline demo');
    expect(canRun(none, { demo: true })).toBe(true);
    expect(modelLabelText(t, none, { externalAgent: 'goose acp' })).toBe('goose acp');
    expect(canRun(none, { externalAgent: 'goose acp' })).toBe(true);
  });
  it('an older data folder whose provider says demo reads as none', () => {
    expect(modelLabelText(t, { ...none, provider: { kind: 'demo', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } } }, null)).toBe('No model set up');
  });
});

describe('the set-up occupies the composer until it is closed, after any decision and the fn-form', () => {
  it('orders the occupants', () => {
    let s = queueReducer(emptyQueue, { type: 'openSetup' });
    expect(occupant(s)).toEqual({ kind: 'setup' });
    s = queueReducer(s, { type: 'asked', decision: { id: 'd', sessionId: 's', turnId: 't', kind: 'question', payload: {}, createdAt: '', deadline: '' } });
    expect(occupant(s).kind).toBe('decision');
    s = queueReducer(queueReducer(s, { type: 'answered', id: 'd' }), { type: 'closeSetup' });
    expect(occupant(s)).toEqual({ kind: 'idle' });
  });
});

describe('an agent’s short name', () => {
  it('keeps the program and the last part of each path', async () => {
    const { agentName } = await import('./RuntimePicker');
    expect(agentName('node /home/ada/agents/acp.mjs')).toBe('node acp.mjs');
    expect(agentName('goose acp')).toBe('goose acp');
    expect(agentName('npx @zed-industries/claude-code-acp')).toBe('npx claude-code-acp');
  });
});
