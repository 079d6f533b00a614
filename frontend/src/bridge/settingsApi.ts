import { transport } from './select';
import { typedTransport } from './typed';
import type { Language, Permission, Theme } from './types';
import type * as G from './generated';
import type {
  RuleView as Rule,
  ServerView as McpServer,
  ToolState as McpToolState,
  McpToolView as McpTool,
  Config as McpConfig,
  LogView as McpLog,
  ImportItem as McpImportItem,
  MCPImportView as McpImportResult,
  LocalServer,
  SetProviderRequest as ProviderChoice,
  Resolved as ResolvedDecision,
} from './generated';

/** The wire types the UI uses as they are (generated from Go), under the names it knows them by. */
export type {
  Rule, McpServer, McpToolState, McpTool, McpConfig, McpLog, McpImportItem, McpImportResult, LocalServer,
  ProviderChoice, ResolvedDecision,
};
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

/** The provider as the page holds it (Go: app.ProviderView), its plain strings read as the UI's unions. */
export interface ProviderSettings extends Omit<G.ProviderView, 'kind' | 'keys'> {
  kind: ProviderKind;
  keys: Record<KeyProvider, KeySource>;
}

/**
 * Settings as the page holds them: the wire's (G.SettingsView) read defensively by
 * normalizeSettings (features/settings/appSettingsStore.ts), so an older or partial answer never
 * breaks the page; unions stand where Go sends plain strings, and no list is null.
 */
export interface AppSettings
  extends Pick<G.SettingsView, 'defaultPermission' | 'decisionTimeout' | 'theme' | 'providerReady'>,
    Partial<Pick<G.SettingsView, 'externalStartTimeout' | 'checkpoints' | 'stepLimit' | 'parallelTurns' | 'worktreeIsolation' | 'worktreeSetup'>> {
  /** Globs of the untracked files a new task's worktree gets a copy of. */
  worktreeCopy?: string[] | null;
  language: Language;
  provider: ProviderSettings;
  externalAgents: string[];
  /** What was seen of each external agent in its last session that ran calls (none for a new one). */
  agentFacts?: G.AgentFactView[] | null;
  /** What each saved agent may reach from inside the sandbox (hosts, its state folders). */
  agentReach?: G.AgentReachView[];
  shellEnvPassthrough?: string[] | null;
  sandbox?: SandboxSupport | null;
  /** null: Settings decide the provider. */
  commandLine: Required<G.CommandLineProvider> | null;
  /** Paths read only when the person approves, by any tool or command (denied with full access). */
  sensitivePaths?: string[];
  /** The list "reset to defaults" restores. */
  defaultSensitivePaths?: string[];
}

/**
 * The kernel sandbox under shell commands (Go: sandbox.Support) as the page reads it: the fields it
 * shows, the namespaced ones only when it has them.
 */
export type SandboxSupport = Pick<G.Support, 'abi' | 'network' | 'protect_git'> &
  Partial<Pick<G.Support, 'namespaces' | 'uncovered' | 'view' | 'reason'>> & {
    /** A kind this build knows, or one a newer server reports (shown as none). */
    kind: G.SandboxKind | (string & {});
  };

/** Any kind's payload fields, for a reader that looks at whichever are there. */
type AnyPayload = { [K in keyof G.DecisionForms]: G.DecisionForms[K]['payload'] }[keyof G.DecisionForms];
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (m: infer M) => void ? M : never;

/** The part of a `decision.asked` Decision that a notification needs. */
export interface AskedDecision extends Pick<G.Decision, 'id' | 'sessionId' | 'kind'> {
  /** The wire's payload (any JSON) read leniently: any kind's fields, each possibly absent. */
  payload?: Partial<Merged<AnyPayload>> | null;
}

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
      setStepLimit: (value: string) => call('Settings.SetStepLimit', { value }),
      setParallelTurns: (value: string) => call('Settings.SetParallelTurns', { value }),
      setWorktreeIsolation: (value: string) => call('Settings.SetWorktreeIsolation', { value }),
      /** Replaces the globs of untracked files a new task's worktree gets; the server rejects an unusable glob. */
      setWorktreeCopy: (globs: string[]) => call('Settings.SetWorktreeCopy', { globs }),
      /** The person's own set-up command for new worktrees; empty runs none. */
      setWorktreeSetup: (value: string) => call('Settings.SetWorktreeSetup', { value }),
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
      /** Saves what one agent may reach; reset goes back to the defaults its name implies. */
      setAgentReach: (req: G.AgentReachRequest) => call('Settings.SetAgentReach', req),
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
      /** Adds a server, switched off, and starts it once to list its tools for review (none is pinned). */
      add: (config: McpConfig) => call('MCP.Add', config),
      /** Switches a server on, pinning the tools the person reviewed (name → the definition seen); all listed without. */
      enable: (id: string, tools?: Record<string, string>) => call('MCP.Enable', tools ? { id, tools } : { id }),
      /** Replaces what a server runs (command and arguments, or URL) in place; it goes off and lists its tools for review. */
      edit: (id: string, config: McpConfig) => call('MCP.Edit', { id, config }),
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
