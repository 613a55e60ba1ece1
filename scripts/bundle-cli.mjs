// Bundles the compiled CLI (dist/cli/index.js and everything it imports: the core, the node:http server, pino, zod,
// commander) into one file, dist/bin/cli.js, that bin/mockrouter.js runs. One file instead of several hundred
// modules is most of the start-up time saved (see the "CLI start" section of bench/README.md). Run by
// `npm run build` after tsc. pino and commander live only in this bundle, so they are devDependencies: an install
// of the package does not fetch them.
//
// Left outside the bundle: what the CLI loads only on demand (yaml for YAML files; ioredis, the client of --store,
// which src/node/redis-store/ loads with createRequire, a runtime dependency resolved from the package's
// node_modules) and msw (never used by the CLI). node:cluster (--workers) is built into Node.
// The MP3 encoder's WebAssembly is no module: the Node.js platform reads the installed wasm-media-encoders/wasm/mp3
// by path (mp3WasmFile of src/node/package-files.ts), so no JavaScript of that package is bundled or imported.
// dist/bin/ is two folders below the package root, like src/node/package-files.ts, so the bundle finds the
// package's fixtures, scenarios, package.json and dependencies the same way.
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/index.js'],
  outfile: 'dist/bin/cli.js',
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
