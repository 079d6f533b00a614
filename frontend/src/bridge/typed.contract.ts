import type { Transport } from './transport';
import { typedTransport } from './typed';

/**
 * The compiler holds the page to the Go side: each marked line must fail to type-check, and
 * `tsc --noEmit` (npm run build) fails on an @ts-expect-error that finds no error. Never called;
 * it is here for the type checker only (test files are not type-checked).
 */
export function contractRefusals(t: Transport) {
  const { call, on } = typedTransport(() => t);
  // @ts-expect-error: no such method
  void call('Sessions.Nope', {});
  // @ts-expect-error: Sessions.Get takes {id}
  void call('Sessions.Get', { sessionId: 's1' });
  // @ts-expect-error: Settings.Get takes no request
  void call('Settings.Get', {});
  // @ts-expect-error: no such event
  on('tool.nope');
  // @ts-expect-error: a Session has no `name`
  void call('Sessions.Get', { id: 's1' }).then((s) => s.name);
  // @ts-expect-error: tool.progress carries a number, not a string
  on('tool.progress')((p) => p.progress.toUpperCase());
}
