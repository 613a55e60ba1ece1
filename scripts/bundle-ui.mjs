// Bundles the dashboard (docs/admin-api.md, "Dashboard") from ui/ into dist/ui/: index.html, app.js (ui/src/main.tsx with
// Preact, minified, one ES module), app.css (ui/styles.css, imported by main.tsx) and icon.svg. Nothing is loaded
// from elsewhere at run time; the standalone server serves these files under /__mock/ui (src/server/ui.ts).
// Run by `npm run build`; the dashboard's tests run it too. `node scripts/bundle-ui.mjs [outdir]` writes elsewhere.
//
// The page imports the admin API's answer types from src/core/admin/wire.ts (type-only imports, erased here); a
// build that would bundle any module of src/ fails, so the page never carries a copy of the core.
//
// The files are written to a temporary folder beside the output and renamed into it one by one, so a server
// reading the folder meanwhile (another test file) never sees a half-written file.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const outdir = resolve(process.argv[2] ?? join(root, 'dist', 'ui'));

mkdirSync(dirname(outdir), { recursive: true });
const staging = mkdtempSync(`${outdir}.tmp-`);
try {
  const { metafile } = await build({
    entryPoints: { app: join(root, 'ui', 'src', 'main.tsx') },
    outdir: staging,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
    absWorkingDir: root, // the metafile's paths relative to the repository
  });
  const fromCore = Object.keys(metafile.inputs).filter((input) => input.startsWith('src/'));
  if (fromCore.length > 0) throw new Error(`bundle-ui: the dashboard must import only types from src/ (import type), but bundles ${fromCore.join(', ')}`);
  for (const name of ['index.html', 'icon.svg']) copyFileSync(join(root, 'ui', name), join(staging, name));
  mkdirSync(outdir, { recursive: true });
  const made = readdirSync(staging);
  for (const name of made) renameSync(join(staging, name), join(outdir, name));
  for (const name of readdirSync(outdir)) if (!made.includes(name)) rmSync(join(outdir, name), { recursive: true, force: true });
} finally {
  rmSync(staging, { recursive: true, force: true });
}
