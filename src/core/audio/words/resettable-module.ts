/**
 * A WebAssembly module made resettable: an instance of it can be put back to the state it had when it was made, with
 * no new instance. Two things are added to the binary, and nothing else changes:
 *
 * - every global is exported (`mockrouter.global.<index>`), so JavaScript can read and write it: CMU Flite's
 *   `flite.wasm`, a WASI command that exports only `memory` and `_start`, has one, the C stack pointer;
 * - a custom section `mockrouter.read-only` lists the memory ranges of the data segments the module's `name` section
 *   calls `.rodata` (the C compiler's constants: 16 MiB of voices in `flite.wasm`), which a run never writes, so
 *   that a reset copies back the rest only.
 *
 * Only the binary's section headers, its import, export and data section headers and its `name` section are read
 * (WebAssembly Core Specification 2.0, "Binary Format", 5.5 "Modules":
 * https://webassembly.github.io/spec/core/binary/modules.html, and appendix 7.4 "Custom Sections" for `name`); the
 * code and the segments' bytes (nearly all of the 21.5 MB of `flite.wasm`) are copied as they are, never decoded:
 * the libraries that edit WebAssembly decode the whole module first.
 *
 * @module
 */

/** The name prefix of the exports added by {@link makeResettable}: `mockrouter.global.<index>`. */
export const GLOBAL_EXPORT_PREFIX = 'mockrouter.global.';

/** The custom section {@link makeResettable} adds: the read-only ranges, `vec((start: u32, end: u32))`, bytes. */
export const READ_ONLY_SECTION = 'mockrouter.read-only';

/** Section ids (5.5.2): custom, imports, globals, exports, data. */
const CUSTOM_SECTION = 0;
const IMPORT_SECTION = 2;
const GLOBAL_SECTION = 6;
const EXPORT_SECTION = 7;
const DATA_SECTION = 11;
/** The `name` section's subsection of data segment names (appendix 7.4.1, extended names). */
const DATA_NAMES = 9;
/** Export and import kinds (5.5.5, 5.5.10). */
const KIND_FUNCTION = 0;
const KIND_TABLE = 1;
const KIND_MEMORY = 2;
const KIND_GLOBAL = 3;

