/**
 * The layout `docs/architecture.md` describes, checked: no import circle anywhere in `src` (type imports
 * included), the core free of Node.js and of every adapter, `src/core` made of rooms only, and the rooms in
 * layers: a room imports only rooms below it in {@link CORE_ROOMS} and {@link SRC_ROOMS}, type imports included. Imports are read with TypeScript's own `preProcessFile`, so comments and strings never count.
 * And the sizes a reader takes in at once: every file of `src` and `ui/src` at most {@link MAX_FILE_LINES} lines,
 * every function or class at most {@link MAX_FUNCTION_LINES}, measured on TypeScript's own syntax tree.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** Every `.ts`/`.tsx` file under `dir`, as paths relative to the repository (`src/core/gateway/gateway.ts`). */
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

/**
 * The rooms of `src/core`, lowest first: each may import only those before it. `base` holds the leaves (types,
 * clock, ids, the error classes, the envelope builder, the generic validator), `formats` the file formats, the
 * domain rooms come next, `gateway` composes them and `admin` is the standalone server's API around it.
 */
const CORE_ROOMS = ['base', 'formats', 'http', 'accounts', 'audio', 'transcription', 'catalog', 'scenarios', 'journal', 'store', 'generations', 'operations', 'gateway', 'admin'];

/** The rooms of `src`, lowest first (`index.ts` is the `mockrouter` entry): each may import only those before it. */
const SRC_ROOMS = ['core', 'node-platform', 'msw', 'node-adapter', 'recorder', 'vitest', 'verify', 'server', 'express', 'browser', 'index.ts', 'cli'];

/** The room of `file` in `order`'s terms: `src/core/<room>/...` for core files, else `src/<room>/...`. */
function roomOf(file: string, core: boolean): string {
  const parts = file.split('/');
  return core ? parts[2]! : parts[1]!;
}

/** Every import that goes from a room to one at or above its rank in `order`, as `from -> to` lines. */
function upwardImports(order: readonly string[], core: boolean): string[] {
  const offending: string[] = [];
  for (const [file, imports] of graph) {
    if (core !== file.startsWith('src/core/')) continue;
    for (const target of imports) {
      if (core && !target.startsWith('src/core/')) continue;
      const from = roomOf(file, core);
      const to = roomOf(target, core);
      if (from === to) continue;
      const rankFrom = order.indexOf(from);
      const rankTo = order.indexOf(to);
      if (rankFrom < 0 || rankTo < 0 || rankTo >= rankFrom) offending.push(`${file} -> ${target}`);
    }
  }
  return offending;
}

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
    expect(graph.get('src/core/gateway/gateway.ts')?.length).toBeGreaterThan(5);
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

  it('keeps src/core in rooms: no file at its root, every room ranked', () => {
    expect(files.filter((f) => posix.dirname(f) === 'src/core')).toEqual([]);
    const rooms = new Set(files.filter((f) => f.startsWith('src/core/')).map((f) => roomOf(f, true)));
    expect([...rooms].sort()).toEqual([...CORE_ROOMS].sort());
    const srcRooms = new Set(files.filter((f) => !f.startsWith('src/core/')).map((f) => roomOf(f, false)));
    expect([...srcRooms].sort()).toEqual(SRC_ROOMS.filter((room) => room !== 'core').sort());
  });

  it('keeps the rooms of src/core in layers: each imports only rooms below it', () => {
    expect(upwardImports(CORE_ROOMS, true)).toEqual([]);
  });

  it('keeps the rooms of src in layers: each imports only rooms below it', () => {
    expect(upwardImports(SRC_ROOMS, false)).toEqual([]);
  });

  it('finds an upward import when there is one (a guard for the two checks above)', () => {
    expect(upwardImports([...CORE_ROOMS].reverse(), true).length).toBeGreaterThan(10);
    expect(upwardImports([...SRC_ROOMS].reverse(), false).length).toBeGreaterThan(10);
  });
});

/** The most lines a file of `src` or `ui/src` may have. */
const MAX_FILE_LINES = 300;

/** The most lines a function (declared, an expression, an arrow, a method, an accessor, a constructor) or a class may span. */
const MAX_FUNCTION_LINES = 200;

/** The files whose sizes are checked: those of `src` and of the dashboard's `ui/src`. */
const sizedFiles = [...files, ...sourceFiles(join(ROOT, 'ui', 'src'))];

/** The lines of `text` as an editor counts them (a last line break ends the last line, it starts none). */
function lineCount(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** Each file of {@link sizedFiles} with its length in lines, read once. */
const fileLines = sizedFiles.map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }));

