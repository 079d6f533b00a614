import { BridgeError, TRANSPORT } from '../bridge';
import type { TFunction } from '../i18n/translate';

/**
 * The text to show for a failed call: the server's localized message; for failures the frontend
 * detects itself (no server reached, no message) the shared `error.<KIND>` message.
 */
export function describeError(err: unknown, t: TFunction): string {
  if (err instanceof BridgeError) {
    if (err.kind === TRANSPORT) return t('error.TRANSPORT');
    if (err.message && err.message !== err.kind) return err.message;
    const key = `error.${err.kind}`;
    const text = t(key, err.args as Record<string, string | number>);
    if (text !== key) return text;
  }
  return t('error.INTERNAL');
}
