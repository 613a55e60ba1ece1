/**
 * Reading and writing the parts of a WebAssembly binary that `resettable-module.ts` touches: unsigned and signed
 * LEB128 numbers, names, limits, `i32.const` offsets, the list of sections, and a section built from its parts
 * (WebAssembly Core Specification 2.0, "Binary Format": https://webassembly.github.io/spec/core/binary/). Every read
 * stays within the bounds it is given and throws {@link Unread} past them.
 *
 * @module
 */

/** Thrown by the readers here for bytes they do not read (`makeResettable` then gives the bytes back unchanged). */
export class Unread extends Error {}

/** A reader of the binary's unsigned LEB128 numbers, names and bytes, that never reads past `end`. */
export class Reader {
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
export function leb(value: number): number[] {
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
export interface Section {
  readonly id: number;
  readonly start: number;
  readonly contents: number;
  readonly end: number;
}

export function sectionsOf(bytes: Uint8Array): Section[] {
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

/** The count a section starts with (a `vec`'s length), 0 for no section. */
export function countOf(bytes: Uint8Array, section: Section | undefined): number {
  return section ? new Reader(bytes, section.contents, section.end).u32() : 0;
}

/** A section: its id, its size, then `parts` one after the other. */
export function sectionOf(id: number, parts: readonly Uint8Array[]): Uint8Array {
  const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const header = Uint8Array.from([id, ...leb(size)]);
  const out = new Uint8Array(header.byteLength + size);
  out.set(header);
  let at = header.byteLength;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
