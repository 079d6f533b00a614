import { useCallback, useEffect, useState } from 'react';
import type { Api } from '../bridge';
import type { InfoState } from '../features/settings/AboutSection';

export function useSystemInfo(api: Api): [InfoState, () => void] {
  const [state, setState] = useState<InfoState>({ status: 'loading' });
  const load = useCallback(() => {
    setState({ status: 'loading' });
    api.system.info().then(
      (info) => setState({ status: 'ready', info }),
      (error: unknown) => setState({ status: 'error', error }),
    );
  }, [api]);
  useEffect(load, [load]);
  return [state, load];
}