/** The files of {@link sizedFiles} longer than `limit` lines, as `file (n lines)`. */
function longFiles(limit: number): string[] {
  return fileLines.filter(({ lines }) => lines > limit).map(({ file, lines }) => `${file} (${lines} lines)`);
}

/** The name a reader knows a function or class by: its own, else the variable or property it is assigned to. */
function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name !== undefined) return parent.name.getText(source);
  return '(anonymous)';
}

/**
 * Every function with a body and every class of {@link sizedFiles}, with the lines it spans from its first token (its
 * docstring not counted) to its last, as `file:line name`. Nested ones are measured too, each on its own.
 */
function functionSpans(): { where: string; lines: number }[] {
  const spans: { where: string; lines: number }[] = [];
  for (const file of sizedFiles) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if ((ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body !== undefined) || ts.isClassLike(node)) {
        const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        spans.push({ where: `${file}:${first + 1} ${nameOf(node, source)}`, lines: last - first + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return spans;
}

const spans = functionSpans();

/** The functions and classes of {@link functionSpans} longer than `limit` lines, as `file:line name (n lines)`. */
function longFunctions(limit: number): string[] {
  return spans.filter(({ lines }) => lines > limit).map(({ where, lines }) => `${where} (${lines} lines)`);
}

describe('sizes of src and ui/src', () => {
  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    expect(longFiles(MAX_FILE_LINES)).toEqual([]);
  });

  it(`has no function or class over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(longFunctions(MAX_FUNCTION_LINES)).toEqual([]);
  });

  it('finds a file or a function over a limit when there is one (a guard for the two checks above)', () => {
    expect(sizedFiles.filter((file) => file.startsWith('ui/src/')).length).toBeGreaterThan(5);
    expect(longFiles(100).length).toBeGreaterThan(20);
    expect(longFunctions(60).length).toBeGreaterThan(10);
    expect(longFunctions(60).some((found) => / createGatewayOn \(/.test(found))).toBe(true);
    expect(longFunctions(60).some((found) => found.startsWith('ui/src/'))).toBe(true);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\nb')).toBe(2);
  });
});

/**
 * The files of `src` the package's entries load at import (`mockrouter`, `/server`, `/express`, `/vitest`, `/browser`):
 * all but the CLI's and its subcommands' rooms, which only the command loads.
 */
const IMPORTED_FILES = files.filter((file) => !['src/cli/', 'src/recorder/', 'src/verify/'].some((room) => file.startsWith(room)));

/** zod's schema methods: a call of one at module level (`NonEmptyString.optional()`) builds a schema at import. */
const SCHEMA_METHODS = new Set(['optional', 'nullable', 'nullish', 'array', 'describe', 'meta', 'extend', 'merge', 'pick', 'omit', 'partial', 'required', 'and', 'or', 'default', 'catch', 'refine', 'superRefine', 'transform', 'pipe', 'brand', 'readonly', 'min', 'max', 'length', 'regex']);

/** Globals with methods of those names that build no schema (`Math.max`, vitest's `expect.extend`). */
const NOT_SCHEMAS = new Set(['Math', 'Object', 'Array', 'Number', 'String', 'JSON', 'Promise', 'Reflect', 'expect']);

/**
 * The zod schemas `text` (the source of `file`) builds when it is imported, as `file:line call`: every call at module
 * level, outside any function's body, of a member of zod's namespace `z` other than `z.lazy` (`z.object(...)`, in a
 * `const`, an object literal, an array, anywhere), or of a schema method on any value. A `z.lazy(() => ...)` builds
 * its schema on first use: its function, like every function, is not entered.
 */
function eagerSchemas(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const { expression: on, name } = node.expression;
      const zodCall = ts.isIdentifier(on) && on.text === 'z' && name.text !== 'lazy';
      const schemaMethod = SCHEMA_METHODS.has(name.text) && !(ts.isIdentifier(on) && NOT_SCHEMAS.has(on.text));
      if (zodCall || schemaMethod) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${node.expression.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('import cost', () => {
  it('builds no zod schema at import: the schemas of the files the entries load are z.lazy (built on first use)', () => {
    expect(IMPORTED_FILES.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('z.lazy(')).length).toBeGreaterThan(15);
    expect(IMPORTED_FILES.flatMap((file) => eagerSchemas(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('finds a schema built at import when there is one (a guard for the check above)', () => {
    const text = [
      'export const A = z.object({ a: z.string() });',
      'const B = z\n  .string()\n  .min(1);',
      'const C = z.lazy(() => z.string());',
      'const D = z.lazy(() => z.string()).optional();',
      'const E = other.parse(1), F = 2;',
      'const fields = { name: z.string() };',
      'const G = NonEmptyString.array();',
      'function later() { return z.string(); }',
      'const H = () => z.number();',
    ].join('\n');
    expect(eagerSchemas('probe.ts', text)).toEqual([
      'probe.ts:1 z.object',
      'probe.ts:1 z.string',
      'probe.ts:2 z\n  .string()\n  .min',
      'probe.ts:2 z\n  .string',
      'probe.ts:6 z.lazy(() => z.string()).optional',
      'probe.ts:8 z.string',
      'probe.ts:9 NonEmptyString.array',
    ]);
    expect(eagerSchemas('probe.ts', 'const n = Math.max(1, 2);\nexpect.extend({});')).toEqual([]);
  });
});

/** One row of the folder table of `docs/architecture.md`: the folder, its count column, the file names it gives. */
interface FolderRow {
  folder: string;
  count: string;
  names: string[];
}

/** The rows of the table under "The folders of `src`" in `docs/architecture.md`. */
function architectureRows(): FolderRow[] {
  const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## The folders of `src`'), text.indexOf('\n## ', text.indexOf('## The folders of `src`') + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `src'))
    .map((line) => {
      const [folder, count, what] = line.split(' | ').map((cell) => cell.replace(/^\|?\s*|\s*\|?$/g, ''));
      return { folder: folder!.replace(/`/g, '').replace(/\/$/, ''), count: count!, names: [...(what ?? '').matchAll(/`([\w.-]+\.tsx?)`/g)].map((m) => m[1]!) };
    });
}

/** The `.ts` files directly in `folder` and its subfolders' count. */
function folderContents(folder: string): { files: string[]; folders: number } {
  const entries = readdirSync(join(ROOT, folder), { withFileTypes: true });
  return { files: entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => e.name).sort(), folders: entries.filter((e) => e.isDirectory()).length };
}

describe('docs/architecture.md describes the tree as it is', () => {
  const rows = architectureRows();

  it('has a row for every folder of src, and no row for a folder that is gone', () => {
    const folders = ['src', ...new Set(files.map((f) => posix.dirname(f)).filter((d) => d !== 'src'))];
    const withParents = new Set(folders.flatMap((d) => d.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
    expect(rows.map((row) => row.folder).sort()).toEqual([...withParents].sort());
  });

  it('gives each folder its file count and names every file in it, and no file it does not hold', () => {
    for (const row of rows) {
      const { files: held, folders } = folderContents(row.folder);
      const count = folders === 0 ? String(held.length) : `${held.length} and ${folders} folder${folders === 1 ? '' : 's'}`;
      expect(`${row.folder}: ${row.count}`).toBe(`${row.folder}: ${count}`);
      expect(`${row.folder}: ${[...new Set(row.names)].sort().join(' ')}`).toBe(`${row.folder}: ${held.join(' ')}`);
    }
  });

  it('lists the rooms in the order test/layout.test.ts enforces', () => {
    const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8').replace(/\s+/g, ' ');
    const listed = (label: string): string[] => {
      const start = text.indexOf(`${label}, lowest first: `) + `${label}, lowest first: `.length;
      const end = Math.min(...['. ', ' ('].map((stop) => text.indexOf(stop, start)).filter((at) => at > 0));
      return text.slice(start, end).split(', ').map((room) => room.replace(/`/g, ''));
    };
    expect(listed('Rooms of `src/core`')).toEqual(CORE_ROOMS);
    expect(listed('Rooms of `src`')).toEqual(SRC_ROOMS);
  });

  it('names only files that exist, on every page of docs/ and in the README', () => {
    const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const missing: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(ROOT, page), 'utf8');
      for (const [, path] of text.matchAll(/`((?:src|test|scripts|bench|examples)\/[\w./-]+)`/g)) {
        if (!existsSync(join(ROOT, path!))) missing.push(`${page}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('the benchmark imports what the build writes', () => {
  it('every dist/ module bench/ loads by path is built from a file of src, or is an entry scripts/bundle-lib.mjs bundles', () => {
    const bench = join(ROOT, 'bench');
    const bundler = readFileSync(join(ROOT, 'scripts/bundle-lib.mjs'), 'utf8');
    const missing: string[] = [];
    let seen = 0;
    for (const file of readdirSync(bench).filter((f) => f.endsWith('.ts'))) {
      for (const [, module] of readFileSync(join(bench, file), 'utf8').matchAll(/\.\.\/dist\/([\w/.-]+)\.js/g)) {
        seen++;
        const bundled = module!.startsWith('lib/') && bundler.includes(`${module!.slice('lib/'.length)}: 'dist/`);
        if (!bundled && !existsSync(join(ROOT, 'src', `${module!}.ts`))) missing.push(`bench/${file}: dist/${module!}.js`);
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(missing).toEqual([]);
  });
});
