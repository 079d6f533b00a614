import { useT } from '../../i18n/I18nProvider';
import { describeError } from '../../ui/errors';
import { Spinner } from '../../ui/Spinner';
import { useSettingsApi } from '../settings/settingsApiContext';
import { useAction } from '../settings/useAction';
import { PlayCircleIcon } from '../../ui/icons';
import { PathCard } from './PathCard';

/** Path three: the offline demo, a scripted Smart · Plan session that needs no key or network. */
export function DemoPath({ onStarted }: { onStarted: (sessionId: string) => void }) {
  const t = useT();
  const api = useSettingsApi();
  const start = useAction(async () => onStarted((await api.settings.startDemo()).id));
  return (
    <PathCard id="demo" icon={<PlayCircleIcon />} title={t('onboarding.demo.title')} text={t('onboarding.demo.text')}>
      {start.error !== null && (
        <p className="field-error" role="alert" data-testid="onboarding-demo-error">
          {describeError(start.error, t)}
        </p>
      )}
      <button
        type="button"
        className="btn path-card__action"
        disabled={start.pending}
        onClick={() => void start.run()}
        data-testid="onboarding-demo"
      >
        {start.pending && <Spinner label={t('onboarding.demo.starting')} size={14} />}
        {start.pending ? t('onboarding.demo.starting') : t('onboarding.demo.start')}
      </button>
    </PathCard>
  );
}
