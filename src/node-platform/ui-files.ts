/**
 * The dashboard's built files: `dist/ui/` of the package (`index.html`, `app.js`, `app.css`, `icon.svg`), made by
 * `npm run build` (`scripts/bundle-ui.mjs`) from `ui/`. Node-only; found from the package root as every other
 * package file is (`package-files.ts`), so the source checkout, the compiled package and the bundled CLI read the
 * same folder. A source checkout that was never built has no such folder: {@link UiFiles.built} says so.
 *
 * @module
 */
import { sha256 } from './node-crypto.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { PACKAGE_DIR } from './package-files.js';

/** The package's `dist/ui/` folder, an absolute path. */
export const UI_DIR: string = join(PACKAGE_DIR, 'dist', 'ui');

/** Content types of the files a build holds. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** One file of the build. */
export interface UiFile {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** A strong validator: a quoted hash of the bytes. */
  readonly etag: string;
}

/** Reads the dashboard's files. */
export interface UiFiles {
  /** The folder read. */
  readonly dir: string;
  /** Whether the folder holds a build (its `index.html`). */
  built(): boolean;
  /**
   * The file `name` of the folder's top level, or `undefined` when there is none. Only plain names of files
   * with a known type are served: no folders, no `..`, nothing hidden.
   */
  get(name: string): UiFile | undefined;
}

const PLAIN_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/**
 * The files of `dir` (default {@link UI_DIR}). A file is read again when its size or modification time changed,
 * so a rebuild shows without a restart; otherwise it is kept in memory.
 */
export function uiFiles(dir: string = UI_DIR): UiFiles {
  const cache = new Map<string, { mtimeMs: number; size: number; file: UiFile }>();
  return {
    dir,
    built: () => existsSync(join(dir, 'index.html')),
    get(name) {
      const contentType = CONTENT_TYPES[extname(name)];
      if (!PLAIN_NAME.test(name) || contentType === undefined) return undefined;
      const path = join(dir, name);
      let stat;
      try {
        stat = statSync(path);
      } catch {
        return undefined;
      }
      if (!stat.isFile()) return undefined;
      const cached = cache.get(name);
      if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.file;
      const body = readFileSync(path);
      const file: UiFile = { body, contentType, etag: `"${sha256(body, 'base64url').slice(0, 22)}"` };
      cache.set(name, { mtimeMs: stat.mtimeMs, size: stat.size, file });
      return file;
    },
  };
}

