import { transport } from './select';
import { typedTransport } from './typed';
import type { Language, Permission, Session, SystemInfo, Theme } from './types';
import type { CheckpointSettings } from './checkpoints';

// Shared with the app API's types; re-exported so the settings features import from one place.
export { PERMISSIONS, THEMES, type Permission, type SystemInfo, type Theme } from './types';

/** Wire types of the Settings and System facades (API.md); JSON names as the Go side emits them. */

/** 'demo' is only read, from data an earlier build wrote: the demo runs in its own sessions now. */
export type ProviderKind = '' | 'anthropic' | 'openai' | 'demo';
/** The providers whose API key AgentDesk keeps. */
export type KeyProvider = 'anthropic' | 'openai';
export const KEY_PROVIDERS: readonly KeyProvider[] = ['anthropic', 'openai'];
/** Where a provider's key comes from: nowhere, the environment, or the OS keyring. */
export type KeySource = '' | 'env' | 'keyring';

export interface ProviderSettings {
  kind: ProviderKind;
  model: string;
  baseUrl: string;
  keys: Record<KeyProvider, KeySource>;
}

export interface AppSettings {
  language: Language;
  defaultPermission: Permission;
  /** A Go duration such as "10m0s". */
  decisionTimeout: string;
  theme: Theme;
  provider: ProviderSettings;
  /** False: no provider is usable yet, so the first-run onboarding shows. */
  providerReady: boolean;
  /** The external ACP agent command lines a session may run on, e.g. "goose acp" (R-ACP-2). */
  externalAgents: string[];
  /** Variables shell commands keep although their names look like secrets (…KEY…, …TOKEN…). */
  shellEnvPassthrough?: string[] | null;
  /** What the kernel offers shell commands here. */
  sandbox?: SandboxSupport | null;
  /** How long an external agent may take to start, a Go duration such as "2m0s". */
  externalStartTimeout?: string;
  /** The provider the command line fixed for every turn (serve --provider …); null: Settings decide. */
  commandLine: { kind: string; model: string } | null;
  /** Checkpoints: quota, large-file limit, secret patterns, review before apply, and usage. */
  checkpoints?: CheckpointSettings | null;
}

/** The kernel sandbox under shell commands: Landlock, or none (every shell command then asks). */
export interface SandboxSupport {
  kind: 'landlock' | 'none' | string;
  abi: number;
  /** TCP connect and bind can be refused (Landlock ABI 4 and later). */
  network: boolean;
  /** .git is read-only for commands unless the person allows a change. */
  protect_git: boolean;
  /** Commands run in namespaces of their own: they see only the workspace, toolchain and caches. */
  namespaces?: boolean;
  /** What this machine's kernel leaves open, as ids ("sandbox.uncovered.<id>"). */
  uncovered?: string[];
  /** What a namespaced command sees besides the workspace: read-only, and read-write (the build caches). */
  view?: { read_only: string[]; read_write: string[] };
  reason?: string;
}

export interface Rule {
  id: string;
  effect: 'allow' | 'deny';
  kind: string;
  path: string;
  command: string;
  /** An MCP rule's server/tool pattern (shown as mcp:server/tool). */
  mcp?: string;
  /** exact (the default): the command or path itself; prefix: the command followed by anything; pattern: a path glob. */
  scope?: 'exact' | 'prefix' | 'pattern';
  /** Where the rule came from, e.g. "approval" (an "Always allow" answer) or "settings". */
  source: string;
  /** RFC 3339 */
  createdAt: string;
}

/** An MCP server as Settings lists it (MCP.List). */
export interface McpServer {
  id: string;
  name: string;
  /** Empty: every workspace. */
  workspace?: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[] | null;
  env?: Record<string, string> | null;
  url?: string;
  headers?: Record<string, string> | null;
  network?: boolean;
  enabled: boolean;
  source: string;
  status: { state: 'stopped' | 'running' | 'failed'; problem?: string };
  tools: McpTool[] | null;
}

export type McpToolState = 'approved' | 'changed' | 'new' | 'off' | 'gone';

export interface McpTool {
  name: string;
  title?: string;
  description: string;
  readOnly: boolean;
  state: McpToolState;
  /** mcp:server/tool */
  rule: string;
  /** The listed definition; sent back to approve exactly what was reviewed. */
  seen?: string;
  diff?: { op: ' ' | '-' | '+'; text: string }[] | null;
}

/** What Add takes: a stdio command line, or an http URL. */
export interface McpConfig {
  name: string;
  workspace?: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  url?: string;
  network?: boolean;
}

/** An MCP server's log file (MCP.Log): stdio servers write their stderr there. */
export interface McpLog {
  path: string;
  text: string;
  /** The file is longer: text is its last 64 KB only. */
  truncated: boolean;
}

export interface McpImportItem {
  config: McpConfig;
  problem?: string;
  exists?: boolean;
}

export interface McpImportResult {
  name: string;
  server?: McpServer | null;
  error?: { kind: string; message: string } | null;
}

export interface LocalServer {
  name: 'Ollama' | 'LM Studio';
  baseUrl: string;
  ok: boolean;
  models: string[];
}

