import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { BridgeError } from '../../bridge/errors';
import type { CheckpointSettings } from '../../bridge';
import type { FakeRequest } from '../../test/fakeTransportBase';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

const GB = 1 << 30;
const MB = 1 << 20;

function checkpoints(patch: Partial<CheckpointSettings> = {}): CheckpointSettings {
  return {
    quota: 2 * GB,
    maxFileSize: 10 * MB,
    secrets: ['.env*', '*.pem'],
    defaultSecrets: ['.env*', '*.pem', 'id_*'],
    reviewBeforeApply: false,
    usage: { bytes: 340 * MB, quota: 2 * GB, checkpoints: 12 },
    ...patch,
  };
}

/** The fake with Settings.SetCheckpoints as the Go facade has it: a quota above 1 TB is refused. */
class CheckpointBackend extends FakeSettingsBackend {
  protected override handle(method: string, req: FakeRequest): unknown {
    if (method !== 'Settings.SetCheckpoints') return super.handle(method, req);
    const r = req as unknown as { quota: number; maxFileSize: number; secrets: string[]; reviewBeforeApply: boolean };
    if (r.quota > 1024 * GB) throw new BridgeError('INVALID_VALUE', `“${r.quota}” is not a valid quota. Allowed: 64 MB – 1 TB.`, { Field: 'quota', Value: String(r.quota), Allowed: '64 MB – 1 TB' });
    this.settings.checkpoints = { ...this.settings.checkpoints!, ...r, usage: { ...this.settings.checkpoints!.usage!, quota: r.quota } };
    return super.handle('Settings.Get', {});
  }
}

describe('Settings: checkpoints', () => {
  it('shows the space used against the quota, and saves the quota, the large-file limit, the secrets and review before apply', async () => {
    const backend = new CheckpointBackend({ settings: { checkpoints: checkpoints() } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    expect((await screen.findByTestId('checkpoints-usage')).textContent).toBe('340 MB of 2 GB · checkpoints: 12');

    const quota = screen.getByTestId('checkpoints-quota');
    await user.clear(quota);
    await user.type(quota, '1.5');
    const max = screen.getByTestId('checkpoints-max-file');
    await user.clear(max);
    await user.type(max, '25');
    await user.click(screen.getByTestId('checkpoints-secrets-defaults'));
    await user.click(screen.getByTestId('checkpoints-review-before-apply'));
    await user.click(screen.getByTestId('checkpoints-save'));
    await waitFor(() => expect(backend.called('Settings.SetCheckpoints')).toHaveLength(1));
    expect(backend.called('Settings.SetCheckpoints')[0]!.req).toEqual({
      quota: 1.5 * GB,
      maxFileSize: 25 * MB,
      secrets: ['.env*', '*.pem', 'id_*'],
      reviewBeforeApply: true,
    });
    await waitFor(() => expect(screen.getByTestId('checkpoints-usage').textContent).toBe('340 MB of 1.5 GB · checkpoints: 12'));
    expect(screen.getByTestId('checkpoints-save')).toHaveProperty('disabled', true);
  });

  it('shows a value the server refuses as it says it, and keeps what was saved', async () => {
    const backend = new CheckpointBackend({ settings: { checkpoints: checkpoints() } });
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const quota = await screen.findByTestId('checkpoints-quota');
    await user.clear(quota);
    await user.type(quota, '2000');
    await user.click(screen.getByTestId('checkpoints-save'));
    expect((await screen.findByTestId('checkpoints-error')).textContent).toContain('64 MB – 1 TB');
    expect(backend.settings.checkpoints!.quota).toBe(2 * GB);
  });

  it('says why checkpoints are off', async () => {
    renderSettingsPage(new CheckpointBackend({ settings: { checkpoints: checkpoints({ usage: undefined, unavailable: 'CHECKPOINTS_UNAVAILABLE' }) } }), 'zh-CN');
    const line = await screen.findByTestId('checkpoints-usage');
    expect(line.textContent).toContain('检查点已关闭');
    expect(line.textContent).not.toContain('CHECKPOINTS_UNAVAILABLE');
  });
});
