import type { Permission, Settings } from '../../bridge';
import { ModelLabel } from './ModelLabel';
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
  provider,
}: {
  preference: Preference;
  onPreference: (p: Preference) => void;
  permission: PermissionDisplay;
  onPermission: (p: Permission) => Promise<void> | void;
  onRetryPermission?: () => void;
  provider: Settings['provider'] | null;
}) {
  return (
    <>
      <div className="composer__controls-start">
        <ModeSelector value={preference} onChange={onPreference} />
        <PermissionPicker display={permission} onChoose={onPermission} onRetry={onRetryPermission} />
      </div>
      <div className="composer__controls-end">
        <ModelLabel provider={provider} />
      </div>
    </>
  );
}