/** Thrown inside this module for bytes it does not read; {@link makeResettable} then gives the bytes back unchanged. */
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

  /** An `i32.const` offset expression (`0x41`, an `s32`, `end`), as an address. */
  offset(): number {
    if (this.byte() !== 0x41) throw new Unread('an offset other than i32.const');
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = this.byte();
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80 && shift < 35);
    if (byte & 0x80) throw new Unread('s32 longer than 5 bytes');
    // Negative as an s32 (sign bit of the last byte): as an address, the same bits unsigned.
    if (byte & 0x40 && shift < 32) value += 2 ** 32 - 2 ** shift;
    if (this.byte() !== 0x0b) throw new Unread('an offset expression longer than one instruction');
    return value % 2 ** 32;
  }

  /** A name (`vec(byte)`, UTF-8). */
  name(): string {
    const length = this.u32();
    if (length > this.end - this.at) throw new Unread('name past the end');
    this.at += length;
    return new TextDecoder().decode(this.bytes.subarray(this.at - length, this.at));
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

/** The memory range of each active data segment of memory 0, by segment index (a passive one has none). */
function segmentRanges(bytes: Uint8Array, section: Section | undefined): Map<number, readonly [number, number]> {
  const ranges = new Map<number, readonly [number, number]>();
  if (!section) return ranges;
  const reader = new Reader(bytes, section.contents, section.end);
  const count = reader.u32();
  for (let index = 0; index < count; index++) {
    const flags = reader.u32();
    if (flags > 2 || (flags === 2 && reader.u32() !== 0)) throw new Unread(`data segment flags ${flags}, or another memory`);
    const start = flags === 1 ? undefined : reader.offset();
    const size = reader.u32();
    if (size > reader.end - reader.at) throw new Unread('data segment past the end');
    reader.at += size;
    if (start !== undefined) ranges.set(index, [start, start + size]);
  }
  return ranges;
}

/** The indexes of the data segments the `name` section calls `.rodata` (or `.rodata.<part>`). */
function rodataSegments(bytes: Uint8Array, sections: readonly Section[]): Set<number> {
  const found = new Set<number>();
  for (const section of sections) {
    if (section.id !== CUSTOM_SECTION) continue;
    const reader = new Reader(bytes, section.contents, section.end);
    if (reader.name() !== 'name') continue;
    while (reader.at < section.end) {
      const id = reader.byte();
      const size = reader.u32();
      const end = reader.at + size;
      if (end > section.end) throw new Unread('name subsection past the end');
      if (id === DATA_NAMES) {
        const names = new Reader(bytes, reader.at, end);
        for (let i = names.u32(); i > 0; i--) {
          const index = names.u32();
          const name = names.name();
          if (name === '.rodata' || name.startsWith('.rodata.')) found.add(index);
        }
      }
      reader.at = end;
    }
  }
  return found;
}

/** A custom section (5.5.3): its name, then `payload`. */
function customSection(name: string, payload: readonly number[]): number[] {
  const encoded = new TextEncoder().encode(name);
  const contents = [...leb(encoded.byteLength), ...encoded, ...payload];
  return [CUSTOM_SECTION, ...leb(contents.length), ...contents];
}

/** The export section's new bytes: its exports, then one per global (`mockrouter.global.<index>`). */
function exportSection(bytes: Uint8Array, section: Section, globals: number): number[] {
  const reader = new Reader(bytes, section.contents, section.end);
  const count = reader.u32();
  const encoder = new TextEncoder();
  const added: number[] = [];
  for (let index = 0; index < globals; index++) {
    const name = encoder.encode(`${GLOBAL_EXPORT_PREFIX}${index}`);
    added.push(...leb(name.byteLength), ...name, KIND_GLOBAL, ...leb(index));
  }
  const head = leb(count + globals);
  const kept = bytes.subarray(reader.at, section.end);
  return [EXPORT_SECTION, ...leb(head.length + kept.byteLength + added.length), ...head, ...kept, ...added];
}

/**
 * The module `bytes` made resettable (see the module's comment): every global exported as `mockrouter.global.<index>`
 * ({@link GLOBAL_EXPORT_PREFIX}; index in the module's global index space, imported globals first), and a custom
 * section {@link READ_ONLY_SECTION} last, listing the ranges of its `.rodata` data segments (none when the `name`
 * section does not name them). Everything else is byte for byte the same.
 *
 * @param bytes a WebAssembly binary (not validated here: compiling it does that).
 * @returns the new bytes; or `bytes` itself when it has no global, no export section, or a part this reader does not
 *   read (no WebAssembly magic, a section or number past the end, an import kind or data segment it does not know).
 *   Never throws.
 * @example WebAssembly.compile(makeResettable(await readFile('flite.wasm'))) // exports `mockrouter.global.0`
 */
export function makeResettable(bytes: Uint8Array): Uint8Array {
  try {
    const sections = sectionsOf(bytes);
    const exports = sections.find((s) => s.id === EXPORT_SECTION);
    const globalSection = sections.find((s) => s.id === GLOBAL_SECTION);
    const globals = importedGlobals(bytes, sections.find((s) => s.id === IMPORT_SECTION)) + (globalSection ? new Reader(bytes, globalSection.contents, globalSection.end).u32() : 0);
    if (!exports || globals === 0) return bytes;
    const ranges = segmentRanges(bytes, sections.find((s) => s.id === DATA_SECTION));
    const readOnly = [...rodataSegments(bytes, sections)].flatMap((index) => {
      const range = ranges.get(index);
      return range ? [range] : [];
    });
    const exported = exportSection(bytes, exports, globals);
    const listed = customSection(READ_ONLY_SECTION, [...leb(readOnly.length), ...readOnly.flatMap(([start, end]) => [...leb(start), ...leb(end)])]);
    const out = new Uint8Array(bytes.byteLength - (exports.end - exports.start) + exported.length + listed.length);
    out.set(bytes.subarray(0, exports.start));
    out.set(exported, exports.start);
    out.set(bytes.subarray(exports.end), exports.start + exported.length);
    out.set(listed, out.byteLength - listed.length);
    return out;
  } catch {
    // An Unread, or a RangeError of a part larger than this reader expects: the bytes as they were.
    return bytes;
  }
}

/**
 * The read-only memory ranges {@link makeResettable} recorded in `module`, `[start, end)` in bytes, ascending; none
 * when it recorded none, or `module` was not made by it.
 */
export function readOnlyRanges(module: WebAssembly.Module): [number, number][] {
  const [section] = WebAssembly.Module.customSections(module, READ_ONLY_SECTION);
  if (!section) return [];
  const bytes = new Uint8Array(section);
  const ranges: [number, number][] = [];
  try {
    const reader = new Reader(bytes, 0, bytes.byteLength);
    for (let i = reader.u32(); i > 0; i--) ranges.push([reader.u32(), reader.u32()]);
  } catch {
    return [];
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}
