/**
 * One recorder per folder: `mockrouter record` holds the lock file {@link LOCK_FILE} in its `--out` folder, holding
 * its pid, from start to stop. A second recorder on the folder is refused ({@link FolderBusyError}); a lock whose
 * process is gone (a recorder killed with SIGKILL, a machine restarted) is taken over. The lock also tells a running
 * recorder that its folder was deleted under it (the lock file is gone): `recorded-folder.ts` then writes it again.
 *
 * @module
 */
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** The lock file's name, in the recorded folder. `--fixtures` does not read it. */
export const LOCK_FILE = '.mockrouter-record.lock';

/** Another recorder (its pid named) holds the folder. */
export class FolderBusyError extends Error {
  override name = 'FolderBusyError';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `--out ${dir}: another mockrouter record (pid ${pid}) is writing this folder; stop it or record into another folder ` +
        `(if no recorder runs, remove ${join(dir, LOCK_FILE)})`,
    );
  }
}

/**
 * Whether a process of id `pid` runs (on this machine): `kill(pid, 0)` succeeds, or fails only for want of
 * permission (the process exists, of another user).
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders (resolved paths) whose lock this process holds, so a second recorder in the same process is refused too. */
const held = new Set<string>();

/** A held lock. */
export interface FolderLock {
  /** The lock file's path. */
  readonly file: string;
  /**
   * Writes the lock file again when it is gone (the folder was deleted, or the file removed), folders included.
   *
   * @returns whether it was gone.
   */
  restoreIfMissing(): Promise<boolean>;
  /** Removes the lock file when it still holds this process's pid; idempotent. */
  release(): Promise<void>;
}

/** The pid a lock file holds, or `undefined` when it holds none (empty, not a number). */
function pidOf(text: string): number | undefined {
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/** `--out` names something that is no folder (a file): nothing can be recorded there. */
export class NotAFolderError extends Error {
  override name = 'NotAFolderError';
  constructor(readonly dir: string) {
    super(`--out ${dir}: a file is there, not a folder; expected a folder to record into (made when missing)`);
  }
}

/**
 * Takes the lock of `dir` (created when missing): creates {@link LOCK_FILE} holding this process's pid, or takes
 * over one whose process is gone.
 *
 * @throws {FolderBusyError} when a running process (this one included, for another recorder) holds it.
 * @throws {NotAFolderError} when `dir` is a file (or anything else that is no folder).
 * @throws the file system's error (EACCES, ENOSPC, ...).
 */
export async function acquireFolderLock(dir: string): Promise<FolderLock> {
  const key = resolve(dir);
  if (held.has(key)) throw new FolderBusyError(dir, process.pid);
  const there = await stat(dir).catch(() => undefined);
  if (there !== undefined && !there.isDirectory()) throw new NotAFolderError(dir);
  await mkdir(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const content = `${process.pid}\n`;
  const temp = `${file}.${process.pid}`;
  // Written whole first, then linked into place: link fails when the lock exists, so two recorders never both
  // create it, and a reader never sees it half written.
  await writeFile(temp, content);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await link(temp, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
      }
      const owner = pidOf(await readFile(file, 'utf8').catch(() => ''));
      if (owner !== undefined && owner !== process.pid && isProcessAlive(owner)) throw new FolderBusyError(dir, owner);
      // A stale lock: moved aside (only one taker can move it), then checked: had another taker replaced it in
      // between, its lock is put back and this one gives way.
      const aside = `${file}.stale-${process.pid}`;
      try {
        await rename(file, aside);
      } catch {
        continue;
      }
      const moved = pidOf(await readFile(aside, 'utf8').catch(() => ''));
      if (moved !== owner && moved !== undefined && isProcessAlive(moved)) {
        await link(aside, file).catch(() => undefined);
        await rm(aside, { force: true });
        throw new FolderBusyError(dir, moved);
      }
      await rm(aside, { force: true });
    }
  } finally {
    await rm(temp, { force: true });
  }
  held.add(key);
  let released = false;
  return {
    file,
    async restoreIfMissing() {
      if (released) return false;
      try {
        await stat(file);
        return false;
      } catch {
        await mkdir(dir, { recursive: true });
        await writeFile(file, content);
        return true;
      }
    },
    async release() {
      if (released) return;
      released = true;
      held.delete(key);
      const owner = pidOf(await readFile(file, 'utf8').catch(() => ''));
      if (owner === process.pid) await rm(file, { force: true });
    },
  };
}
