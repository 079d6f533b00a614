import { useAppSettings } from '../settings/appSettingsStore';
import { DemoPath } from './DemoPath';
import { KeyPath } from './KeyPath';
import { LocalServerPath } from './LocalServerPath';
import './onboarding.css';

/** Opens a session in the shell, wherever the paths are shown (the onboarding or the composer). */
export function openSession(sessionId: string) {
  window.location.hash = `#/session/${encodeURIComponent(sessionId)}`;
}

/** The three ways to get a model: an API key, a local server, the offline demo. */
export function SetupPaths({ compact = false, onDemoStarted = openSession }: { compact?: boolean; onDemoStarted?: (id: string) => void }) {
  const [, store] = useAppSettings();
  return (
    <div className={`onboarding__paths${compact ? ' onboarding__paths--compact' : ''}`}>
      <KeyPath onSaved={store.apply} />
      <LocalServerPath onSaved={store.apply} />
      <DemoPath onStarted={onDemoStarted} />
    </div>
  );
}
