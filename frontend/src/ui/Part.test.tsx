import { act, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '../i18n/I18nProvider';
import { loadable } from './loadable';
import { Part } from './Part';

/** An importer the test settles by hand, counting how often it was asked. */
function manualImport<M>() {
  const calls: { resolve: (m: M) => void; reject: (e: unknown) => void }[] = [];
  const importer = () => new Promise<M>((resolve, reject) => calls.push({ resolve, reject }));
  return { importer, calls };
}

const draw = (part: ReturnType<typeof loadable<{ Hello: () => ReactNode }>>) =>
  render(
    <I18nProvider lang="en">
      <Part part={part} fallback={<p data-testid="waiting" />}>
        {({ Hello }) => <Hello />}
      </Part>
    </I18nProvider>,
  );

const Hello = () => <p data-testid="hello">hello</p>;

describe('a part in a chunk of its own', () => {
  it('shows the fallback until the chunk is loaded, then the part; once loaded it draws at once and is not fetched again', async () => {
    const { importer, calls } = manualImport<{ Hello: typeof Hello }>();
    const part = loadable(importer);
    const first = draw(part);
    expect(screen.getByTestId('waiting')).toBeTruthy();
    expect(calls).toHaveLength(1);
    await act(async () => calls[0]!.resolve({ Hello }));
    expect(screen.getByTestId('hello')).toBeTruthy();
    first.unmount();

    draw(part);
    expect(screen.getByTestId('hello')).toBeTruthy();
    expect(screen.queryByTestId('waiting')).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('a chunk that cannot be fetched shows why, and Retry fetches it again', async () => {
    const { importer, calls } = manualImport<{ Hello: typeof Hello }>();
    const part = loadable(importer);
    draw(part);
    await act(async () => calls[0]!.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(screen.getByTestId('part-error').textContent).toContain('AgentDesk could not be reached.');
    expect(screen.queryByTestId('hello')).toBeNull();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(calls).toHaveLength(2);
    expect(screen.getByTestId('waiting')).toBeTruthy();
    await act(async () => calls[1]!.resolve({ Hello }));
    expect(screen.getByTestId('hello')).toBeTruthy();
  });
});