export interface ProviderChoice {
  kind: ProviderKind;
  model: string;
  baseUrl: string;
}

/** The part of a `decision.asked` Decision that a notification needs. */
export interface AskedDecision {
  id: string;
  sessionId: string;
  kind: 'question' | 'approval' | 'plan_review' | 'elicitation' | 'sampling';
  payload?: {
    message?: string;
    messages?: { text?: string }[] | null;
    summary?: string;
    command?: string;
    path?: string;
    tool?: string;
    question?: string;
    title?: string;
  } | null;
}

export interface ResolvedDecision {
  id: string;
  sessionId: string;
}

/**
 * The typed Settings/System API: the Settings page, onboarding, theme and notifications use this.
 * Built on the same transport selection as `createApi`; `getTransport` is injectable for tests.
 */
export function createSettingsApi(getTransport = transport) {
  const { call, on, onReconnect } = typedTransport(getTransport);

  return {
    settings: {
      get: () => call<AppSettings>('Settings.Get'),
      setLanguage: (language: Language) => call<AppSettings>('Settings.SetLanguage', { language }),
      /** The only writer of the default permission mode (R-AUTH-1). */
      setDefaultPermission: (permissionMode: Permission) =>
        call<AppSettings>('Settings.SetDefaultPermission', { permissionMode }),
      setDecisionTimeout: (value: string) => call<AppSettings>('Settings.SetDecisionTimeout', { value }),
      setTheme: (theme: Theme) => call<AppSettings>('Settings.SetTheme', { theme }),
      setProvider: (choice: ProviderChoice) => call<AppSettings>('Settings.SetProvider', choice),
      saveKey: (provider: KeyProvider, key: string) => call<AppSettings>('Settings.SaveKey', { provider, key }),
      deleteKey: (provider: KeyProvider) => call<AppSettings>('Settings.DeleteKey', { provider }),
      rules: () => call<Rule[] | null>('Settings.Rules').then((r) => r ?? []),
      revokeRule: (id: string) => call<Rule[] | null>('Settings.RevokeRule', { id }).then((r) => r ?? []),
      probeLocal: () => call<LocalServer[] | null>('Settings.ProbeLocal').then((r) => r ?? []),
      startDemo: () => call<Session>('Settings.StartDemo'),
      /** Replaces the whole list; the server trims each command, rejects an empty one and drops repeats. */
      setExternalAgents: (commands: string[]) => call<AppSettings>('Settings.SetExternalAgents', { commands }),
      /** Replaces the list; the server rejects a name that is not a variable name. */
      setShellEnvPassthrough: (names: string[]) => call<AppSettings>('Settings.SetShellEnvPassthrough', { names }),
      setExternalStartTimeout: (value: string) => call<AppSettings>('Settings.SetExternalStartTimeout', { value }),
      /** Saves every checkpoint setting at once; the store follows at once (a smaller quota prunes now). */
      setCheckpoints: (req: { quota: number; maxFileSize: number; secrets: string[]; reviewBeforeApply: boolean }) =>
        call<AppSettings>('Settings.SetCheckpoints', req),
      onChanged: on<AppSettings>('settings.changed'),
      /** A rule was added or revoked elsewhere (an MCP rule from its section, another window). */
      onRulesChanged: on<Rule[] | null>('rules.changed'),
    },
    mcp: {
      list: (workspace = '') => call<McpServer[] | null>('MCP.List', { workspace }).then((r) => r ?? []),
      /** Adds and enables (which starts the server once to pin its tools). */
      add: (config: McpConfig) => call<McpServer>('MCP.Add', config),
      enable: (id: string) => call<McpServer>('MCP.Enable', { id }),
      disable: (id: string) => call<McpServer>('MCP.Disable', { id }),
      remove: (id: string) => call<null>('MCP.Remove', { id }).then(() => undefined),
      approve: (id: string, tool: string, seen: string) => call<McpServer>('MCP.Approve', { id, tool, seen }),
      setToolOff: (id: string, tool: string, off: boolean) => call<McpServer>('MCP.SetToolOff', { id, tool, off }),
      preview: (workspace: string) => call<McpImportItem[] | null>('MCP.Preview', { workspace }).then((r) => r ?? []),
      import: (workspace: string, names: string[]) =>
        call<McpImportResult[] | null>('MCP.Import', { workspace, names }).then((r) => r ?? []),
      log: (id: string) => call<McpLog>('MCP.Log', { id }),
      addRule: (effect: 'allow' | 'deny', rule: string) => call<Rule[] | null>('MCP.AddRule', { effect, rule }).then((r) => r ?? []),
      onChanged: on<{ serverId: string; name: string }>('mcp.changed'),
    },
    system: {
      info: () => call<SystemInfo>('System.Info'),
      /** Desktop only: the Go side builds the OS notification from the decision. */
      notifyDecision: (id: string) => call<null>('System.NotifyDecision', { id }).then(() => undefined),
    },
    decisions: {
      onAsked: on<AskedDecision>('decision.asked'),
      onResolved: on<ResolvedDecision>('decision.resolved'),
    },
    onReconnect,
  };
}

export type SettingsApi = ReturnType<typeof createSettingsApi>;
