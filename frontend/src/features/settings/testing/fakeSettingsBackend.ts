import { BridgeError } from '../../../bridge/errors';
import type { AppSettings, LocalServer, Rule } from '../../../bridge/settingsApi';
import { createSettingsApi, type SettingsApi } from '../../../bridge/settingsApi';
import type { EventCallback, Transport } from '../../../bridge/transport';

export function defaultSettings(patch: Partial<AppSettings> = {}): AppSettings {
  return {
    language: 'en',
    defaultPermission: 'ask',
    decisionTimeout: '10m0s',
    theme: 'system',
    provider: { kind: 'anthropic', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } },
    providerReady: true,
    externalAgents: [],
    ...patch,
  };
}

export function rule(id: string, patch: Partial<Rule> = {}): Rule {
  return {
    id,
    effect: 'allow',
    kind: 'bash',
    path: '',
    command: 'npm test',
    source: 'approval:s1',
    createdAt: '2025-01-02T10:00:00Z',
    ...patch,
  };
}

const DURATION = /^(\d+)(s|m|h)$/;

/**
 * An in-memory stand-in for the Settings and System facades (same method names, shapes, errors and
 * broadcasts) for the settings, onboarding, theme and notification tests.
 */
export class FakeSettingsBackend implements Transport {
  readonly name = 'http' as const;
  settings: AppSettings;
  rules: Rule[];
  servers: LocalServer[] = [];
  transport: 'desktop' | 'browser' = 'browser';
  calls: { method: string; req: unknown }[] = [];
  failNext: Record<string, BridgeError> = {};
  private listeners = new Map<string, Set<EventCallback>>();

  constructor(init: { settings?: Partial<AppSettings>; rules?: Rule[]; servers?: LocalServer[]; transport?: 'desktop' | 'browser' } = {}) {
    this.settings = defaultSettings(init.settings);
    this.rules = init.rules ?? [];
    this.servers = init.servers ?? [];
    this.transport = init.transport ?? 'browser';
  }

  api(): SettingsApi {
    return createSettingsApi(() => this);
  }

  called(method: string) {
    return this.calls.filter((c) => c.method === method);
  }

  emit(name: string, data: unknown) {
    for (const cb of [...(this.listeners.get(name) ?? [])]) cb(data);
  }

  private changed(): AppSettings {
    const copy = structuredClone(this.settings);
    this.emit('settings.changed', copy);
    return structuredClone(copy);
  }

  async call(method: string, req?: object): Promise<unknown> {
    this.calls.push({ method, req });
    const fail = this.failNext[method];
    if (fail) {
      delete this.failNext[method];
      throw fail;
    }
    const r = (req ?? {}) as Record<string, string>;
    switch (method) {
      case 'Settings.Get':
        return structuredClone(this.settings);
      case 'Settings.SetDefaultPermission':
        this.settings.defaultPermission = r.permissionMode as AppSettings['defaultPermission'];
        return this.changed();
      case 'Settings.SetTheme':
        this.settings.theme = r.theme as AppSettings['theme'];
        return this.changed();
      case 'Settings.SetDecisionTimeout': {
        const m = DURATION.exec(r.value ?? '');
        if (!m) throw new BridgeError('INVALID_VALUE', `“${r.value}” is not a duration between 10s and 24h.`, { Value: r.value });
        this.settings.decisionTimeout = m[2] === 's' ? `${m[1]}s` : m[2] === 'm' ? `${m[1]}m0s` : `${m[1]}h0m0s`;
        return this.changed();
      }
      case 'Settings.SetProvider':
        this.settings.provider = { ...this.settings.provider, kind: r.kind as AppSettings['provider']['kind'], model: r.model ?? '', baseUrl: r.baseUrl ?? '' };
        this.settings.providerReady = true;
        return this.changed();
      case 'Settings.SaveKey':
        this.settings.provider.keys[r.provider as 'anthropic' | 'openai'] = 'keyring';
        return this.changed();
      case 'Settings.DeleteKey':
        this.settings.provider.keys[r.provider as 'anthropic' | 'openai'] = '';
        return this.changed();
      case 'Settings.Rules':
        return structuredClone(this.rules);
      case 'Settings.RevokeRule':
        this.rules = this.rules.filter((x) => x.id !== r.id);
        return structuredClone(this.rules);
      case 'Settings.ProbeLocal':
        return structuredClone(this.servers);
      case 'Settings.SetExternalAgents': {
        const clean: string[] = [];
        for (const c of (req as { commands?: string[] }).commands ?? []) {
          const cmd = c.trim();
          if (!cmd) throw new BridgeError('INVALID_INPUT', 'The command must not be empty.', { Field: 'command' });
          if (!clean.includes(cmd)) clean.push(cmd);
        }
        this.settings.externalAgents = clean;
        return this.changed();
      }
      case 'Settings.StartDemo':
        this.settings.provider.kind = 'demo';
        this.settings.providerReady = true;
        this.changed();
        return { id: 'demo-1', title: 'Demo', workspace: '/tmp/demo', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
      case 'System.Info':
        return { version: '0.1.0-test', dataDir: '/tmp/agentdesk', defaultWorkspace: '/home/ada/project', transport: this.transport };
      case 'System.NotifyDecision':
        return null;
      default:
        throw new BridgeError('UNKNOWN_METHOD', `The app has no action named “${method}”.`, { Method: method });
    }
  }

  onEvent(name: string, cb: EventCallback) {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(cb);
    return () => set.delete(cb);
  }

  onReconnect() {
    return () => {};
  }
}
