import type { KeyboardEvent } from 'react';
import { useCaretAtEnd } from '../../../drafts/caretAtEnd';
import { AutoGrowTextarea } from '../../AutoGrowTextarea';
import type { ModeBodyProps } from '../../ComposerMode';
import { useTakeFocus } from '../../takeFocus';

/** The message box: Enter sends, Shift+Enter starts a new line (an IME composition is left alone). */
export function IdleBody({ ctx, run, busy }: ModeBodyProps<null>) {
  const { t } = ctx;
  const takeFocus = useTakeFocus();
  const caret = useCaretAtEnd<HTMLTextAreaElement>();
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      if (ctx.text.trim() !== '') run('send');
    }
  };
  return (
    <AutoGrowTextarea
      {...caret}
      className="composer__input"
      data-testid="composer-input"
      aria-label={t('composer.input.label')}
      placeholder={ctx.sessionId ? (ctx.running ? t('composer.input.placeholderRunning') : t('composer.input.placeholder')) : t('composer.input.placeholderNew')}
      value={ctx.text}
      onChange={(e) => ctx.setText(e.target.value)}
      onKeyDown={onKeyDown}
      readOnly={busy}
      autoFocus={takeFocus}
      maxRows={12}
    />
  );
}
