import type { ModeAction } from './ComposerMode';

/** The box's action row: secondary actions on the left of the primary one, which sits where Send sits. */
export function ModeActions({
  actions,
  busy,
  onRun,
  shortcuts = {},
}: {
  actions: ModeAction[];
  busy: boolean;
  onRun: (id: string) => void;
  /** The keyboard shortcut of an action, by id, as aria-keyshortcuts spells it. */
  shortcuts?: Record<string, string | undefined>;
}) {
  const ghosts = actions.filter((a) => a.tone === 'ghost');
  const rest = actions.filter((a) => a.tone !== 'ghost');
  return (
    <div className="composer__actions">
      <div className="composer__actions-start">
        {ghosts.map((a) => (
          <ActionButton key={a.id} action={a} busy={busy} onRun={onRun} keys={shortcuts[a.id]} />
        ))}
      </div>
      <div className="composer__actions-end">
        {rest.map((a) => (
          <ActionButton key={a.id} action={a} busy={busy} onRun={onRun} keys={shortcuts[a.id]} />
        ))}
      </div>
    </div>
  );
}

function ActionButton({ action: a, busy, onRun, keys }: { action: ModeAction; busy: boolean; onRun: (id: string) => void; keys?: string }) {
  const cls = {
    primary: 'btn btn--primary',
    secondary: 'btn',
    danger: 'btn btn--danger-quiet',
    ghost: 'btn btn--ghost',
  }[a.tone];
  return (
    <button
      type="button"
      className={`${cls} composer__action`}
      data-testid={a.testId}
      disabled={busy || a.disabled}
      title={a.hint}
      aria-keyshortcuts={keys}
      onClick={() => onRun(a.id)}
    >
      {a.icon}
      <span>{a.label}</span>
    </button>
  );
}
