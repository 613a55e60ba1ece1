/**
 * A WebAssembly module made resettable: an instance of it can be put back to the state it had when it was made, with
 * no new instance. Two things are added to the binary, and nothing else changes:
 *
 * - every global is exported (`mockrouter.global.<index>`), so JavaScript can read and write it: CMU Flite's
 *   `flite.wasm`, a WASI command that exports only `memory` and `_start`, has one, the C stack pointer;
 * - a custom section `mockrouter.read-only` lists the memory ranges of the data segments the module's `name` section
 *   calls `.rodata` (the C compiler's constants: the voices, in `flite.wasm`), which a run never writes, so
 *   that a reset copies back the rest only.
 *
 * Only the binary's section headers, the counts of its memory and global sections, its import, export and data
 * section headers and its `name` section are read (`wasm-binary.ts`; WebAssembly Core Specification 2.0, "Binary Format", 5.5 "Modules":
 * https://webassembly.github.io/spec/core/binary/modules.html, and appendix 7.4 "Custom Sections" for `name`); the
 * code and the segments' bytes (nearly all of `flite.wasm`) are copied as they are, never decoded:
 * the libraries that edit WebAssembly decode the whole module first.
 *
 * @module
 */

import { countOf, leb, Reader, sectionOf, sectionsOf, Unread, type Section } from './wasm-binary.js';

/** The name prefix of the exports added by {@link makeResettable}: `mockrouter.global.<index>`. */
export const GLOBAL_EXPORT_PREFIX = 'mockrouter.global.';

/** The custom section {@link makeResettable} adds: the read-only ranges, `vec((start: u32, end: u32))`, bytes. */
export const READ_ONLY_SECTION = 'mockrouter.read-only';

/** Most globals a module may have to be made resettable (one export is added for each). */
const MAX_GLOBALS = 1024;

/** Section ids (5.5.2): custom, imports, memories, globals, exports, data. */
const CUSTOM_SECTION = 0;
const IMPORT_SECTION = 2;
const MEMORY_SECTION = 5;
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

/** How many globals and memories the module imports (they come first in their index spaces). */
function importedCounts(bytes: Uint8Array, section: Section | undefined): { globals: number; memories: number } {
  const counts = { globals: 0, memories: 0 };
  if (!section) return counts;
  const reader = new Reader(bytes, section.contents, section.end);
  for (let i = reader.u32(); i > 0; i--) {
    reader.skipName();
    reader.skipName();
    const kind = reader.byte();
    if (kind === KIND_FUNCTION) reader.u32();
    else if (kind === KIND_TABLE) {
      reader.byte();
      reader.skipLimits();
    } else if (kind === KIND_MEMORY) {
      reader.skipLimits();
      counts.memories++;
    } else if (kind === KIND_GLOBAL) {
      reader.byte();
      reader.byte();
      if (++counts.globals > MAX_GLOBALS) throw new Unread(`more than ${MAX_GLOBALS} globals`);
    } else throw new Unread(`import kind ${kind}`);
  }
  return counts;
}

/**
 * Whether the export section exports memory 0 as `memory`, and no name of the exports {@link makeResettable} adds
 * (a file that brings them would be taken for one it made).
 */
function exportsFitReset(bytes: Uint8Array, section: Section): boolean {
  const reader = new Reader(bytes, section.contents, section.end);
  let memoryZero = false;
  for (let i = reader.u32(); i > 0; i--) {
    const name = reader.name();
    const kind = reader.byte();
    const index = reader.u32();
    if (name.startsWith(GLOBAL_EXPORT_PREFIX)) return false;
    if (name === 'memory') memoryZero = kind === KIND_MEMORY && index === 0;
  }
  return memoryZero;
}

