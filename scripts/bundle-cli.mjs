// Bundles the compiled CLI (dist/cli/index.js and everything it imports: the core, the node:http server, pino, zod,
// commander) into dist/bin/cli.js, that bin/mockrouter.js runs, and a few chunks beside it: a handful of files
// instead of several hundred modules is most of the start-up time saved (see the "CLI start and import" section of
// bench/README.md), and the split at the dynamic imports of src/cli/index.ts spares the server's start-up the
// `record` and `verify` commands (bench/README.md, "CLI start and import"). Run by
// `npm run build` after tsc. pino and commander live only in this bundle, so they are devDependencies: an install
// of the package does not fetch them.
//
// Left outside the bundle: what the CLI loads only on demand (yaml for YAML files; ioredis, the client of --store,
// which src/node-platform/redis-store/ loads with createRequire, a runtime dependency resolved from the package's
// node_modules) and msw (never used by the CLI). node:cluster (--workers) is built into Node.
// The MP3 encoder's WebAssembly is no module: the Node.js platform reads the installed wasm-media-encoders/wasm/mp3
// by path (mp3WasmFile of src/node-platform/package-files.ts), so no JavaScript of that package is bundled or imported.
// dist/bin/ is two folders below the package root, like src/node-platform/package-files.ts, so the bundle finds the
// package's fixtures, scenarios, package.json and dependencies the same way.
import { build } from 'esbuild';

await build({
  // One entry, split at its dynamic imports (src/cli/index.ts loads the server, `record` or `verify` by the
  // first argument): the server's start-up parses only its own chunks, not the other commands'.
  // The words threads' code (src/node-platform/words-worker.ts) is an entry of its own, beside cli.js: the pool
  // starts it from the folder of its own chunk (new URL('./words-worker.js', import.meta.url)).
  entryPoints: { cli: 'dist/cli/index.js', 'words-worker': 'dist/node-platform/words-worker.js' },
  outdir: 'dist/bin',
  splitting: true,
  // Chunks beside cli.js: src/node-platform/package-files.ts finds the package root two folders up from them.
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'bundle',
  external: ['msw', 'msw/*', 'yaml', 'ioredis'],
  // CommonJS dependencies (pino) call require(); give the ES module bundle one.
  banner: { js: "import { createRequire as __mockrouterRequire } from 'node:module'; const require = __mockrouterRequire(import.meta.url);" },
  legalComments: 'none',
  // Smaller to parse at start-up; identifiers keep their names (messages and plugin names stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
