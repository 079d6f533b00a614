// Which parts of the window's binary are resident once it is at rest: its pages, read from
// /proc/PID/pagemap, by section, and its code and read-only data by Go module. A stripped binary
// has no symbols: they are read from a twin built from the same tree with them (the same tags
// and version; the sections must lie at the same addresses, which the script checks).
//
//   xvfb-run -a node frontend/bench/binpages.mjs --bin build/bin/agentdesk-desktop [--tags T] [--wait MS]
//
// Root, or the process's own user, may read its pagemap's present bits. The figures are resident
// pages (RSS): the kernel maps a file's pages around each one touched (whole large folios on
// recent kernels), so they move with the page cache's state from run to run; the shares between
// modules are what this is for.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: { bin: { type: 'string' }, tags: { type: 'string' }, wait: { type: 'string' } },
});
if (!process.env.DISPLAY) throw new Error('binpages.mjs needs an X display: run it under xvfb-run');
const repo = resolve(new URL('../..', import.meta.url).pathname);
const bin = resolve(opt.bin ?? join(repo, 'build/bin/agentdesk-desktop'));
const tags = opt.tags ?? 'desktop,production,sandboxhelper';
const work = mkdtempSync(join(tmpdir(), 'agentdesk-binpages-'));

/** The twin with symbols: the same build without -s -w. */
function twin() {
  const ldflags = readFileSync(join(repo, 'build/.ldflags'), 'utf8').trim().replace(/(^|\s)-[sw](?=\s|$)/g, ' ').trim();
  const out = join(work, 'twin');
  execFileSync('go', ['build', '-tags', tags, '-ldflags', ldflags, '-o', out, '.'], { cwd: repo, stdio: 'inherit' });
  return out;
}

/** Section name -> [address, size], from readelf. */
function sections(file) {
  const out = new Map();
  for (const line of execFileSync('readelf', ['-SW', file], { encoding: 'utf8' }).split('\n')) {
    const m = /\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)/.exec(line);
    if (m) out.set(m[1], [parseInt(m[2], 16), parseInt(m[3], 16)]);
  }
  return out;
}

/** The addresses of the binary's pages present in the process's memory. */
function residentPages(pid, file) {
  const pages = [];
  const fd = openSync(`/proc/${pid}/pagemap`, 'r');
  try {
    for (const line of readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f[5] !== file) continue;
      const [from, to] = f[0].split('-').map((x) => parseInt(x, 16));
      const n = (to - from) / 4096;
      const buf = Buffer.alloc(n * 8);
      readSync(fd, buf, 0, buf.length, (from / 4096) * 8);
      for (let i = 0; i < n; i++) if (buf.readBigUInt64LE(i * 8) >> 63n) pages.push(from + i * 4096);
    }
  } finally {
    closeSync(fd);
  }
  return pages;
}

/** The module a symbol belongs to: github.com/owner/repo, agentdesk/<dir>/<pkg>, or the standard library's package. */
function moduleOf(name) {
  // Go lays every type's descriptor out in one run from runtime.types, without a symbol each.
  if (name.startsWith('type:') || name === 'runtime.types' || name === 'runtime.rodata') return '(type descriptors, every package)';
  if (name.startsWith('go:string') || name.startsWith('go:')) return '(strings and other data)';
  const path = name.replace(/^[^\w]*/, '').split('(')[0];
  const slash = path.lastIndexOf('/');
  const pkg = path.slice(0, path.indexOf('.', slash + 1) > 0 ? path.indexOf('.', slash + 1) : undefined);
  const parts = pkg.split('/');
  if (parts[0] === 'agentdesk') return parts.slice(0, 3).join('/');
  if (parts[0].includes('.')) return parts.slice(0, parts[0] === 'github.com' || parts[0] === 'golang.org' ? 3 : 2).join('/');
  return `std ${parts[0]}`;
}

const symbolsFile = twin();
const mine = sections(bin);
const theirs = sections(symbolsFile);
for (const s of ['.text', '.rodata', '.gopclntab']) {
  if (String(mine.get(s)) !== String(theirs.get(s))) throw new Error(`the twin's ${s} is not where the binary's is: ${mine.get(s)} / ${theirs.get(s)}`);
}
const symbols = execFileSync('go', ['tool', 'nm', '-size', '-sort', 'address', symbolsFile], { encoding: 'utf8', maxBuffer: 1 << 28 })
  .split('\n')
  .map((l) => l.trim().split(/\s+/))
  .filter((f) => f.length >= 4 && /^[TtRrDdBb]$/.test(f[2]))
  .map((f) => ({ at: parseInt(f[0], 16), name: f.slice(3).join(' ') }));

const data = join(work, 'data');
mkdirSync(data);
const env = { ...process.env, AGENTDESK_BENCH_MARKS: '1', HOME: work, XDG_CONFIG_HOME: join(work, 'config'), XDG_CACHE_HOME: join(work, 'cache') };
const proc = spawn(bin, ['--data-dir', data], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
await new Promise((res, rej) => {
  let out = '';
  proc.stderr.on('data', (c) => {
    out += c;
    if (/agentdesk-bench: at rest at/.test(out)) res();
  });
  proc.on('exit', (code) => rej(new Error(`the window exited with ${code}`)));
  setTimeout(() => rej(new Error('the window did not come to rest within 60 s')), 60_000);
});
await new Promise((r) => setTimeout(r, Number(opt.wait ?? 1500)));
const pages = residentPages(proc.pid, bin);
process.kill(-proc.pid, 'SIGTERM');

const mb = (n) => ((n * 4096) / 2 ** 20).toFixed(1);
const bySection = new Map();
const byModule = { '.text': new Map(), '.rodata': new Map() };
let s = 0;
for (const page of pages) {
  const section = [...mine].find(([, [at, size]]) => page + 4096 > at && page < at + size)?.[0] ?? '(headers)';
  bySection.set(section, (bySection.get(section) ?? 0) + 1);
  const modules = byModule[section];
  if (!modules) continue;
  // The symbol that covers the middle of the page.
  while (s + 1 < symbols.length && symbols[s + 1].at <= page + 2048) s++;
  while (s > 0 && symbols[s].at > page + 2048) s--;
  const m = moduleOf(symbols[s].name);
  modules.set(m, (modules.get(m) ?? 0) + 1);
}
console.log(`${bin}: ${mb(pages.length)} MB of it resident at rest, by section (MB):`);
for (const [k, v] of [...bySection].sort((a, b) => b[1] - a[1])) console.log(`  ${mb(v).padStart(6)}  ${k}`);
for (const [section, modules] of Object.entries(byModule)) {
  console.log(`${section}, resident, by module (MB, the 15 largest):`);
  for (const [k, v] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${mb(v).padStart(6)}  ${k}`);
}
