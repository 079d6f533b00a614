import { Fragment } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { actionLabel, chordKeys, KEYMAP } from './keymap';
import './keys.css';

/** The keyboard map, read-only: what each shortcut does and its keys. The sheet and Settings show this. */
export function KeymapList({ testId }: { testId?: string }) {
  const t = useT();
  return (
    <dl className="keymap" aria-label={t('shell.keys.listLabel')} data-testid={testId}>
      {KEYMAP.map((b) => (
        <div key={b.action} className="keymap__row" data-testid="keymap-row" data-action={b.action}>
          <dt className="keymap__label">{actionLabel(b.action, t)}</dt>
          <dd className="keymap__keys">
            {chordKeys(b.chord, t).map((k, i) => (
              <Fragment key={i}>
                {i > 0 && <span aria-hidden="true">+</span>}
                <kbd className="keymap__key">{k}</kbd>
              </Fragment>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}
