import type { Rule } from '../../bridge/settingsApi';
import { useI18n } from '../../i18n/I18nProvider';
import type { TFunction } from '../../i18n/translate';
import { Spinner } from '../../ui/Spinner';

/** What a rule matches, in words: "Run commands" and the command, or "Edit files" and the path. */
export function ruleSubject(rule: Rule, t: TFunction): { what: string; pattern: string } {
  const kindKey = `settings.rules.kind.${rule.kind || 'any'}`;
  const kind = t(kindKey);
  const what = kind === kindKey ? rule.kind : kind;
  const subject = rule.command || rule.path || (rule.mcp ? `mcp:${rule.mcp}` : '');
  // A prefix rule also matches whatever follows it; say so where the rule is shown.
  return { what, pattern: rule.scope === 'prefix' && subject ? `${subject} …` : subject };
}

/** Where a rule came from: "approval:<session>" is an Always-allow answer; unknown sources show as written. */
function ruleSource(source: string, t: TFunction): string {
  const prefix = source.split(':')[0] ?? '';
  const key = `settings.rules.source.${prefix || 'unknown'}`;
  const text = t(key);
  return text === key ? source : text;
}

function formatDate(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(lang, { dateStyle: 'medium' }).format(d);
}

export function RuleItem({ rule, revoking, onRevoke }: { rule: Rule; revoking: boolean; onRevoke: () => void }) {
  const { t, lang } = useI18n();
  const { what, pattern } = ruleSubject(rule, t);
  const date = formatDate(rule.createdAt, lang);
  const source = ruleSource(rule.source, t);
  return (
    <li className="rule-item" data-testid="rule-item" data-rule-id={rule.id}>
      <div className="rule-item__main">
        <div className="rule-item__line">
          <span className={`badge badge--${rule.effect === 'allow' ? 'allow' : 'deny'}`} data-testid="rule-effect">
            {t(`settings.rules.effect.${rule.effect === 'allow' ? 'allow' : 'deny'}`)}
          </span>
          <span className="rule-item__what" data-testid="rule-kind">
            {what}
          </span>
        </div>
        <code className="rule-item__pattern" data-testid="rule-pattern" title={pattern || undefined}>
          {pattern || t('settings.rules.anything')}
        </code>
        <span className="rule-item__meta" data-testid="rule-source">
          {date ? t('settings.rules.sourceOn', { Source: source, Date: date }) : source}
        </span>
      </div>
      <button
        type="button"
        className="btn btn--small rule-item__revoke"
        onClick={onRevoke}
        disabled={revoking}
        aria-label={t('settings.rules.revokeNamed', { What: what, Pattern: pattern || t('settings.rules.anything') })}
        data-testid="revoke-rule"
      >
        {revoking ? <Spinner label={t('settings.rules.revoking')} size={12} /> : t('settings.rules.revoke')}
      </button>
    </li>
  );
}
