import { useEffect, useState } from 'react';
import type { Api, Settings } from '../../bridge';

/** The provider and model the next turn uses, as Settings reports them; null until known. */
export function useProviderSettings(api: Api): Settings['provider'] | null {
  const [provider, setProvider] = useState<Settings['provider'] | null>(null);
  useEffect(() => {
    let live = true;
    api.settings.get().then(
      (s) => live && setProvider(s.provider ?? null),
      () => undefined,
    );
    const off = api.settings.onChanged((s) => setProvider(s.provider ?? null));
    return () => {
      live = false;
      off();
    };
  }, [api]);
  return provider;
}
