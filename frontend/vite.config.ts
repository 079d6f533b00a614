import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

// The locale files live one level up (repo/locales), shared with Go; the dev server must be allowed
// to read them.
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * The modules the first screen needs beyond the page's first script (src/main.tsx): the shell
 * (React and the session list), which that script imports on its own, and the main area's view
 * with its composer: the new task's (no session yet) or a session's. The composer ready for
 * typing is the first screen's end, so neither view waits for its code to be asked for once the
 * list is painted: both are fetched and compiled alongside the first script.
 */
const FIRST_SCREEN = ['/src/app/mount.tsx', '/src/app/newTaskPart.ts', '/src/features/sessions/SessionView.tsx'];

/**
 * Vite names only the first script in the page; the modules it imports dynamically are fetched
 * when it asks for them. This names the first screen's chunks (and the chunks they import) as
 * module preloads, so the browser fetches and compiles them alongside the first script instead of
 * one after the other.
 */
function preloadFirstScreen(): Plugin {
  return {
    name: 'agentdesk-preload-first-screen',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const files: string[] = [];
        const add = (file: string) => {
          if (files.includes(file)) return;
          files.push(file);
          chunks.find((c) => c.fileName === file)?.imports.forEach(add);
        };
        for (const id of FIRST_SCREEN) {
          const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(id));
          if (!chunk) throw new Error(`preloadFirstScreen: no chunk for ${id}`);
          add(chunk.fileName);
        }
        const entry = chunks.find((c) => c.isEntry)?.fileName;
        return files
          .filter((f) => f !== entry)
          .map((f) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` }, injectTo: 'head' as const }));
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), preloadFirstScreen()],
  base: './',
  server: {
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // The shell tests render the whole app; on two shared cores they can take several seconds.
    testTimeout: 15_000,
  },
});
