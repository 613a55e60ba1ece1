/**
 * How many bytes the recorder's files take, known before they are written, so that a record that would take a file
 * past `FOLDER_LIMITS.fileBytes` (`src/core/formats/folder-limits.ts`) is refused instead of written: each entry of a
 * file is measured once, when it is kept, and the file's size is the sum of its entries' (within a few bytes per
 * container, see {@link prettyBytesAt}).
 *
 * @module
 */

/**
 * The bytes `value` takes in a file written as `JSON.stringify(file, null, 2)` where it sits `level` deep (an
 * element of an array, or with `name` a member of an object, whose container is `level - 1` deep): its text with
 * every line indented by `2 × level` spaces, its name and its separator. The entries of a container add up to its
 * bytes within `2 × level` (the last entry has no comma; the container's own line break and closing indent are
 * not counted): the caller keeps that much room per container.
 *
 * @throws what `JSON.stringify` throws (a RangeError for a value too deep for the stack).
 */
export function prettyBytesAt(value: unknown, level: number, name?: string): number {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  const named = name === undefined ? 0 : Buffer.byteLength(JSON.stringify(name)) + 2;
  return Buffer.byteLength(text) + lines * 2 * level + named + 2;
}

/** A map whose entries carry their size in bytes, with the sum of them. */
export class MeasuredEntries<K, V> {
  readonly #entries = new Map<K, { value: V; bytes: number }>();
  #total = 0;

  /** The sum of the entries' sizes, bytes. */
  get total(): number {
    return this.#total;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** What {@link MeasuredEntries.total} would be with `key` set to an entry of `bytes` bytes (replacing its own). */
  totalWith(key: K, bytes: number): number {
    return this.#total - (this.#entries.get(key)?.bytes ?? 0) + bytes;
  }

  /** Sets `key` to `value` of `bytes` bytes. */
  set(key: K, value: V, bytes: number): void {
    this.#total = this.totalWith(key, bytes);
    this.#entries.set(key, { value, bytes });
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  delete(key: K): void {
    this.#total -= this.#entries.get(key)?.bytes ?? 0;
    this.#entries.delete(key);
  }

  *values(): IterableIterator<V> {
    for (const entry of this.#entries.values()) yield entry.value;
  }

  *entries(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.#entries) yield [key, entry.value];
  }
}