/** The memory range of each data segment, by segment index; every segment must be active, in memory 0. */
function segmentRanges(bytes: Uint8Array, section: Section | undefined): Map<number, readonly [number, number]> {
  const ranges = new Map<number, readonly [number, number]>();
  if (!section) return ranges;
  const reader = new Reader(bytes, section.contents, section.end);
  const count = reader.u32();
  for (let index = 0; index < count; index++) {
    const flags = reader.u32();
    // A passive segment (1) can be dropped by a run (`data.drop`), which no reset of memory puts back.
    if (flags === 1 || flags > 2 || (flags === 2 && reader.u32() !== 0)) throw new Unread(`data segment flags ${flags}, or another memory`);
    const start = reader.offset();
    const size = reader.u32();
    if (size > reader.end - reader.at) throw new Unread('data segment past the end');
    reader.at += size;
    ranges.set(index, [start, start + size]);
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

/** A custom section (5.5.3) listing `ranges` as `vec((start: u32, end: u32))`. */
function readOnlySection(ranges: readonly (readonly [number, number])[]): Uint8Array {
  const name = new TextEncoder().encode(READ_ONLY_SECTION);
  const payload = [...leb(ranges.length), ...ranges.flatMap(([start, end]) => [...leb(start), ...leb(end)])];
  return sectionOf(CUSTOM_SECTION, [Uint8Array.from(leb(name.byteLength)), name, Uint8Array.from(payload)]);
}

/** The export section with its exports, then one per global (`mockrouter.global.<index>`). */
function exportSection(bytes: Uint8Array, section: Section, globals: number): Uint8Array {
  const reader = new Reader(bytes, section.contents, section.end);
  const count = reader.u32();
  const encoder = new TextEncoder();
  const added: number[] = [];
  for (let index = 0; index < globals; index++) {
    const name = encoder.encode(`${GLOBAL_EXPORT_PREFIX}${index}`);
    added.push(...leb(name.byteLength), ...name, KIND_GLOBAL, ...leb(index));
  }
  return sectionOf(EXPORT_SECTION, [Uint8Array.from(leb(count + globals)), bytes.subarray(reader.at, section.end), Uint8Array.from(added)]);
}

/** `bytes` without `sections` (whole, headers included). */
function without(bytes: Uint8Array, sections: readonly Section[]): Uint8Array {
  const out = new Uint8Array(bytes.byteLength - sections.reduce((sum, s) => sum + s.end - s.start, 0));
  let from = 0;
  let at = 0;
  for (const s of sections) {
    out.set(bytes.subarray(from, s.start), at);
    at += s.start - from;
    from = s.end;
  }
  out.set(bytes.subarray(from), at);
  return out;
}

/**
 * The module `bytes` made resettable (see the module's comment): every global exported as `mockrouter.global.<index>`
 * ({@link GLOBAL_EXPORT_PREFIX}; index in the module's global index space, imported globals first), and a custom
 * section {@link READ_ONLY_SECTION} last, listing the ranges of its `.rodata` data segments (none when the `name`
 * section does not name them). Everything else is byte for byte the same.
 *
 * @param bytes a WebAssembly binary (not validated here: compiling it does that).
 * @returns the new bytes; or `bytes` itself when it cannot be reset or read here: no global, more than 1,024 of them,
 *   no export section, a memory count other than one or `memory` not memory 0, an export named as those it adds, a
 *   passive data segment (a run may drop it), or a part this reader does not read (no WebAssembly magic, a section or
 *   number past the end, an import kind or offset it does not know). A `mockrouter.read-only` section the bytes bring
 *   is dropped first, whatever follows (so a file cannot declare its own read-only ranges). Never throws.
 * @example WebAssembly.compile(makeResettable(await readFile('flite.wasm'))) // exports `mockrouter.global.0`
 */
export function makeResettable(bytes: Uint8Array): Uint8Array {
  try {
    const sections = sectionsOf(bytes);
    const own = sections.filter((s) => s.id === CUSTOM_SECTION && new Reader(bytes, s.contents, s.end).name() === READ_ONLY_SECTION);
    // A list the file brings itself is no list of ours: dropped, and the file made resettable as any other (or not).
    if (own.length > 0) return makeResettable(without(bytes, own));
    const exports = sections.find((s) => s.id === EXPORT_SECTION);
    const imported = importedCounts(bytes, sections.find((s) => s.id === IMPORT_SECTION));
    const globals = imported.globals + countOf(bytes, sections.find((s) => s.id === GLOBAL_SECTION));
    if (globals > MAX_GLOBALS) throw new Unread(`${globals} globals`);
    const memories = imported.memories + countOf(bytes, sections.find((s) => s.id === MEMORY_SECTION));
    if (!exports || globals === 0 || memories !== 1 || !exportsFitReset(bytes, exports)) return bytes;
    const ranges = segmentRanges(bytes, sections.find((s) => s.id === DATA_SECTION));
    const readOnly = [...rodataSegments(bytes, sections)].flatMap((index) => {
      const range = ranges.get(index);
      return range ? [range] : [];
    });
    const exported = exportSection(bytes, exports, globals);
    const listed = readOnlySection(readOnly);
    const out = new Uint8Array(bytes.byteLength - (exports.end - exports.start) + exported.byteLength + listed.byteLength);
    out.set(bytes.subarray(0, exports.start));
    out.set(exported, exports.start);
    out.set(bytes.subarray(exports.end), exports.start + exported.byteLength);
    out.set(listed, out.byteLength - listed.byteLength);
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
