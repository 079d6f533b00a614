import { useEffect, useState } from 'react';
import type { Api, Settings } from '../../bridge';

/** The settings that say what the next turn runs on (provider, readiness, the command line's); null until known. */
export function useProviderSettings(api: Api): Settings | null {
  const [settings, setSettings] = useState<Settings | null>(null);
  useEffect(() => {
    let live = true;
    api.settings.get().then(
      (s) => live && setSettings(s),
      () => undefined,
    );
    const off = api.settings.onChanged((s) => setSettings(s));
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return settings;
}

/** The settings that say what a turn runs on. */
export type RunsOnSettings = Pick<Settings, 'provider' | 'providerReady' | 'commandLine'>;

/** Whether a message can be sent: the session runs on its demo or an external agent, or a model is set up. */
export function canRun(settings: RunsOnSettings | null, session: { demo?: boolean; externalAgent?: string } | null): boolean {
  if (session?.demo || session?.externalAgent) return true;
  // Unknown (not loaded, or an older server): let the server decide.
  return settings?.providerReady !== false;
}
