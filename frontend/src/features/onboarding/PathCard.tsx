import type { ReactNode } from 'react';

/** One way to get started: an icon, a short title and line, then its controls. */
export function PathCard({
  id,
  icon,
  title,
  text,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  text: string;
  children: ReactNode;
}) {
  return (
    <section className="path-card" aria-labelledby={`${id}-title`} data-testid={`onboarding-path-${id}`}>
      <div className="path-card__icon">{icon}</div>
      <h2 id={`${id}-title`} className="path-card__title">
        {title}
      </h2>
      <p className="path-card__text">{text}</p>
      <div className="path-card__body">{children}</div>
    </section>
  );
}
