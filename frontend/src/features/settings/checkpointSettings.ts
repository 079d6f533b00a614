import type { CheckpointSettings, CheckpointUsage } from '../../bridge/checkpoints';
import { fieldsOf } from '../../bridge/wire';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : []);

/**
 * The checkpoint settings of a wire Settings, read defensively, as the fields to add to it; none
 * when the server sent none (the section is then not shown). Review before apply is on only when
 * the server says so.
 */
export function normalizeCheckpoints(raw: unknown): { checkpoints?: CheckpointSettings } {
  if (raw === null || typeof raw !== 'object') return {};
  const c = fieldsOf(raw);
  const u = fieldsOf(c.usage);
  const usage: CheckpointUsage | undefined = c.usage ? { bytes: num(u.bytes), quota: num(u.quota), checkpoints: num(u.checkpoints) } : undefined;
  const checkpoints: CheckpointSettings = {
    quota: num(c.quota),
    maxFileSize: num(c.maxFileSize),
    secrets: strings(c.secrets),
    defaultSecrets: strings(c.defaultSecrets),
    reviewBeforeApply: c.reviewBeforeApply === true,
    usage,
    ...(typeof c.unavailable === 'string' && c.unavailable ? { unavailable: c.unavailable } : {}),
  };
  return { checkpoints };
}
