import { useId, useState } from 'react';
import { OVERRIDES } from '../../bridge';
import { useT } from '../../i18n/I18nProvider';
import { ChevronDownIcon, ChevronRightIcon } from '../../ui/icons';
import { MenuRadioItem } from './MenuRadioItem';
import { choose, currentChoice, preferenceLabelKey, type Preference, type SelectorChoice } from './selector';
import { useMenu } from './useMenu';

/**
 * Smart and Chat, then Advanced… with the overrides (R-MODE-1). The label reads "Smart · Plan"
 * for an override; plain Smart clears it. The change applies to the next message.
 */
export function ModeSelector({
  value,
  onChange,
  disabled,
  allowChat = true,
}: {
  value: Preference;
  onChange: (p: Preference) => void;
  disabled?: boolean;
  /** False for an external agent: AgentDesk cannot enforce Chat's no-tool contract there (R-ACP-2). */
  allowChat?: boolean;
}) {
  const t = useT();
  const menu = useMenu();
  const id = useId();
  const checked = currentChoice(value);
  const [advanced, setAdvanced] = useState(false);
  const showAdvanced = advanced || (checked !== 'smart' && checked !== 'chat');

  const pick = (c: SelectorChoice) => {
    menu.close();
    onChange(choose(c));
  };

  const item = (c: SelectorChoice, label: string, hint?: string) => (
    <MenuRadioItem key={c} checked={checked === c} label={label} hint={hint} testId={`mode-option-${c}`} onPick={() => pick(c)} />
  );

  return (
    <div className="control" ref={menu.rootRef}>
      <button
        {...menu.buttonProps(id)}
        className="control__button"
        data-testid="mode-selector"
        data-interaction={value.interactionMode}
        data-override={value.executionOverride}
        aria-label={t('composer.selector.aria', { Mode: t(preferenceLabelKey(value)) })}
        title={t('composer.selector.shortcut')}
        disabled={disabled}
      >
        <span className="control__value">{t(preferenceLabelKey(value))}</span>
        <ChevronDownIcon size={14} />
      </button>
      {menu.open && (
        <div id={id} ref={menu.menuRef} role="menu" className="menu" aria-label={t('composer.selector.menu')} onKeyDown={menu.onMenuKeyDown}>
          {item('smart', t('mode.label.smart'), t('composer.selector.smartHint'))}
          {allowChat && item('chat', t('mode.label.chat'), t('composer.selector.chatHint'))}
          <div className="menu__sep" role="separator" />
          <button
            type="button"
            role="menuitem"
            className="menu__item menu__item--toggle"
            aria-expanded={showAdvanced}
            data-testid="mode-advanced"
            onClick={() => setAdvanced(!showAdvanced)}
          >
            <span className="menu__check">{showAdvanced ? <ChevronDownIcon size={14} /> : <ChevronRightIcon size={14} />}</span>
            <span className="menu__label">{t('composer.selector.advanced')}</span>
          </button>
          {showAdvanced && (
            <div role="group" aria-label={t('composer.selector.advanced')} className="menu__group">
              {OVERRIDES.map((o) => item(o, t(`mode.label.${o}`), t(`composer.selector.hint.${o}`)))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
