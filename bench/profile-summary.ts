/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, e.g. from `BENCH_PROFILE=<dir> npm run bench`): self time by
 * where the code lives (a dist/ file, a package, Node's internals, GC, idle) and the functions with the most
 * self time.
 *
 * Usage: `node --import tsx bench/profile-summary.ts <file.cpuprofile>... [--top=N] [--skip=S]` (N functions,
 * default 25; leave out the first S seconds of the profile, e.g. start-up)
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: `dist/core/gateway/gateway.js`, `zod`, `node:http`, `(garbage collector)`, ... */
export function locationOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  const dist = /\/(dist\/.+)$/.exec(url);
  if (dist) return dist[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:internal\//, 'node:');
  return url.replace(/^file:\/\/.*\/(bench|src)\//, '$1/');
}

/** Summarises `profile`; samples in its first `skipSeconds` (start-up, a first cold render) are left out. */
export function summarise(profile: Profile, top = 25, skipSeconds = 0): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    at += profile.timeDeltas[i] ?? 0;
    if (at - profile.startTime < skipSeconds * 1e6) continue;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;

  const byLocation = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, t] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const where = locationOf(url, functionName);
    byLocation.set(where, (byLocation.get(where) ?? 0) + t);
    const fn = `${functionName || '(anonymous)'}  ${url ? `${where}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + t);
  }
  // Inclusive time: each sample counts once for every distinct function on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n: ProfileNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    return `${functionName || '(anonymous)'}  ${url ? `${locationOf(url, functionName)}:${lineNumber + 1}` : ''}`.trim();
  };
  const inclusive = new Map<string, number>();
  for (const [id, t] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = byId.get(at)!;
      if (!n.callFrame.url) continue;
      const key = keyOf(n);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + t);
    }
  }
  const pct = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
  const lines = [
    `profile: ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s${skipSeconds > 0 ? ` (first ${skipSeconds} s left out)` : ''}, busy ${(busy / 1e6).toFixed(2)} s (${((100 * busy) / total).toFixed(0)}%), idle ${(idle / 1e6).toFixed(2)} s`,
    '',
    'self time by location (% of busy time):',
    ...[...byLocation].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([where, t]) => `  ${pct(t)}  ${where}`),
    '',
    `top ${top} functions by self time (% of busy time):`,
    ...[...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, t]) => `  ${pct(t)}  ${fn}`),
    '',
    `top ${top} functions of dist/ and packages by inclusive time (% of busy time):`,
    ...[...inclusive]
      .filter(([fn]) => / (dist\/|[@a-z][^ :]*:\d+$)/.test(fn) && !/ node:/.test(fn))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([fn, t]) => `  ${pct(t)}  ${fn}`),
  ];
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const topArg = args.find((a) => a.startsWith('--top='));
  const top = topArg ? Number(topArg.slice('--top='.length)) : 25;
  const skipArg = args.find((a) => a.startsWith('--skip='));
  const skip = skipArg ? Number(skipArg.slice('--skip='.length)) : 0;
  const files = args.filter((a) => !a.startsWith('--'));
  if (files.length === 0 || !Number.isInteger(top) || top < 1 || !(skip >= 0)) {
    process.stderr.write('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>... [--top=N] [--skip=S]\n');
    process.exit(2);
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    process.stdout.write(`${files.length > 1 ? `== ${file}\n` : ''}${summarise(profile, top, skip)}\n\n`);
  }
}
