/**
 * Throwaway folders for a test file: each call makes a new empty folder under the OS's temporary folder, and all of
 * them are removed after the file's tests (`afterAll`), whatever they left inside.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of temporary folders named `<prefix>XXXXXX` (6 random characters), removed after the calling file's tests.
 * Call it at the top of a test file.
 *
 * @param prefix the folder names' start, e.g. `mockrouter-record-lock-`.
 * @returns a function that makes one new folder and gives its absolute path.
 */
export function tempFolders(prefix: string): () => string {
  const folders: string[] = [];
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    folders.push(dir);
    return dir;
  };
}
