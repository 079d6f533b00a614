import { BridgeError } from '../bridge/errors';
import type { EventCallback, Transport } from '../bridge/transport';

export type FakeRequest = Record<string, unknown>;

/**
 * The plumbing every in-memory stand-in for the Go app API shares: it records each call, fails the
 * next call of a method on demand (`failNext`), answers System.Info, rejects unknown methods like
 * the server does, and broadcasts events (`emit` plays one from "another client"). Subclasses
 * answer their facades' methods in `handle` and pass the rest to `super.handle`.
 */
export abstract class FakeTransportBase implements Transport {
  readonly name = 'http' as const;
  /** What System.Info reports the app runs in. */
  transport: 'desktop' | 'browser' = 'browser';
  calls: { method: string; req: unknown }[] = [];
  failNext: Record<string, BridgeError> = {};
  private listeners = new Map<string, Set<EventCallback>>();
  /** The home folder, the workspaces of recent sessions and the folders under each folder. */
  home = '/home/ada';
  recentFolders: string[] = [];
  folderTree: Record<string, string[]> = { '/': ['etc', 'home'], '/home': ['ada'], '/home/ada': ['notes', 'project'],
    '/home/ada/notes': [],
    '/home/ada/project': [],
    '/etc': [],
  };
  /** What the native dialog answers (desktop only). */
  picked = '';

  called(method: string) {
    return this.calls.filter((c) => c.method === method);
  }

  emit(name: string, data: unknown) {
    for (const cb of [...(this.listeners.get(name) ?? [])]) cb(data);
  }

  async call(method: string, req?: object): Promise<unknown> {
    this.calls.push({ method, req });
    const fail = this.failNext[method];
    if (fail) {
      delete this.failNext[method];
      throw fail;
    }
    return this.handle(method, (req ?? {}) as FakeRequest);
  }

  protected handle(method: string, _req: FakeRequest): unknown {
    if (method === 'System.Info') {
      return { version: '0.1.0-test', dataDir: '/tmp/agentdesk', defaultWorkspace: '/home/ada/project', transport: this.transport };
    }
    if (method === 'Folders.Recent') return { folders: this.recent(), home: this.home };
    if (method === 'Folders.Pick') {
      if (this.transport !== 'desktop') throw new BridgeError('FOLDER_PICKER_UNAVAILABLE', 'There is no folder dialog here.');
      return { path: this.picked };
    }
    if (method === 'Folders.List') return this.listFolders(String(_req.path ?? '') || this.home);
    throw new BridgeError('UNKNOWN_METHOD', `The app has no action named “${method}”.`, { Method: method });
  }

  /** The workspaces of recent sessions, most recent first; a fake with sessions derives them. */
  protected recent(): string[] {
    return this.recentFolders;
  }

  private listFolders(path: string) {
    const names = this.folderTree[path];
    if (!names) throw new BridgeError('WORKSPACE_NOT_FOUND', `The workspace folder ${path} does not exist or is not a folder.`, { Path: path });
    const join = (n: string) => (path === '/' ? `/${n}` : `${path}/${n}`);
    const parent = path === '/' ? '' : path.slice(0, path.lastIndexOf('/')) || '/';
    const refused = path === '/' || path === '/etc';
    return {
      path,
      parent,
      home: this.home,
      folders: names.map((name) => ({ name, path: join(name) })),
      ...(refused ? { refusal: 'WORKSPACE_SYSTEM_FOLDER', reason: `${path} is the root or a system folder.` } : {}),
    };
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
