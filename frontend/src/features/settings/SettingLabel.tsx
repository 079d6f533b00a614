import type { ReactNode } from 'react';

/**
 * A setting row's title and the help under it. With `htmlFor` the title is the control's <label>;
 * without, a <span> that `titleId` lets a group name itself by. `helpId` lets the control point at
 * the help (aria-describedby).
 */
export function SettingLabel({
  title,
  help,
  htmlFor,
  titleId,
  helpId,
}: {
  title: ReactNode;
  help: ReactNode;
  htmlFor?: string;
  titleId?: string;
  helpId?: string;
}) {
  return (
    <div className="setting-row__label">
      {htmlFor ? (
        <label htmlFor={htmlFor} className="setting-row__title" id={titleId}>
          {title}
        </label>
      ) : (
        <span className="setting-row__title" id={titleId}>
          {title}
        </span>
      )}
      <p className="setting-row__help" id={helpId}>
        {help}
      </p>
    </div>
  );
}
