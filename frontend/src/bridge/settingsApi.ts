import { transport } from './select';
import { typedTransport } from './typed';
import type { Language, Permission, Theme } from './types';
import type * as G from './generated';
import { fieldsOf } from './wire';

// Shared with the app API's types; re-exported so the settings features import from one place.
export { PERMISSIONS, THEMES, type Permission, type SystemInfo, type Theme } from './types';

/** The Settings, MCP and System facades' types: wire types from generated.ts, unions and constants of the UI's own. */

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

/**
 * Settings as the page holds them: the wire's (G.SettingsView) read defensively by
 * normalizeSettings (features/settings/appSettingsStore.ts), so an older or partial answer never
 * breaks the page; unions stand where Go sends plain strings.
 */
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
  checkpoints?: G.CheckpointSettingsView;
  /** Paths read only when the person approves, by any tool or command (denied with full access). */
  sensitivePaths?: string[];
  /** The list "reset to defaults" restores. */
  defaultSensitivePaths?: string[];
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

export type Rule = G.RuleView;

export type McpServer = G.ServerView;

export type McpToolState = G.ToolState;

export type McpTool = G.McpToolView;

export type McpConfig = G.Config;

export type McpLog = G.LogView;

export type McpImportItem = G.ImportItem;

export type McpImportResult = G.MCPImportView;

export type LocalServer = G.LocalServer;

export type ProviderChoice = G.SetProviderRequest;

/** The part of a `decision.asked` Decision that a notification needs. */
export interface AskedDecision {
  id: string;
  sessionId: string;
  kind: G.DecisionKind;
  /** The wire's payload (any JSON) read leniently: only these fields, each possibly absent. */
  payload?: {
    message?: string;
    messages?: { text?: string }[] | null;
    summary?: string;
    command?: string;
    path?: string;
    tool?: string;
    question?: string;
    /** A continue decision's count of model requests so far. */
    steps?: number;
    title?: string;
  } | null;
}

export type ResolvedDecision = G.Resolved;

/**
 * The typed Settings/System API: the Settings page, onboarding, theme and notifications use this.
 * Built on the same transport selection as `createApi`; `getTransport` is injectable for tests.
 */
export function createSettingsApi(getTransport = transport) {
  const { call, on, onReconnect } = typedTransport(getTransport);

  return {
    settings: {
      get: () => call('Settings.Get'),
      setLanguage: (language: Language) => call('Settings.SetLanguage', { language }),
      /** The only writer of the default permission mode (R-AUTH-1). */
      setDefaultPermission: (permissionMode: Permission) =>
        call('Settings.SetDefaultPermission', { permissionMode }),
      setDecisionTimeout: (value: string) => call('Settings.SetDecisionTimeout', { value }),
      setTheme: (theme: Theme) => call('Settings.SetTheme', { theme }),
      setProvider: (choice: ProviderChoice) => call('Settings.SetProvider', choice),
      saveKey: (provider: KeyProvider, key: string) => call('Settings.SaveKey', { provider, key }),
      deleteKey: (provider: KeyProvider) => call('Settings.DeleteKey', { provider }),
      rules: () => call('Settings.Rules').then((r) => r ?? []),
      revokeRule: (id: string) => call('Settings.RevokeRule', { id }).then((r) => r ?? []),
      probeLocal: () => call('Settings.ProbeLocal').then((r) => r ?? []),
      startDemo: () => call('Settings.StartDemo'),
      /** Replaces the whole list; the server trims each command, rejects an empty one and drops repeats. */
      setExternalAgents: (commands: string[]) => call('Settings.SetExternalAgents', { commands }),
      /** Replaces the list; the server rejects a name that is not a variable name. */
      setShellEnvPassthrough: (names: string[]) => call('Settings.SetShellEnvPassthrough', { names }),
      /** Replaces the sensitive paths list (empty: nothing is sensitive); reset restores the defaults. */
      setSensitivePaths: (paths: string[], reset = false) => call('Settings.SetSensitivePaths', { paths, reset }),
      setExternalStartTimeout: (value: string) => call('Settings.SetExternalStartTimeout', { value }),
      /** Saves every checkpoint setting at once; the store follows at once (a smaller quota prunes now). */
      setCheckpoints: (req: { quota: number; maxFileSize: number; secrets: string[]; reviewBeforeApply: boolean }) =>
        call('Settings.SetCheckpoints', req),
      onChanged: on('settings.changed'),
      /** A rule was added or revoked elsewhere (an MCP rule from its section, another window). */
      onRulesChanged: on('rules.changed'),
      /** An "Always allow" answer stored a rule (after its decision was resolved). */
      onRuleAdded: on('rule.added'),
    },
    mcp: {
      list: (workspace = '') => call('MCP.List', { workspace }).then((r) => r ?? []),
      /** Adds and enables (which starts the server once to pin its tools). */
      add: (config: McpConfig) => call('MCP.Add', config),
      enable: (id: string) => call('MCP.Enable', { id }),
      disable: (id: string) => call('MCP.Disable', { id }),
      remove: (id: string) => call('MCP.Remove', { id }).then(() => undefined),
      approve: (id: string, tool: string, seen: string) => call('MCP.Approve', { id, tool, seen }),
      setToolOff: (id: string, tool: string, off: boolean) => call('MCP.SetToolOff', { id, tool, off }),
      preview: (workspace: string) => call('MCP.Preview', { workspace }).then((r) => r ?? []),
      import: (workspace: string, names: string[]) =>
        call('MCP.Import', { workspace, names }).then((r) => r ?? []),
      log: (id: string) => call('MCP.Log', { id }),
      addRule: (effect: 'allow' | 'deny', rule: string) => call('MCP.AddRule', { effect, rule }).then((r) => r ?? []),
      onChanged: on('mcp.changed'),
    },
    system: {
      info: () => call('System.Info'),
      /** Desktop only: the Go side builds the OS notification from the decision. */
      notifyDecision: (id: string) => call('System.NotifyDecision', { id }).then(() => undefined),
    },
    decisions: {
      onAsked: (cb: (d: AskedDecision) => void) =>
        on('decision.asked')((d) => cb({ id: d.id, sessionId: d.sessionId, kind: d.kind, payload: fieldsOf(d.payload) })),
      onResolved: on('decision.resolved'),
    },
    onReconnect,
  };
}

export type SettingsApi = ReturnType<typeof createSettingsApi>;
