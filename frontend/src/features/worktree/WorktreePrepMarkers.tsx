import { useState } from 'react';
import type { WorktreeCopiedItem, WorktreeSetupItem } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import './worktree.css';

/**
 * What the person's worktree-copy setting brought into the new worktree: the files copied, and
 * each one skipped with why (a link, a secret no entry named, too large…), so nothing is silently
 * missing.
 */
export function WorktreeCopiedMarker({ item }: { item: WorktreeCopiedItem }) {
  const t = useT();
  const c = item.copied;
  const files = c.files ?? [];
  const skipped = c.skipped ?? [];
  return (
    <div className="worktree-prep" role="note" data-testid="worktree-copied">
      <p className="worktree-prep__head">{t('worktree.copied.title', { Count: files.length })}</p>
      {files.length > 0 && <p className="worktree-prep__files mono">{files.join(', ')}</p>}
      {skipped.map((s) => (
        <p className="worktree-prep__skipped" key={s.path} data-testid="worktree-copy-skipped" data-reason={s.reason}>
          {t(`worktree.copied.skipped.${s.reason}`, { Path: s.path })}
        </p>
      ))}
      {c.leftOver > 0 && (
        <p className="worktree-prep__skipped" data-testid="worktree-copy-left-over">
          {t('worktree.copied.leftOver', { Count: c.leftOver, Max: c.maxFiles })}
        </p>
      )}
    </div>
  );
}

/** How a set-up command in the new worktree ended: its text, where it came from, its exit and the end of its output. */
export function WorktreeSetupMarker({ item }: { item: WorktreeSetupItem }) {
  const t = useT();
  const [open, setOpen] = useState(item.setup.failed);
  const s = item.setup;
  const seconds = Math.round(s.durationMs / 100) / 10;
  const outcome = s.error
    ? t(`error.${s.error}`)
    : s.timedOut
      ? t('worktree.setup.timedOut', { Seconds: seconds })
      : s.cancelled
        ? t('worktree.setup.cancelled')
        : t(s.failed ? 'worktree.setup.failed' : 'worktree.setup.done', { Code: s.exitCode, Seconds: seconds });
  return (
    <div className={`worktree-prep${s.failed ? ' is-failed' : ''}`} role="note" data-testid="worktree-setup" data-failed={s.failed}>
      <p className="worktree-prep__head">
        {t(s.source === 'repository' ? 'worktree.setup.fromRepository' : 'worktree.setup.fromSettings')}{' '}
        <code className="mono" data-testid="worktree-setup-command">{s.command}</code>
      </p>
      <p className="worktree-prep__outcome" data-testid="worktree-setup-outcome">
        {outcome}
        {s.output !== '' && (
          <button type="button" className="link-btn" aria-expanded={open} data-testid="worktree-setup-toggle" onClick={() => setOpen(!open)}>
            {t(open ? 'worktree.setup.hideOutput' : 'worktree.setup.showOutput')}
          </button>
        )}
      </p>
      {open && s.output !== '' && <pre className="worktree-prep__output mono" data-testid="worktree-setup-output">{s.output}</pre>}
    </div>
  );
}
