/**
 * Atomic file writes for the recorder (`mockrouter record`): each file is written whole to
 * `<file>.tmp-<pid>-<n>` and renamed over `<file>`, so a reader (or a crash, SIGKILL included) sees the old file or
 * the new one, never half of one. Writes to one file are queued, one at a time; a write asked for while another
 * of the same file waits is merged into it (the waiting one takes the newest content when its turn comes).
 *
 * @module
 */
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from './folder-lock.js';

/** The content of a file, computed when its write starts (so a queued write always writes the newest state). */
export type ContentOf = () => string | Uint8Array;

/** What a temporary file of this module is named: `<name>.tmp-<pid>-<n>`. */
const TEMP_NAME = /\.tmp-(\d+)-\d+$/;

/** One file's queue: the last write asked for (run or waiting), and the one waiting to start, if any. */
interface FileQueue {
  tail: Promise<void>;
  waiting: { content: ContentOf; done: Promise<void> } | undefined;
}

/**
 * Writes files atomically, one write at a time per file.
 *
 * @example
 * const writer = new FolderWriter();
 * await writer.write('/tmp/rec/models.json', () => JSON.stringify(state));
 * await writer.idle();
 */
export class FolderWriter {
  private readonly queues = new Map<string, FileQueue>();
  private count = 0;

  /**
   * Writes `content()` to `file` atomically, after any write of `file` already running; folders are created as
   * needed. When a write of `file` is already waiting, this one joins it (its `content` replaces the waiting one's).
   *
   * @returns resolves once the content (or a newer one) is in place.
   * @throws the file system's error (ENOSPC, EACCES, ...); the temporary file is removed.
   */
  write(file: string, content: ContentOf): Promise<void> {
    let queue = this.queues.get(file);
    if (queue === undefined) {
      queue = { tail: Promise.resolve(), waiting: undefined };
      this.queues.set(file, queue);
    }
    if (queue.waiting !== undefined) {
      queue.waiting.content = content;
      return queue.waiting.done;
    }
    const q = queue;
    const waiting: { content: ContentOf; done: Promise<void> } = { content, done: Promise.resolve() };
    waiting.done = q.tail
      .catch(() => undefined)
      .then(() => {
        q.waiting = undefined;
        return this.writeNow(file, waiting.content);
      });
    q.waiting = waiting;
    q.tail = waiting.done;
    void waiting.done
      .catch(() => undefined)
      .then(() => {
        if (q.tail === waiting.done && this.queues.get(file) === q) this.queues.delete(file);
      });
    return waiting.done;
  }

  /** Resolves when no write is running or waiting (errors are the callers' of {@link FolderWriter.write}). */
  async idle(): Promise<void> {
    while (this.queues.size > 0) {
      await Promise.allSettled([...this.queues.values()].map((q) => q.tail));
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private async writeNow(file: string, content: ContentOf): Promise<void> {
    const temp = `${file}.tmp-${process.pid}-${++this.count}`;
    await mkdir(dirname(file), { recursive: true });
    try {
      await writeFile(temp, content());
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }
}

/**
 * Removes the temporary files (`<name>.tmp-<pid>-<n>`) a killed recorder left in `dir`: those of this process's
 * pid or of a pid no process has (`isProcessAlive`), for the names `owned` accepts (the recorder's own files;
 * anything else is left alone). A file of a running process is another writer's, under way: kept. A missing
 * folder is nothing to clean.
 *
 * @returns the names removed.
 */
export async function removeLeftovers(dir: string, owned: (name: string) => boolean): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const leftovers = names.filter((name) => {
    const pid = TEMP_NAME.exec(name)?.[1];
    return pid !== undefined && owned(name.replace(TEMP_NAME, '')) && (Number(pid) === process.pid || !isProcessAlive(Number(pid)));
  });
  await Promise.all(leftovers.map((name) => rm(join(dir, name), { force: true })));
  return leftovers.map((name) => basename(name));
}
