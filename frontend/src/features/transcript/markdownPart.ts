import { loadable } from '../../ui/loadable';

/**
 * The Markdown renderer (the parser and the sanitizer) as a chunk of its own: the new task's
 * composer, the first screen, never shows Markdown, so it does not wait for that code. A session's
 * transcript loads it with its view; a plan review in the composer draws it from here.
 */
export const markdownPart = loadable(() => import('./Markdown'));
