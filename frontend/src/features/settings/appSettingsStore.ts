import { useEffect } from 'react';
import { LANGUAGES, type Language } from '../../bridge';
import {
  PERMISSIONS,
  THEMES,
  type AppSettings,
  type KeySource,
  type Permission,
  type ProviderKind,
  type SandboxSupport,
  type SettingsApi,
  type Theme,
} from '../../bridge/settingsApi';
import { fieldsOf } from '../../bridge/wire';
import { normalizeCheckpoints } from './checkpointSettings';
import { createStore, useStore } from '../../ui/store';
import { useSettingsApi } from './settingsApiContext';

export interface AppSettingsState {
  status: 'loading' | 'ready' | 'error';
  settings: AppSettings | null;
  /** Why loading failed (status 'error'). */
  error: unknown;
}

const PROVIDER_KINDS: readonly ProviderKind[] = ['', 'anthropic', 'openai', 'demo'];
const KEY_SOURCES: readonly KeySource[] = ['', 'env', 'keyring'];

function oneOf<T>(allowed: readonly T[], v: unknown, fallback: T): T {
  return allowed.includes(v as T) ? (v as T) : fallback;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Reads a wire Settings defensively: a missing or unknown field never breaks the page. */
export function normalizeSettings(raw: unknown): AppSettings {
  const r = fieldsOf(raw);
  const p = fieldsOf(r.provider);
  const keys = fieldsOf(p.keys);
  return {
    language: oneOf<Language>(LANGUAGES, r.language, 'en'),
    defaultPermission: oneOf<Permission>(PERMISSIONS, r.defaultPermission, 'ask'),
    decisionTimeout: str(r.decisionTimeout),
    // An older server that does not send it shows no field rather than a made-up limit.
    ...(typeof r.stepLimit === 'number' && r.stepLimit > 0 ? { stepLimit: r.stepLimit } : {}),
    ...(typeof r.parallelTurns === 'number' && r.parallelTurns >= 0 ? { parallelTurns: r.parallelTurns } : {}),
    ...(['busy', 'always', 'never'].includes(String(r.worktreeIsolation)) ? { worktreeIsolation: String(r.worktreeIsolation) } : {}),
    // A server that does not send them shows no field, never an empty setting it did not say.
    ...(Array.isArray(r.worktreeCopy) ? { worktreeCopy: strings(r.worktreeCopy) } : {}),
    ...(typeof r.worktreeSetup === 'string' ? { worktreeSetup: r.worktreeSetup } : {}),
    theme: oneOf<Theme>(THEMES, r.theme, 'system'),
    provider: {
      kind: oneOf(PROVIDER_KINDS, p.kind, ''),
      model: str(p.model),
      baseUrl: str(p.baseUrl),
      keys: { anthropic: oneOf(KEY_SOURCES, keys.anthropic, ''), openai: oneOf(KEY_SOURCES, keys.openai, '') },
    },
    // Only an explicit false asks for onboarding: never nag on a server that does not say.
    providerReady: r.providerReady !== false,
    externalAgents: strings(r.externalAgents),
    // Without facts every agent reads as not seen yet: nothing is claimed about it.
    ...(Array.isArray(r.agentFacts) ? { agentFacts: r.agentFacts.filter((f) => f && typeof f.command === 'string') } : {}),
    ...(Array.isArray(r.agentReach)
      ? {
          agentReach: r.agentReach
            .filter((x) => x && typeof x.command === 'string')
            .map((x) => ({ command: x.command, hosts: strings(x.hosts), folders: strings(x.folders), saved: x.saved === true })),
        }
      : {}),
    shellEnvPassthrough: strings(r.shellEnvPassthrough),
    // An older server that does not send the list keeps it unknown, never an empty list: the
    // page must not say nothing is sensitive when it was not told.
    ...(Array.isArray(r.sensitivePaths) ? { sensitivePaths: strings(r.sensitivePaths) } : {}),
    ...(Array.isArray(r.defaultSensitivePaths) ? { defaultSensitivePaths: strings(r.defaultSensitivePaths) } : {}),
    sandbox: normalizeSandbox(r.sandbox),
    commandLine: commandLineOf(r.commandLine),
    ...normalizeCheckpoints(r.checkpoints),
  };
}

function commandLineOf(raw: unknown): AppSettings['commandLine'] {
  const c = fieldsOf(raw);
  return typeof c.kind === 'string' && c.kind ? { kind: c.kind, model: str(c.model) } : null;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : []);

/** Anything but a Landlock report reads as no sandbox: the page never claims a confinement it was not told of. */
function normalizeSandbox(raw: unknown): SandboxSupport {
  const s = fieldsOf(raw);
  const abi = typeof s.abi === 'number' ? s.abi : 0;
  if (s.kind !== 'landlock' || abi <= 0) return { kind: 'none', abi: 0, network: false, protect_git: false, reason: str(s.reason) };
  const out: SandboxSupport = { kind: 'landlock', abi, network: s.network === true, protect_git: s.protect_git === true };
  if (s.namespaces === true) out.namespaces = true;
  const uncovered = strings(s.uncovered);
  if (uncovered.length) out.uncovered = uncovered;
  const view = fieldsOf(s.view);
  if (out.namespaces) out.view = { read_only: strings(view.read_only), read_write: strings(view.read_write) };
  return out;
}

/**
 * Every setting, loaded by request and kept current by `settings.changed` (from this window or any
 * other). One store per API, shared by every component that reads settings; it listens while used.
 */
export function createAppSettingsStore(api: SettingsApi) {
  const store = createStore<AppSettingsState>({ status: 'loading', settings: null, error: null });
  let users = 0;
  let stop: (() => void) | null = null;

  const apply = (raw: unknown) => store.set((s) => ({ ...s, status: 'ready', settings: normalizeSettings(raw), error: null }));

  async function load() {
    store.set((s) => (s.status === 'error' ? { ...s, status: 'loading', error: null } : s));
    try {
      apply(await api.settings.get());
    } catch (error) {
      // A failed refresh keeps what is already shown.
      store.set((s) => (s.status === 'ready' ? s : { ...s, status: 'error', error }));
    }
  }

  return {
    ...store,
    load,
    /** Applies settings a call returned (the broadcast may follow; both carry the same state). */
    apply,
    /** Starts listening for the first user; the returned function stops after the last one. */
    start(): () => void {
      if (users++ === 0) {
        const offs = [api.settings.onChanged(apply), api.onReconnect(() => void load())];
        stop = () => offs.forEach((off) => off());
        void load();
      }
      return () => {
        if (--users === 0) {
          stop?.();
          stop = null;
        }
      };
    },
  };
}

export type AppSettingsStore = ReturnType<typeof createAppSettingsStore>;

const stores = new WeakMap<SettingsApi, AppSettingsStore>();

export function appSettingsStoreFor(api: SettingsApi): AppSettingsStore {
  let s = stores.get(api);
  if (!s) stores.set(api, (s = createAppSettingsStore(api)));
  return s;
}

/** The current settings and the store that holds them (to reload or apply a call's result). */
export function useAppSettings(): [AppSettingsState, AppSettingsStore] {
  const store = appSettingsStoreFor(useSettingsApi());
  useEffect(() => store.start(), [store]);
  return [useStore(store), store];
}
