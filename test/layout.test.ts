/**
 * The layout `docs/architecture.md` describes, checked: no import circle anywhere in `src` (type imports
 * included), the core free of Node.js and of every adapter, and `src/core` in rooms with at most 12 files at its
 * root. Imports are read with TypeScript's own `preProcessFile`, so comments and strings never count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Every `.ts`/`.tsx` file under `dir`, as paths relative to the repository (`src/core/gateway.ts`). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

const files = sourceFiles(SRC);
const known = new Set(files);

/** The specifiers `file` imports or re-exports, static and dynamic. */
function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map((ref) => ref.fileName);
}

/** The files of `src` that `file` imports (relative specifiers resolved, `.js` to `.ts`). */
function localImports(file: string): string[] {
  const out: string[] = [];
  for (const spec of specifiersOf(file)) {
    if (!spec.startsWith('.')) continue;
    const base = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, '');
    const hit = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => known.has(candidate));
    if (hit) out.push(hit);
  }
  return out;
}

const graph = new Map(files.map((file) => [file, localImports(file)]));

/** One import circle of the graph, as the files around it (first = last), or `undefined` when there is none. */
function findCircle(): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file];
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

describe('layout of src', () => {
  it('reads the tree (a guard: the checks below would pass on nothing)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(graph.get('src/core/gateway.ts')?.length).toBeGreaterThan(5);
  });

  it('has no import circle, type imports included', () => {
    expect(findCircle()).toBeUndefined();
  });

  it('keeps the core free of Node.js, frameworks and the adapters', () => {
    const offending: string[] = [];
    for (const file of files.filter((f) => f.startsWith('src/core/'))) {
      for (const spec of specifiersOf(file)) {
        const local = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : undefined;
        const outside = local !== undefined && !local.startsWith('src/core/');
        if (spec.startsWith('node:') || /^(msw|express|pino|commander)(\/|$)/.test(spec) || outside) offending.push(`${file}: ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('keeps src/core in rooms: at most 12 files at its root', () => {
    const root = files.filter((f) => posix.dirname(f) === 'src/core');
    expect(root.length).toBeGreaterThan(0);
    expect(root.length).toBeLessThanOrEqual(12);
  });
});
