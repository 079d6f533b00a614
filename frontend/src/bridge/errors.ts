/** A failed bridge call: a stable kind (asserted by tests, translated by the server) and its message. */
export class BridgeError extends Error {
  readonly kind: string;
  readonly args: Record<string, unknown>;

  constructor(kind: string, message: string, args: Record<string, unknown> = {}) {
    super(message);
    this.name = 'BridgeError';
    this.kind = kind;
    this.args = args;
  }
}

/** Kinds produced by the frontend itself; every other kind comes from the Go side. */
export const TRANSPORT = 'TRANSPORT';
export const INTERNAL = 'INTERNAL';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads `{kind, message, args}`; returns null when the value does not have that shape. */
export function errorFromPayload(payload: unknown): BridgeError | null {
  if (!isRecord(payload) || typeof payload.kind !== 'string' || payload.kind === '') return null;
  const message = typeof payload.message === 'string' ? payload.message : payload.kind;
  const args = isRecord(payload.args) ? payload.args : {};
  return new BridgeError(payload.kind, message, args);
}

/** Maps whatever a Wails binding rejected with (normally a JSON string) to a BridgeError. */
export function errorFromWailsRejection(reason: unknown): BridgeError {
  if (reason instanceof BridgeError) return reason;
  if (typeof reason === 'string') {
    try {
      const parsed = errorFromPayload(JSON.parse(reason));
      if (parsed) return parsed;
    } catch {
      // not JSON: the message is the string itself
    }
    return new BridgeError(INTERNAL, reason);
  }
  if (reason instanceof Error) return new BridgeError(INTERNAL, reason.message);
  return new BridgeError(INTERNAL, String(reason));
}

/** Maps the body of a non-2xx HTTP answer (`{"error": {...}}`) to a BridgeError. */
export function errorFromHttpBody(status: number, statusText: string, body: string): BridgeError {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isRecord(parsed)) {
      const err = errorFromPayload(parsed.error);
      if (err) return err;
    }
  } catch {
    // not JSON
  }
  const text = body.trim() || `${status} ${statusText}`.trim();
  return new BridgeError(INTERNAL, text, { status });
}
