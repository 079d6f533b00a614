import { startBoot } from './app/boot';
import { parseHash } from './app/hash';
import { firstScreenReady } from './app/views';
import './app/theme.css';
import './app/shell.css';

// The page's first script is small: it starts the reads the first screen needs and the code of
// the view it opens on, then loads the app (React and the views) as a chunk of its own, so they
// overlap. The app is drawn once the first screen can be drawn whole (views.ts).
const root = document.getElementById('root');
if (root) {
  const boot = startBoot();
  // The list comes with the page (its first reads), so it is known a few microtasks from now;
  // a backend slow to answer it is not waited for long: the app is drawn as it would be without.
  const listKnown = Promise.race([boot.sessions.firstLoaded(), new Promise((wait) => window.setTimeout(wait, 300))]);
  const ready = listKnown.then(() => {
    const list = boot.sessions.get();
    return firstScreenReady(parseHash(window.location.hash), list.status === 'ready' ? list.sessions.length === 0 : undefined);
  });
  void Promise.all([import('./app/mount'), ready]).then(([{ mount }]) => mount(root, boot));
}
