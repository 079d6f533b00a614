import { useEffect, useId, useState, type FormEvent } from 'react';
import type { CheckpointSettings } from '../../bridge';
import type { AppSettings } from '../../bridge/settingsApi';
import { useT } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { describeError } from '../../ui/errors';
import { renderMessage } from '../transcript/message';
import type { AppSettingsStore } from './appSettingsStore';
import { SettingsSection } from './SettingsSection';
import { useSettingsApi } from './settingsApiContext';
import { useAction } from './useAction';
import { SettingLabel } from './SettingLabel';
import './checkpoints.css';

const MB = 1 << 20;
const GB = 1 << 30;

/** A byte count as the person reads it: 1.5 GB, 340 MB, 12 KB. */
export function formatBytes(n: number, t: TFunction): string {
  if (n >= GB) return t('settings.checkpoints.size.gb', { N: +(n / GB).toFixed(2) });
  if (n >= MB) return t('settings.checkpoints.size.mb', { N: +(n / MB).toFixed(1) });
  if (n >= 1024) return t('settings.checkpoints.size.kb', { N: Math.round(n / 1024) });
  return t('settings.checkpoints.size.b', { N: n });
}

interface Draft {
  quotaGB: string;
  maxFileMB: string;
  secrets: string;
  reviewBeforeApply: boolean;
}

function draftOf(c: CheckpointSettings): Draft {
  return {
    quotaGB: String(+(c.quota / GB).toFixed(2)),
    maxFileMB: String(+(c.maxFileSize / MB).toFixed(2)),
    secrets: (c.secrets ?? []).join('\n'),
    reviewBeforeApply: c.reviewBeforeApply,
  };
}

function usageLine(c: CheckpointSettings, t: TFunction): string {
  if (c.unavailable) return t('settings.checkpoints.unavailable', { Why: renderMessage(t, { key: `error.${c.unavailable}` }) ?? c.unavailable });
  const u = c.usage;
  if (!u) return '';
  return t('settings.checkpoints.usage', { Used: formatBytes(u.bytes, t), Quota: formatBytes(u.quota, t), Count: u.checkpoints });
}

/**
 * Checkpoints: how much they may take (the oldest go first beyond it), which files are recorded by
 * hash only, which are never stored, whether edits wait for a per-hunk review in Ask; and what
 * the store takes now.
 */
export function CheckpointsSection({ settings, store }: { settings: AppSettings; store: AppSettingsStore }) {
  const t = useT();
  const api = useSettingsApi();
  const id = useId();
  const c = settings.checkpoints;
  const [draft, setDraft] = useState<Draft | null>(c ? draftOf(c) : null);
  const [editing, setEditing] = useState(false);
  const save = useAction(async (d: Draft) =>
    store.apply(
      await api.settings.setCheckpoints({
        quota: Math.round(parseFloat(d.quotaGB) * GB),
        maxFileSize: Math.round(parseFloat(d.maxFileMB) * MB),
        secrets: d.secrets.split('\n').map((l) => l.trim()).filter(Boolean),
        reviewBeforeApply: d.reviewBeforeApply,
      }),
    ),
  );
  useEffect(() => {
    if (c && !editing) setDraft(draftOf(c));
  }, [c, editing]);
  if (!c || !draft) return null;

  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => (d ? { ...d, ...patch } : d));
    setEditing(true);
    save.clearError();
  };
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(c));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (dirty && (await save.run(draft))) setEditing(false);
  };
  return (
    <SettingsSection id="checkpoints" title={t('settings.checkpoints.title')} description={t('settings.checkpoints.description')} testId="checkpoints-section">
      <div className="setting-row">
        <div className="setting-row__label">
          <span className="setting-row__title">{t('settings.checkpoints.usageLabel')}</span>
          <p className={`setting-row__help${c.unavailable ? ' is-caution' : ''}`} data-testid="checkpoints-usage">
            {usageLine(c, t)}
          </p>
        </div>
      </div>
      <form className="settings-card__rows" onSubmit={(e) => void submit(e)} data-testid="checkpoints-form">
        <NumberSetting
          id={`${id}-quota`}
          testId="checkpoints-quota"
          title={t('settings.checkpoints.quota')}
          help={t('settings.checkpoints.quotaHelp')}
          unit={t('settings.checkpoints.unit.gb')}
          min={0.0625}
          value={draft.quotaGB}
          onChange={(quotaGB) => edit({ quotaGB })}
        />
        <NumberSetting
          id={`${id}-max`}
          testId="checkpoints-max-file"
          title={t('settings.checkpoints.maxFile')}
          help={t('settings.checkpoints.maxFileHelp')}
          unit={t('settings.checkpoints.unit.mb')}
          min={0.001}
          value={draft.maxFileMB}
          onChange={(maxFileMB) => edit({ maxFileMB })}
        />
        <div className="setting-row setting-row--stacked">
          <SettingLabel
            title={t('settings.checkpoints.secrets')}
            help={t('settings.checkpoints.secretsHelp')}
            htmlFor={`${id}-secrets`}
          />
          <textarea id={`${id}-secrets`} className="input mono checkpoints-secrets" rows={5} spellCheck={false} value={draft.secrets}
            data-testid="checkpoints-secrets" onChange={(e) => edit({ secrets: e.target.value })} />
          <button type="button" className="link-btn" data-testid="checkpoints-secrets-defaults"
            onClick={() => edit({ secrets: (c.defaultSecrets ?? []).join('\n') })}>
            {t('settings.checkpoints.secretsDefaults')}
          </button>
        </div>
        <div className="setting-row">
          <SettingLabel
            title={t('settings.checkpoints.reviewBeforeApply')}
            help={t('settings.checkpoints.reviewBeforeApplyHelp')}
            htmlFor={`${id}-review`}
          />
          <div className="setting-row__control">
            <input id={`${id}-review`} type="checkbox" checked={draft.reviewBeforeApply} data-testid="checkpoints-review-before-apply"
              onChange={(e) => edit({ reviewBeforeApply: e.target.checked })} />
          </div>
        </div>
        {save.error !== null && (
          <p className="field-error" role="alert" data-testid="checkpoints-error">
            {describeError(save.error, t)}
          </p>
        )}
        <div className="setting-row setting-row--actions">
          <button type="submit" className="btn btn--small" disabled={!dirty || save.pending} data-testid="checkpoints-save">
            {t('settings.action.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}

/** A setting row with a number box and its unit; the value is the box's text, read on save. */
function NumberSetting({
  id,
  testId,
  title,
  help,
  unit,
  min,
  value,
  onChange,
}: {
  id: string;
  testId: string;
  title: string;
  help: string;
  unit: string;
  min: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="setting-row">
      <SettingLabel title={title} help={help} htmlFor={id} />
      <div className="setting-row__control field-inline">
        <input id={id} className="input input--narrow" type="number" min={min} step="any" value={value} data-testid={testId}
          onChange={(e) => onChange(e.target.value)} />
        <span className="setting-row__unit">{unit}</span>
      </div>
    </div>
  );
}
