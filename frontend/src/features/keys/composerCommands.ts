/**
 * How the global key handler reaches the composer on screen: the session's composer registers a
 * handler while it is drawn; each command answers whether it did something.
 */
export type ComposerCommand = 'approve' | 'allowSession' | 'reject' | 'focus' | 'stop';

type Handler = (cmd: ComposerCommand) => boolean;
const handlers: Handler[] = [];

/** Registers the composer drawn now; the last registered answers. Returns the unregistration. */
export function registerComposer(h: Handler): () => void {
  handlers.push(h);
  return () => {
    const i = handlers.lastIndexOf(h);
    if (i >= 0) handlers.splice(i, 1);
  };
}

export function composerCommand(cmd: ComposerCommand): boolean {
  const h = handlers[handlers.length - 1];
  return h ? h(cmd) : false;
}
