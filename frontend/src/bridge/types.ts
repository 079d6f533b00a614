/** Wire types of the Go app API (JSON field names as the Go side emits them). */

export type Language = 'en' | 'zh-CN';

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN'];

export interface Session {
  id: string;
  title: string;
  workspace: string;
  /** RFC 3339 */
  createdAt: string;
  /** RFC 3339 */
  updatedAt: string;
}

export interface CreateSessionRequest {
  title?: string;
  workspace?: string;
}

export interface Settings {
  language: Language;
}

export interface SystemInfo {
  version: string;
  dataDir: string;
  defaultWorkspace: string;
  transport: 'desktop' | 'browser';
}
