import { startBoot } from './app/boot';
import './app/theme.css';
import './app/shell.css';

// The page's first script is small: it starts the reads the first screen needs, then loads the
// app (React and the views) as a chunk of its own, so the two overlap.
const root = document.getElementById('root');
if (root) {
  const boot = startBoot();
  void import('./app/mount').then(({ mount }) => mount(root, boot));
}
