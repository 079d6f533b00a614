import type { ReactNode } from 'react';

/** One card of the Settings page: a title, an optional one-line description, then its rows. */
export function SettingsSection({
  id,
  title,
  description,
  children,
  testId,
}: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section className="settings-card" aria-labelledby={`${id}-heading`} data-testid={testId}>
      <header className="settings-card__head">
        <h2 id={`${id}-heading`} className="settings-card__title">
          {title}
        </h2>
        {description && <p className="settings-card__description">{description}</p>}
      </header>
      <div className="settings-card__rows">{children}</div>
    </section>
  );
}
