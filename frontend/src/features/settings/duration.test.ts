// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';
import { normalizeSettings } from './appSettingsStore';

describe('formatDuration', () => {
  it('drops the zero units Go prints', () => {
    expect(formatDuration('10m0s')).toBe('10m');
    expect(formatDuration('1h0m0s')).toBe('1h');
    expect(formatDuration('24h0m0s')).toBe('24h');
    expect(formatDuration('1h30m0s')).toBe('1h30m');
    expect(formatDuration('1m30s')).toBe('1m30s');
    expect(formatDuration('90s')).toBe('90s');
  });
  it('keeps never, the default that waits for the person', () => {
    expect(formatDuration('never')).toBe('never');
    expect(formatDuration('')).toBe('never');
  });
});

describe('normalizeSettings', () => {
  it('fills what an older or damaged answer lacks without asking for onboarding', () => {
    expect(normalizeSettings({ language: 'zh-CN', defaultPermission: 'sudo' })).toEqual({
      language: 'zh-CN',
      defaultPermission: 'ask',
      decisionTimeout: '',
      theme: 'system',
      provider: { kind: '', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } },
      providerReady: true,
      externalAgents: [],
      shellEnvPassthrough: [],
      sandbox: { kind: 'none', abi: 0, network: false, protect_git: false, reason: '' },
      commandLine: null,
    });
    // A sandbox the server did not report as Landlock with an ABI is never claimed.
    expect(normalizeSettings({ sandbox: { kind: 'landlock', abi: 0, network: true } }).sandbox?.kind).toBe('none');
    expect(normalizeSettings({ sandbox: { kind: 'seatbelt', abi: 3 } }).sandbox?.kind).toBe('none');
    expect(normalizeSettings({ sandbox: { kind: 'landlock', abi: 5, network: true, protect_git: true } }).sandbox).toEqual({
      kind: 'landlock',
      abi: 5,
      network: true,
      protect_git: true,
    });
    expect(normalizeSettings({ providerReady: false }).providerReady).toBe(false);
    expect(normalizeSettings({ externalAgents: ['goose acp', 7, null, 'claude-code-acp'] }).externalAgents).toEqual([
      'goose acp',
      'claude-code-acp',
    ]);
    expect(normalizeSettings({ externalAgents: 'goose acp' }).externalAgents).toEqual([]);
  });
});
