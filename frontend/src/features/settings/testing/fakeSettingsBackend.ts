import { BridgeError } from '../../../bridge/errors';
import type { AppSettings, LocalServer, McpConfig, McpImportItem, McpLog, McpServer, Rule } from '../../../bridge/settingsApi';
import { createSettingsApi, type SettingsApi } from '../../../bridge/settingsApi';
import { FakeTransportBase, type FakeRequest } from '../../../test/fakeTransportBase';

export function defaultSettings(patch: Partial<AppSettings> = {}): AppSettings {
  return {
    language: 'en',
    defaultPermission: 'ask',
    decisionTimeout: '10m0s',
    stepLimit: 200,
    theme: 'system',
    provider: { kind: 'anthropic', model: '', baseUrl: '', keys: { anthropic: '', openai: '' } },
    providerReady: true,
    externalAgents: [],
    shellEnvPassthrough: [],
    sensitivePaths: ['.ssh/', '.env'],
    defaultSensitivePaths: ['.ssh/', '.env'],
    sandbox: { kind: 'landlock', abi: 7, network: true, protect_git: true },
    externalStartTimeout: '2m0s',
    commandLine: null,
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
    scope: 'exact',
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
export class FakeSettingsBackend extends FakeTransportBase {
  settings: AppSettings;
  rules: Rule[];
  servers: LocalServer[] = [];
  /** What MCP.List answers. */
  mcpServers: McpServer[] = [];
  /** The tools a server added here lists (MCP.Add), each with the definition it lists. */
  mcpListed: { name: string; description: string; readOnly: boolean; seen: string }[] = [];
  /** What MCP.Preview answers: the workspace's .mcp.json. */
  mcpImport: McpImportItem[] = [];
  /** What MCP.Log answers, by server id; an id without one is NOT_FOUND. */
  mcpLogs: Record<string, McpLog> = {};

  constructor(init: { settings?: Partial<AppSettings>; rules?: Rule[]; servers?: LocalServer[]; transport?: 'desktop' | 'browser' } = {}) {
    super();
    this.settings = defaultSettings(init.settings);
    this.rules = init.rules ?? [];
    this.servers = init.servers ?? [];
    this.transport = init.transport ?? 'browser';
  }

  api(): SettingsApi {
    return createSettingsApi(() => this);
  }

  private changed(): AppSettings {
    const copy = structuredClone(this.settings);
    this.emit('settings.changed', copy);
    return structuredClone(copy);
  }

  protected override handle(method: string, req: FakeRequest): unknown {
    const r = req as Record<string, string>;
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
        if (r.value === 'never') {
          this.settings.decisionTimeout = 'never';
          return this.changed();
        }
        const m = DURATION.exec(r.value ?? '');
        if (!m) throw new BridgeError('INVALID_VALUE', `“${r.value}” is not a duration between 10s and 24h.`, { Value: r.value });
        this.settings.decisionTimeout = m[2] === 's' ? `${m[1]}s` : m[2] === 'm' ? `${m[1]}m0s` : `${m[1]}h0m0s`;
        return this.changed();
      }
      case 'Settings.SetStepLimit': {
        const n = Number(r.value);
        if (!/^\d+$/.test(r.value ?? '') || n < 1 || n > 10000) {
          throw new BridgeError('INVALID_VALUE', `“${r.value}” is not a valid step-limit. Allowed: 1…10000.`, { Value: r.value });
        }
        this.settings.stepLimit = n;
        return this.changed();
      }
      case 'Settings.SetExternalStartTimeout': {
        const m = DURATION.exec(r.value ?? '');
        const seconds = m ? Number(m[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[m[2] ?? "s"]! : 0;
        if (!m || seconds < 5 || seconds > 1800) {
          throw new BridgeError('INVALID_VALUE', `“${r.value}” is not a duration between 5s and 30m.`, { Value: r.value });
        }
        this.settings.externalStartTimeout = m[2] === 's' ? `${m[1]}s` : `${m[1]}m0s`;
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
        for (const c of (req.commands as string[] | undefined) ?? []) {
          const cmd = c.trim();
          if (!cmd) throw new BridgeError('INVALID_INPUT', 'The command must not be empty.', { Field: 'command' });
          if (!clean.includes(cmd)) clean.push(cmd);
        }
        this.settings.externalAgents = clean;
        return this.changed();
      }
      case 'Settings.SetParallelTurns': {
        const n = Number(r.value);
        if (!Number.isInteger(n) || n < 0 || n > 64) throw new BridgeError('INVALID_VALUE', `“${r.value}” is not a valid parallel-turns.`, { Value: r.value });
        this.settings.parallelTurns = n;
        return this.changed();
      }
      case 'Settings.SetWorktreeIsolation':
        this.settings.worktreeIsolation = String(r.value);
        return this.changed();
      case 'Settings.SetWorktreeCopy': {
        const clean: string[] = [];
        for (const g of (req.globs as string[] | undefined) ?? []) {
          const glob = g.trim();
          if (glob.startsWith('/') || glob.split('/').includes('..')) {
            throw new BridgeError('INVALID_VALUE', `“${glob}” is not a valid worktree-copy.`, { Field: 'worktree-copy', Value: glob });
          }
          if (glob && !clean.includes(glob)) clean.push(glob);
        }
        this.settings.worktreeCopy = clean;
        return this.changed();
      }
      case 'Settings.SetWorktreeSetup':
        this.settings.worktreeSetup = String(r.value ?? '').trim();
        return this.changed();
      case 'Settings.SetAgentReach': {
        const command = String(req.command);
        const others = (this.settings.agentReach ?? []).filter((x) => x.command !== command);
        const hosts = ((req.hosts as string[] | undefined) ?? []).map((h) => h.trim()).filter(Boolean);
        const bad = hosts.find((h) => /\s|\//.test(h));
        if (bad) throw new BridgeError('EXTERNAL_AGENT_REACH_INVALID', `“${bad}” cannot be used.`, { Value: bad });
        const folders = ((req.folders as string[] | undefined) ?? []).map((f) => f.trim()).filter(Boolean);
        const next = req.reset === true ? { command, hosts: [], folders: [], saved: false } : { command, hosts, folders, saved: true };
        this.settings.agentReach = [...others, next];
        return this.changed();
      }
      case 'Settings.SetSensitivePaths': {
        if (req.reset === true) {
          this.settings.sensitivePaths = [...(this.settings.defaultSensitivePaths ?? [])];
          return this.changed();
        }
        const clean: string[] = [];
        for (const p of (req.paths as string[] | undefined) ?? []) {
          const entry = p.trim();
          if (entry.includes('[')) throw new BridgeError('INVALID_VALUE', `"${entry}" is not a valid entry.`, { Field: 'sensitive-paths', Value: entry });
          if (entry && !clean.includes(entry)) clean.push(entry);
        }
        this.settings.sensitivePaths = clean;
        return this.changed();
      }
      case 'Settings.SetShellEnvPassthrough': {
        const clean: string[] = [];
        for (const n of (req.names as string[] | undefined) ?? []) {
          const name = n.trim();
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
            throw new BridgeError('INVALID_VALUE', `"${name}" is not a valid variable.`, { Field: 'variable', Value: name });
          }
          if (!clean.includes(name)) clean.push(name);
        }
        this.settings.shellEnvPassthrough = clean;
        return this.changed();
      }
      case 'Settings.StartDemo':
        // The demo runs in its own session; the provider of every other session stays as it is.
        return { id: 'demo-1', title: 'Demo', workspace: '/tmp/agentdesk-demo-1', demo: true, createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z' };
      case 'System.NotifyDecision':
        return null;
      case 'MCP.List':
        return structuredClone(this.mcpServers);
      case 'MCP.Approve': {
        const tool = this.mcpServers.find((s) => s.id === r.id)?.tools?.find((x) => x.name === r.tool);
        if (!tool || tool.seen !== r.seen) throw new BridgeError('NOT_FOUND', 'Nothing with that id.', { ID: r.tool });
        Object.assign(tool, { state: 'approved', diff: null });
        this.emit('mcp.changed', { serverId: r.id, name: '' });
        return structuredClone(this.mcpServers.find((s) => s.id === r.id));
      }
      case 'MCP.Add': {
        // Added switched off, its tools listed for review (none pinned).
        const cfg = req as unknown as McpConfig;
        if (this.mcpServers.some((x) => x.name === cfg.name)) throw new BridgeError('ALREADY_EXISTS', 'That already exists.', { ID: cfg.name });
        const added: McpServer = { ...cfg, id: `srv${this.mcpServers.length + 1}`, enabled: false, source: 'settings', status: { state: 'stopped' },
          tools: this.mcpListed.map((x) => ({ ...x, state: 'new' as const, rule: `mcp:${cfg.name}/${x.name}` })) };
        this.mcpServers.push(added);
        this.emit('mcp.changed', { serverId: added.id, name: added.name });
        return structuredClone(added);
      }
      case 'MCP.Enable': {
        const srv = this.mcpServers.find((x) => x.id === r.id);
        if (!srv) throw new BridgeError('NOT_FOUND', 'Nothing with that id.', { ID: r.id });
        const tools = (req.tools ?? null) as Record<string, string> | null;
        srv.enabled = true;
        for (const x of srv.tools ?? []) if (!tools || tools[x.name] === x.seen) Object.assign(x, { state: 'approved', diff: null });
        this.emit('mcp.changed', { serverId: srv.id, name: srv.name });
        return structuredClone(srv);
      }
      case 'MCP.Edit': {
        const srv = this.mcpServers.find((x) => x.id === r.id);
        if (!srv) throw new BridgeError('NOT_FOUND', 'Nothing with that id.', { ID: r.id });
        const cfg = req.config as McpConfig;
        Object.assign(srv, { command: cfg.command, args: cfg.args, url: cfg.url, enabled: false, status: { state: 'stopped' } });
        this.emit('mcp.changed', { serverId: srv.id, name: srv.name });
        return structuredClone(srv);
      }
      case 'MCP.Log': {
        const log = this.mcpLogs[r.id ?? ''];
        if (!log) throw new BridgeError('NOT_FOUND', 'Nothing with that id.', { ID: r.id });
        return structuredClone(log);
      }
      case 'MCP.Preview':
        return structuredClone(this.mcpImport);
      case 'MCP.Import':
        return ((req.names as string[] | undefined) ?? []).map((name) => ({ name, server: null }));
      case 'MCP.AddRule':
        this.rules.push(rule(`mcp-${this.rules.length}`, { kind: 'mcp', command: '', mcp: String(r.rule).replace(/^mcp:/, ''), effect: r.effect as Rule['effect'], source: 'settings' }));
        this.emit('rules.changed', structuredClone(this.rules));
        return structuredClone(this.rules);
      default:
        return super.handle(method, req);
    }
  }
}
