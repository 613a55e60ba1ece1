/**
 * Exporting a WebAssembly module's globals, so that an instance can be put back to the state it had when it was
 * made: its memory (a copy kept by the caller) and its globals (read and written through these exports). CMU
 * Flite's `flite.wasm` is a WASI command that exports only `memory` and `_start`; its one global, the C stack
 * pointer (`__stack_pointer`), is reachable from JavaScript only once exported.
 *
 * Only the binary's section headers, its import section and its export section are read, and only the export
 * section is written (WebAssembly Core Specification 2.0, "Binary Format", 5.5 "Modules":
 * https://webassembly.github.io/spec/core/binary/modules.html). The code and data sections (nearly all of the
 * 21.5 MB of `flite.wasm`) are copied as they are, never decoded: the libraries that edit WebAssembly decode the
 * whole module first.
 *
 * @module
 */

/** The name prefix of the exports added by {@link exportGlobals}: `mockrouter.global.<index>`. */
export const GLOBAL_EXPORT_PREFIX = 'mockrouter.global.';

/** Section ids (5.5.2): imports, globals, exports. */
const IMPORT_SECTION = 2;
const GLOBAL_SECTION = 6;
const EXPORT_SECTION = 7;
/** Export and import kinds (5.5.5, 5.5.10). */
const KIND_FUNCTION = 0;
const KIND_TABLE = 1;
const KIND_MEMORY = 2;
const KIND_GLOBAL = 3;

/** Thrown inside this module for bytes it does not read; {@link exportGlobals} then gives the bytes back unchanged. */
class Unread extends Error {}

/** A reader of the binary's unsigned LEB128 numbers, names and bytes, that never reads past `end`. */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at: number,
    readonly end: number,
  ) {}

  byte(): number {
    if (this.at >= this.end) throw new Unread('past the end');
    return this.bytes[this.at++]!;
  }

  /** A `u32` (5.2.2): at most 5 bytes. */
  u32(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) {
        if (value > 0xffff_ffff) throw new Unread('u32 out of range');
        return value;
      }
    }
    throw new Unread('u32 longer than 5 bytes');
  }

  /** Skips a `vec(byte)`: a name. */
  skipName(): void {
    const length = this.u32();
    if (length > this.end - this.at) throw new Unread('name past the end');
    this.at += length;
  }

  /** Skips `limits` (5.3.7): a flag (0: min; 1: min and max; shared memories add 2), then the numbers. */
  skipLimits(): void {
    const flag = this.byte();
    if (flag > 3) throw new Unread(`limits flag ${flag}`);
    this.u32();
    if (flag & 1) this.u32();
  }
}

/** `u32` as unsigned LEB128 bytes. */
function leb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const low = rest & 0x7f;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? low | 0x80 : low);
  } while (rest > 0);
  return out;
}

/** Where each section is: its id, where its header starts, and where its contents start and end. */
interface Section {
  readonly id: number;
  readonly start: number;
  readonly contents: number;
  readonly end: number;
}

function sectionsOf(bytes: Uint8Array): Section[] {
  if (bytes.byteLength < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) throw new Unread('no WebAssembly magic');
  const sections: Section[] = [];
  const reader = new Reader(bytes, 8, bytes.byteLength);
  while (reader.at < bytes.byteLength) {
    const start = reader.at;
    const id = reader.byte();
    const size = reader.u32();
    if (size > bytes.byteLength - reader.at) throw new Unread('section past the end');
    sections.push({ id, start, contents: reader.at, end: reader.at + size });
    reader.at += size;
  }
  return sections;
}

/** How many globals the module imports (they come first in the global index space). */
function importedGlobals(bytes: Uint8Array, section: Section | undefined): number {
  if (!section) return 0;
  const reader = new Reader(bytes, section.contents, section.end);
  let globals = 0;
  for (let i = reader.u32(); i > 0; i--) {
    reader.skipName();
    reader.skipName();
    const kind = reader.byte();
    if (kind === KIND_FUNCTION) reader.u32();
    else if (kind === KIND_TABLE) {
      reader.byte();
      reader.skipLimits();
    } else if (kind === KIND_MEMORY) reader.skipLimits();
    else if (kind === KIND_GLOBAL) {
      reader.byte();
      reader.byte();
      globals++;
    } else throw new Unread(`import kind ${kind}`);
  }
  return globals;
}

/**
 * The module `bytes` with every global exported as `mockrouter.global.<index>` ({@link GLOBAL_EXPORT_PREFIX}),
 * index in the module's global index space (imported globals first). Everything else is byte for byte the same.
 *
 * @param bytes a WebAssembly binary (not validated here: compiling it does that).
 * @returns the new bytes; or `bytes` itself when it has no global, no export section, or a part this reader does not
 *   read (no WebAssembly magic, a section or number past the end, an import kind it does not know). Never throws.
 * @example WebAssembly.compile(exportGlobals(await readFile('flite.wasm'))) // exports `mockrouter.global.0`
 */
export function exportGlobals(bytes: Uint8Array): Uint8Array {
  try {
    const sections = sectionsOf(bytes);
    const exports = sections.find((s) => s.id === EXPORT_SECTION);
    const globalSection = sections.find((s) => s.id === GLOBAL_SECTION);
    const globals = importedGlobals(bytes, sections.find((s) => s.id === IMPORT_SECTION)) + (globalSection ? new Reader(bytes, globalSection.contents, globalSection.end).u32() : 0);
    if (!exports || globals === 0) return bytes;
    const reader = new Reader(bytes, exports.contents, exports.end);
    const count = reader.u32();
    const encoder = new TextEncoder();
    const added: number[] = [];
    for (let index = 0; index < globals; index++) {
      const name = encoder.encode(`${GLOBAL_EXPORT_PREFIX}${index}`);
      added.push(...leb(name.byteLength), ...name, KIND_GLOBAL, ...leb(index));
    }
    const head = leb(count + globals);
    const size = head.length + (exports.end - reader.at) + added.length;
    const header = [EXPORT_SECTION, ...leb(size)];
    const out = new Uint8Array(bytes.byteLength - (exports.end - exports.start) + header.length + size);
    let at = 0;
    const put = (part: ArrayLike<number>) => {
      out.set(part, at);
      at += part.length;
    };
    put(bytes.subarray(0, exports.start));
    put(header);
    put(head);
    put(bytes.subarray(reader.at, exports.end));
    put(added);
    put(bytes.subarray(exports.end));
    return out;
  } catch {
    // An Unread, or a RangeError of a part larger than this reader expects: the bytes as they were.
    return bytes;
  }
}
