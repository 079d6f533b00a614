import type { ModeAction } from './ComposerMode';

/** The box's action row: secondary actions on the left of the primary one, which sits where Send sits. */
export function ModeActions({ actions, busy, onRun }: { actions: ModeAction[]; busy: boolean; onRun: (id: string) => void }) {
  const ghosts = actions.filter((a) => a.tone === 'ghost');
  const rest = actions.filter((a) => a.tone !== 'ghost');
  return (
    <div className="composer__actions">
      <div className="composer__actions-start">
        {ghosts.map((a) => (
          <ActionButton key={a.id} action={a} busy={busy} onRun={onRun} />
        ))}
      </div>
      <div className="composer__actions-end">
        {rest.map((a) => (
          <ActionButton key={a.id} action={a} busy={busy} onRun={onRun} />
        ))}
      </div>
    </div>
  );
}

function ActionButton({ action: a, busy, onRun }: { action: ModeAction; busy: boolean; onRun: (id: string) => void }) {
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
      onClick={() => onRun(a.id)}
    >
      {a.icon}
      <span>{a.label}</span>
    </button>
  );
}
