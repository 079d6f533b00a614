import type { ReactNode } from 'react';
import type { Permission, Settings } from '../../bridge';
import { markModeCycleUsed } from '../keys/modeCycle';
import { ModelLabel, type RunsOn } from './ModelLabel';
import { ModeSelector } from './ModeSelector';
import type { PermissionDisplay } from './permission';
import { PermissionPicker } from './PermissionPicker';
import type { Preference } from './selector';

/** The row under the box that never moves: mode selector, permission picker, model. */
export function ControlsRow({
  preference,
  onPreference,
  permission,
  onPermission,
  onRetryPermission,
  settings,
  runsOn = null,
  runtime,
}: {
  preference: Preference;
  onPreference: (p: Preference) => void;
  permission: PermissionDisplay;
  onPermission: (p: Permission) => Promise<void> | void;
  onRetryPermission?: () => void;
  settings: Settings | null;
  runsOn?: RunsOn | null;
  /** The new task's runtime picker; absent in a session, whose runtime is fixed. */
  runtime?: ReactNode;
}) {
  return (
    <>
      <div className="composer__controls-start">
        {runtime}
        <ModeSelector
          value={preference}
          onChange={(p) => {
            markModeCycleUsed();
            onPreference(p);
          }}
          allowChat={!runsOn?.externalAgent}
        />
        <PermissionPicker display={permission} onChoose={onPermission} onRetry={onRetryPermission} />
      </div>
      <div className="composer__controls-end">
        <ModelLabel settings={settings} session={runsOn} />
      </div>
    </>
  );
}
