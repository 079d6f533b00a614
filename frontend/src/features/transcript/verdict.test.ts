// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { catalog } from '../../i18n/locales';
import { makeT } from '../../i18n/translate';
import { callSummary, verdictView } from './verdict';

const t = makeT(catalog, 'en');
const base = { verdict: 'allow' as const, layer: 'profile', code: '', approved: '', done: true };

describe('a question or a plan review says how the person answered, never “Allowed”', () => {
  it('a timed-out question is not shown as allowed', () => {
    expect(verdictView({ ...base, name: 'ask_user', approved: 'timed_out' }, t)).toEqual({ tone: 'danger', text: 'No answer, timed out' });
    expect(verdictView({ ...base, name: 'ask_user', approved: 'answered' }, t)?.text).toBe('Answered');
    expect(verdictView({ ...base, name: 'exit_plan_mode', approved: 'keep_planning' }, t)?.text).toBe('Keep planning');
    expect(verdictView({ ...base, name: 'exit_plan_mode', approved: 'approve' }, t)?.text).toBe('Approved');
  });
  it('waits while the decision is open, and says nothing for calls recorded before outcomes were kept', () => {
    expect(verdictView({ ...base, name: 'ask_user', done: false }, t)?.text).toBe('Waiting for you');
    expect(verdictView({ ...base, name: 'ask_user' }, t)).toBeNull();
  });
  it('a deny still says why', () => {
    expect(verdictView({ ...base, name: 'exit_plan_mode', verdict: 'deny', code: 'TOOL_DISABLED_IN_MODE' }, t)?.text).toBe(
      'Denied: This tool is not available in the current mode.',
    );
    expect(verdictView({ ...base, name: 'bash' }, t)?.text).toBe('Allowed');
  });
});

describe('one summary per call, from its input, the same live and after a reload', () => {
  it('is one line for every tool', () => {
    expect(callSummary('write', { path: 'hello.sh', content: '#!/bin/sh\necho hi\n' })).toBe('hello.sh');
    expect(callSummary('edit', { path: 'a.go', old_string: 'x', new_string: 'y' })).toBe('a.go');
    expect(callSummary('bash', { command: 'go test ./...\n  && echo ok' })).toBe('go test ./... && echo ok');
    expect(callSummary('grep', { pattern: 'TODO', path: 'src' })).toBe('TODO · src');
    expect(callSummary('exit_plan_mode', { plan: '# Add a cache\n\n1. Wrap it' })).toBe('Add a cache');
    expect(callSummary('ask_user', { question: 'Which\ngreeting?' })).toBe('Which greeting?');
    expect(callSummary('Read notes.md', { file_path: '/w/notes.md' })).toBe('/w/notes.md');
    expect(callSummary('mystery', { a: 1 })).toBe('{"a":1}');
  });
});

describe('callSummary of an external agent\'s shell call', () => {
  it('reads every agent\'s command shape and never shows a bare cwd', () => {
    expect(callSummary('bash', { command: 'go test ./...', cwd: '/ws', description: 'Run' })).toBe('go test ./...');
    expect(callSummary('shell', { command: ['bash', '-lc', 'rm -rf build'], cwd: '/ws' })).toBe('rm -rf build');
    expect(callSummary('shell', { command: ['git', 'status'] })).toBe('git status');
    expect(callSummary('shell', { cmd: 'make', cwd: '/ws' })).toBe('make');
    expect(callSummary('shell', { commands: [['npm', 'install'], ['npm', 'test']] })).toBe('npm install; npm test');
    expect(callSummary('terminal', { command: 'npm', args: ['run', 'build'], cwd: '/ws' })).toBe('npm run build');
    expect(callSummary('bash', { cwd: '/ws' })).toBe('');
  });
});
