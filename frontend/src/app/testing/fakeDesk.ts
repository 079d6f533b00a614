import { BridgeError } from '../../bridge/errors';
import type { Decision, Permission, Session, Transcript } from '../../bridge/types';
import { FakeTransport } from '../../test/fakeTransport';
import type { FakeRequest } from '../../test/fakeTransportBase';

type Handler = (req: FakeRequest) => unknown;

/**
 * The shell's fake of the Go app API: FakeTransport (sessions, language) plus the composer,
 * transcript, decision and settings methods, with their broadcasts.
 */
export class FakeDesk extends FakeTransport {
  defaultPermission: Permission | null = 'ask';
  providerReady = true;
  externalAgents: string[] = [];
  transcripts = new Map<string, Transcript>();
  sent: { sessionId: string; text: string }[] = [];
  resolved: Record<string, unknown>[] = [];
  /** Tools the session's permission asks about: a direct run of one needs `approved`. */
  asksFor = new Set<string>();
  /** What Sessions.SuggestIsolation answers: a folder outside a repository by default. */
  isolation: { repository: boolean; busy: number; isolate: boolean; setting: string; repoSetup?: string } = { repository: false, busy: 0, isolate: false, setting: 'busy' };
  private n = 0;

  private handlers: Record<string, Handler> = {
    'Settings.Get': () => this.settings(),
    'Sessions.Create': (r) => this.createSession(r),
    'Sessions.SuggestIsolation': () => ({ ...this.isolation }),
    'Sessions.Transcript': (r) => this.transcriptOf(String(r.id)),
    'Sessions.Configure': (r) => {
      const s = this.must(String(r.id));
      const queued = Boolean(this.transcriptOf(s.id).running);
      if (!queued) {
        if (r.interactionMode) s.interactionMode = r.interactionMode as Session['interactionMode'];
        if (r.executionOverride !== undefined) s.executionOverride = r.executionOverride as Session['executionOverride'];
        this.emit('session.mode', { sessionId: s.id, interactionMode: s.interactionMode, executionOverride: s.executionOverride });
      }
      return { session: { ...s }, queued };
    },
    'Sessions.SetPermission': (r) => {
      const s = this.must(String(r.id));
      s.permissionMode = r.permissionMode as Permission;
      return { ...s };
    },
    'Sessions.Fork': (r) => {
      const s = this.must(String(r.id));
      return this.createSession({ title: `${s.title} (fork)`, workspace: s.workspace });
    },
    'Sessions.Continue': () => ({ turnId: 't-continue' }),
    'Composer.Send': (r) => {
      this.sent.push({ sessionId: String(r.sessionId), text: String(r.text) });
      return { turnId: `t${++this.n}` };
    },
    'Composer.Cancel': () => ({ cancelled: true }),
    'Composer.Unqueue': () => null,
    'Composer.Tools': () => [
      {
        name: 'read',
        description: 'Read a file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, limit: { type: 'integer' } }, required: ['path'] },
      },
    ],
    'Composer.RunTool': (r) => {
      const base = { sessionId: r.sessionId, callId: `c${++this.n}`, name: r.name, input: r.input };
      if (this.asksFor.has(String(r.name)) && !r.approved) {
        return { ...base, output: '', isError: false, needsApproval: true, code: 'PATH_OUTSIDE_WORKSPACE', reasonKey: 'gate.reason.outside_workspace', summary: 'Read /etc/hosts' };
      }
      return { ...base, output: 'file text', isError: false };
    },
    'Decisions.Pending': (r) => this.transcriptOf(String(r.id)).pending,
    'Decisions.Resolve': (r) => {
      this.resolved.push(r);
      return { won: true };
    },
  };

  settings() {
    return {
      language: this.language,
      ...(this.defaultPermission ? { defaultPermission: this.defaultPermission } : {}),
      decisionTimeout: '10m0s',
      theme: 'system',
      provider: { kind: 'anthropic', model: 'claude-test', baseUrl: '', keys: { anthropic: 'env', openai: '' } },
      providerReady: this.providerReady,
      externalAgents: this.externalAgents,
    };
  }

  private must(id: string): Session {
    const s = this.sessions.find((x) => x.id === id);
    if (!s) throw new BridgeError('NOT_FOUND', `Nothing with the id “${id}” was found.`, { ID: id });
    return s;
  }

  private createSession(r: FakeRequest): Session {
    const created = super.handle('Sessions.Create', { title: r.title, workspace: r.workspace, confirmHome: r.confirmHome }) as Session;
    const s = this.must(created.id);
    s.interactionMode = (r.interactionMode as Session['interactionMode']) ?? 'smart';
    s.executionOverride = (r.executionOverride as Session['executionOverride']) ?? '';
    s.permissionMode = (r.permissionMode as Permission) ?? this.defaultPermission ?? 'ask';
    s.running = false;
    if (r.externalAgent) s.externalAgent = String(r.externalAgent);
    return { ...s };
  }

  transcriptOf(id: string): Transcript {
    let t = this.transcripts.get(id);
    if (!t) this.transcripts.set(id, (t = { sessionId: id, running: '', queue: [], pending: [], turns: [], items: [] }));
    return t;
  }

  /** Plays decision.asked from the server. */
  ask(d: Partial<Decision> & Pick<Decision, 'id' | 'sessionId' | 'kind' | 'payload'>) {
    const full: Decision = { turnId: 't1', createdAt: new Date(Date.parse('2025-01-01T10:00:00Z') + ++this.n * 1000).toISOString(), deadline: '', ...d };
    this.transcriptOf(d.sessionId).pending.push(full);
    this.emit('decision.asked', full);
    return full;
  }

  protected override handle(method: string, req: FakeRequest): unknown {
    const h = this.handlers[method];
    return h ? h(req) : super.handle(method, req);
  }
}
