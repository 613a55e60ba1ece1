/**
 * Stopping the CLI when its standard input ends (`--stop-on-stdin-close`). Started by `src/cli/serve.ts`; off unless
 * the flag is given.
 *
 * Why: a program that starts the server for its own run (the pytest plugin of `python/`, a test harness) must not
 * leave it behind, however that program ends. A signal handler or an exit hook in the parent does not run when it is
 * killed (SIGKILL, an out-of-memory kill); the kernel closes its file descriptors whatever the cause. So the parent
 * holds the write end of a pipe that is the server's stdin and never writes to it: when the parent is gone, by any
 * means, the server reads end of file and stops. Unlike watching the parent's pid, this works through wrappers
 * between the two (`npx`, a shell script), which pass stdin on, and needs no polling.
 *
 * What comes in on stdin is read and dropped. With stdin at end of file from the start (`< /dev/null`, a closed
 * descriptor) the server stops at once; on a terminal it stops at Ctrl-D.
 *
 * @module
 */
import type { Readable } from 'node:stream';

/**
 * Calls `onClosed` once when `input` ends or fails (a read error is an end too: nobody can write to it any more).
 *
 * @param onClosed called at most once.
 * @param input the stream to watch; default `process.stdin`.
 * @returns a function that stops watching (and pauses `input`).
 */
export function stopOnStdinClose(onClosed: () => void, input: Readable = process.stdin): () => void {
  let done = false;
  const closed = () => {
    if (done) return;
    done = true;
    onClosed();
  };
  const drop = () => undefined;
  input.on('data', drop);
  input.once('end', closed);
  input.on('error', closed);
  input.resume();
  return () => {
    done = true;
    input.off('data', drop);
    input.off('end', closed);
    input.off('error', closed);
    input.pause();
  };
}
