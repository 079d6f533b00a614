// Go embeds all:frontend/dist, so dist/.gitkeep is committed; vite build empties dist, this puts it back.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
mkdirSync(dist, { recursive: true });
writeFileSync(join(dist, '.gitkeep'), '');
