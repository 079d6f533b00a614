import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeSettingsBackend } from './testing/fakeSettingsBackend';
import { renderSettingsPage } from './testing/renderSettingsPage';

describe('Settings: the step limit', () => {
  it('shows the limit, refuses one out of range in words, and saves a new one', async () => {
    const backend = new FakeSettingsBackend();
    renderSettingsPage(backend);
    const user = userEvent.setup();
    const field = await screen.findByTestId('step-limit');
    expect(field.textContent).toContain('Step limit');
    expect(field.textContent).toContain('pauses and asks whether to continue (1–10000)');
    const input = screen.getByTestId('step-limit-input') as HTMLInputElement;
    expect(input.value).toBe('200');
    await user.clear(input);
    await user.type(input, '0{Enter}');
    expect((await screen.findByTestId('step-limit-error')).textContent).toContain('not a valid step-limit');
    expect(backend.settings.stepLimit).toBe(200);
    await user.clear(input);
    await user.type(input, '500');
    await user.click(screen.getByTestId('step-limit-save'));
    await waitFor(() => expect(backend.settings.stepLimit).toBe(500));
    expect(screen.queryByTestId('step-limit-error')).toBeNull();
  });
});
