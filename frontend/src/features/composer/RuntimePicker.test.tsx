import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AgentFactView } from '../../bridge/generated';
import { I18nProvider } from '../../i18n/I18nProvider';
import { RuntimePicker } from './RuntimePicker';

const OPENCODE = 'opencode acp';
const CODEX = 'npx @zed-industries/codex-acp';
const CLAUDE = 'npx @zed-industries/claude-code-acp';

const facts: AgentFactView[] = [
  {
    command: OPENCODE,
    calls: 3,
    asked: false,
    modes: [
      { id: 'build', name: 'build' },
      { id: 'plan', name: 'plan' },
    ],
    planMode: 'plan',
    at: '2026-12-05T00:00:00Z',
  },
  {
    command: CODEX,
    calls: 2,
    asked: true,
    modes: [
      { id: 'read-only', name: 'Read Only' },
      { id: 'auto', name: 'Default' },
      { id: 'full-access', name: 'Full Access' },
    ],
    planMode: 'read-only',
    at: '2026-12-05T00:00:00Z',
  },
];

const reach = [{ command: OPENCODE, hosts: ['localhost:11434', 'models.dev'], folders: ['~/.config/opencode'], saved: true }];

async function open(value: string, lang: 'en' | 'zh-CN' = 'en', sandboxed = true) {
  render(
    <I18nProvider lang={lang}>
      <RuntimePicker value={value} agents={[OPENCODE, CODEX, CLAUDE]} facts={facts} reach={reach} sandboxed={sandboxed} onChange={() => {}} />
    </I18nProvider>,
  );
  await userEvent.setup().click(screen.getByTestId('runtime-picker'));
  const option = (command: string) => screen.getAllByTestId('runtime-option').find((o) => o.getAttribute('data-agent') === command)!;
  return option;
}

describe('RuntimePicker: the truth about each agent', () => {
  it('warns plainly about an agent that did not ask before its last changes', async () => {
    const option = await open(OPENCODE);
    const asking = option(OPENCODE).querySelector('[data-testid="runtime-asking"]')!;
    expect(asking.getAttribute('data-asking')).toBe('never');
    expect(asking.textContent).toContain('It did not ask before its last changes: in Ask and read-only modes the sandbox keeps them out');
    expect(screen.getByTestId('runtime-never-asks')).toBeTruthy();
    expect(screen.getByTestId('runtime-picker').getAttribute('title')).toContain('the sandbox keeps them out of your folder');
    expect(option(OPENCODE).querySelector('[data-testid="runtime-held"]')!.getAttribute('data-held')).toBe('sandboxed');
    expect(option(OPENCODE).textContent).toContain('Can reach: localhost:11434, models.dev');
  });

  it('says why, where no sandbox can hold an agent: it runs only with Full access', async () => {
    const option = await open(CODEX, 'en', false);
    const held = option(CODEX).querySelector('[data-testid="runtime-held"]')!;
    expect(held.getAttribute('data-held')).toBe('fullOnly');
    expect(held.getAttribute('role')).toBe('note');
    expect(held.textContent).toBe('This system has no sandbox to hold external agents, so they run only with Full access');
    expect(screen.getByTestId('runtime-never-asks')).toBeTruthy();
  });

  it("says an agent asked, lists its modes and maps Smart · Plan to codex's read-only", async () => {
    const option = await open(CODEX);
    const el = option(CODEX);
    expect(el.querySelector('[data-testid="runtime-asking"]')!.getAttribute('data-asking')).toBe('asked');
    expect(el.textContent).toContain('Asked for permission before its calls in its last session');
    expect(el.textContent).toContain('Its modes: Read Only, Default, Full Access');
    expect(el.textContent).toContain('Smart · Plan runs it in its Read Only mode');
    expect(screen.queryByTestId('runtime-never-asks')).toBeNull();
    expect(el.textContent).toContain('Runs in the sandbox');
  });

  it('claims nothing about an agent it has not seen run', async () => {
    const option = await open('');
    const el = option(CLAUDE);
    expect(el.querySelector('[data-testid="runtime-asking"]')!.getAttribute('data-asking')).toBe('unknown');
    expect(el.textContent).toContain('Not run yet');
    expect(el.textContent).not.toContain('Asked for permission');
  });

  it('speaks Chinese too', async () => {
    const option = await open(OPENCODE, 'zh-CN');
    expect(option(OPENCODE).textContent).toContain('沙箱会把这些修改挡在你的文件夹之外');
  });
});
