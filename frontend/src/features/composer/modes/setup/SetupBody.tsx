import { useEffect } from 'react';
import { SetupPaths } from '../../../onboarding/SetupPaths';
import { useAppSettings } from '../../../settings/appSettingsStore';
import type { ModeBodyProps } from '../../ComposerMode';

/**
 * Send with no model to send to: the box says what is missing and offers the set-up in place —
 * an API key, a local server, or the offline demo. The message stays in the box; once a model is
 * ready the box goes back to it, and nothing was created meanwhile.
 */
export function SetupBody({ ctx }: ModeBodyProps<null>) {
  const { t } = ctx;
  const [{ settings }] = useAppSettings();
  const ready = settings?.providerReady === true;
  useEffect(() => {
    if (ready) ctx.closeSetup();
  }, [ready, ctx]);
  return (
    <div className="decision decision--setup" data-testid="setup">
      <p className="decision__lead" data-testid="setup-lead">
        {t('composer.setup.lead')}
      </p>
      <SetupPaths compact />
    </div>
  );
}
