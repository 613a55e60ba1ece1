// Bundles the package's Node.js entries (dist/index.js, dist/server/index.js, dist/express/index.js and
// dist/vitest/index.js, as tsc compiled them) into dist/lib/, one file an entry and the chunks they share, which
// package.json's `exports` name for Node.js. Loading a few files instead of some two hundred modules (and zod's own
// hundred) is most of what `import('mockrouter')` cost: the module loader resolves, reads and compiles each file
// (bench/README.md, "CLI start and import"). One build with code splitting: the entries share chunks, so `mockrouter` and
// `mockrouter/server` loaded in one process share one copy of every class (an error thrown by one is `instanceof`
// the other's), and a dynamic import stays a chunk loaded on first use (the bundled MP3 encoder of browsers is never
// loaded in Node.js). Run by `npm run build` after tsc.
//
// Left outside the bundle: the peers (msw, vitest, express and @mswjs/http-middleware, which users install and whose
// one copy their tests share) and what is loaded only on demand with createRequire (yaml, ioredis). The browser
// entry (dist/browser/) is not bundled here: the app's own bundler does that. dist/lib/ is two folders below the
// package root, like src/node-platform/package-files.ts, so the bundle finds the package's fixtures, scenarios,
// package.json and dependencies the same way.
import { build } from 'esbuild';

await build({
  // The words threads' code (src/node-platform/words-worker.ts) is an entry of its own, beside the chunks: the pool
  // starts it from the folder of its own chunk (new URL('./words-worker.js', import.meta.url)).
  entryPoints: { index: 'dist/index.js', server: 'dist/server/index.js', express: 'dist/express/index.js', vitest: 'dist/vitest/index.js', 'words-worker': 'dist/node-platform/words-worker.js' },
  outdir: 'dist/lib',
  splitting: true,
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'bundle',
  external: ['msw', 'msw/*', 'vitest', 'express', '@mswjs/*', 'yaml', 'ioredis', '@echogarden/*'],
  legalComments: 'none',
  // Smaller to parse at import; identifiers keep their names (stack traces and error names stay readable).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
