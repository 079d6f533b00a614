import { BridgeError } from '../bridge/errors';
import type { WorktreeRepo } from '../bridge/generated';
import type { Session } from '../bridge/types';
import { FakeTransportBase, type FakeRequest } from './fakeTransportBase';

/**
 * An in-memory stand-in for the Go app API's sessions and language, with the same method names,
 * shapes, errors and broadcasts.
 */
export class FakeTransport extends FakeTransportBase {
  sessions: Session[] = [];
  /** What Sessions.ListWorktreeTasks answers: no task in a worktree unless a test says so. */
  worktreeTasks: WorktreeRepo[] = [];
  language = 'en';
  /** Sessions.List pages this many at a time (the cursor is an index here); 0: one page. */
  pageSize = 0;
  private seq = 0;
  private clock = Date.parse('2025-01-01T10:00:00Z');

  constructor(init?: { sessions?: Session[]; language?: string }) {
    super();
    this.sessions = init?.sessions ?? [];
    this.language = init?.language ?? 'en';
  }

  private tick(): string {
    this.clock += 60_000;
    return new Date(this.clock).toISOString();
  }

  protected override recent(): string[] {
    return this.recentFolders.length ? this.recentFolders : [...new Set(this.sorted().map((s) => s.workspace))];
  }

  private sorted() {
    return [...this.sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  protected override handle(method: string, req: FakeRequest): unknown {
    const r = req as Record<string, string>;
    switch (method) {
      case 'Sessions.ListWorktreeTasks':
        return this.worktreeTasks;
      case 'Sessions.List': {
        const all = this.sorted();
        if (!this.pageSize) return { sessions: all, next: '' };
        const from = Number(r.after ?? 0);
        const end = from + this.pageSize;
        return { sessions: all.slice(from, end), next: end < all.length ? String(end) : '' };
      }
      case 'Sessions.Create': {
        if (!r.workspace) throw new BridgeError('WORKSPACE_REQUIRED', 'Choose a folder for the agent to work in: there is no default folder.');
        if (r.workspace === this.home && !(req as { confirmHome?: boolean }).confirmHome) {
          throw new BridgeError('WORKSPACE_HOME_NEEDS_CONFIRMATION', `${this.home} is your whole home folder.`, { Path: this.home });
        }
        const now = this.tick();
        const s: Session = {
          id: `s${++this.seq}`,
          title: r.title || 'New session',
          workspace: r.workspace || '/home/ada/project',
          interactionMode: 'smart',
          executionOverride: '',
          permissionMode: 'ask',
          running: false,
          waiting: 0,
          stateSeq: 0,
          createdAt: now,
          updatedAt: now,
        };
        this.sessions.push(s);
        this.emit('sessions.changed', { sessions: [s], removed: [] });
        return s;
      }
      case 'Sessions.Get': {
        const s = this.sessions.find((x) => x.id === r.id);
        if (!s) throw new BridgeError('NOT_FOUND', `Nothing with the id “${r.id}” was found.`, { ID: r.id ?? '' });
        return { ...s };
      }
      case 'Sessions.Rename': {
        if (!r.title?.trim()) throw new BridgeError('INVALID_INPUT', 'The title must not be empty.', { Field: 'title' });
        const s = this.sessions.find((x) => x.id === r.id);
        if (!s) throw new BridgeError('NOT_FOUND', `Nothing with the id “${r.id}” was found.`, { ID: r.id ?? '' });
        s.title = r.title;
        s.updatedAt = this.tick();
        this.emit('sessions.changed', { sessions: [{ ...s }], removed: [] });
        return { ...s };
      }
      case 'Sessions.Delete':
        this.sessions = this.sessions.filter((x) => x.id !== r.id);
        this.emit('sessions.changed', { sessions: [], removed: [r.id] });
        return null;
      case 'Settings.Get':
        return { language: this.language };
      case 'Settings.SetLanguage':
        if (r.language !== 'en' && r.language !== 'zh-CN') {
          throw new BridgeError('INVALID_VALUE', `“${r.language}” is not a valid language.`);
        }
        this.language = r.language;
        this.emit('settings.changed', { language: this.language });
        return { language: this.language };
      default:
        return super.handle(method, req);
    }
  }
}

export function session(id: string, title: string, updatedAt: string): Session {
  return { id, title, workspace: `/work/${id}`, interactionMode: 'smart', executionOverride: '', permissionMode: 'ask', running: false, waiting: 0, stateSeq: 0, createdAt: updatedAt, updatedAt };
}
