/**
 * Runs of CMU Flite in a kept instance (`src/core/audio/words/flite-instance.ts`), put back to its first state before
 * each run, against runs in a new instance each: the same bytes, run after run, whatever ran before (a long piece
 * that grew the memory, other voices and speeds); the read-only data a reset leaves as it is, never written by a run.
 * What the module is made with (`resettable-module.ts`: its globals exported, its `.rodata` ranges listed) is checked
 * on `flite.wasm` and on a small module written here, whose `_start` counts its runs in memory and in a global and
 * traps on one command line.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runFlite } from '../../src/core/audio/words/flite-instance.js';
import { GLOBAL_EXPORT_PREFIX, makeResettable, READ_ONLY_SECTION, readOnlyRanges } from '../../src/core/audio/words/resettable-module.js';
import { ProcessExit, wasiImports, type RunState } from '../../src/core/audio/words/flite-wasi.js';
import { fliteArgs } from '../../src/core/audio/words/render-words.js';
import { speakerOf } from '../../src/core/audio/words/speakers.js';
import { fliteWasmFile } from '../../src/node-platform/package-files.js';
import { sha256Hex } from '../support/sha256.js';

/** Unsigned LEB128. */
function leb(value: number): number[] {
  const out: number[] = [];
  do {
    const low = value & 0x7f;
    value >>>= 7;
    out.push(value > 0 ? low | 0x80 : low);
  } while (value > 0);
  return out;
}
const name = (text: string): number[] => [...leb(text.length), ...new TextEncoder().encode(text)];
const section = (id: number, contents: number[]): number[] => [id, ...leb(contents.length), ...contents];
const WASI = 'wasi_snapshot_preview1';

/**
 * A WASI command whose exit code shows the state each run starts from. `_start` asks `args_sizes_get` for argc and
 * traps when it is 3; adds 1 to the i32 at address 100 (2 at first, from its data) and to its one global (7 at
 * first); grows the memory to 2 pages when it has 1; then exits with
 * `100 × memory[100] + global + 1000 × pages before + 10000 × memory[65544] + 100000 × memory[300]`, and writes 5 at
 * 65544 (in the page it grew) and 1 at 300 (zeros at first, like a C program's `.bss`) for the next run to find.
 *
 * A new instance exits with 1308. A kept instance put back to its first state exits with 2308 (it kept its 2 pages,
 * which is the one thing a reset does not put back); any part of the state left from the run before shows in a digit.
 */
const COUNTER_BODY = [
  1, 1, 0x7f, // one i32 local: the pages before
  ...[0x41, 0, 0x41, 4, 0x10, 1, 0x1a], // args_sizes_get(0, 4), dropped
  ...[0x41, 0, 0x28, 2, 0, 0x41, 3, 0x46, 0x04, 0x40, 0x00, 0x0b], // if argc == 3: unreachable
  ...[0x41, 0xe4, 0, 0x41, 0xe4, 0, 0x28, 2, 0, 0x41, 1, 0x6a, 0x36, 2, 0], // memory[100] += 1
  ...[0x23, 0, 0x41, 1, 0x6a, 0x24, 0], // global += 1
  ...[0x3f, 0, 0x22, 0, 0x41, 1, 0x46, 0x04, 0x40, 0x41, 1, 0x40, 0, 0x1a, 0x0b], // pages = memory.size; if 1: grow by 1
  ...[0x41, 0xe4, 0, 0x28, 2, 0, 0x41, 0xe4, 0, 0x6c, 0x23, 0, 0x6a], // 100 × memory[100] + global
  ...[0x20, 0, 0x41, 0xe8, 0x07, 0x6c, 0x6a], // + 1000 × pages
  ...[0x41, 0x88, 0x80, 0x04, 0x28, 2, 0, 0x41, 0x90, 0xce, 0, 0x6c, 0x6a], // + 10000 × memory[65544]
  ...[0x41, 0xac, 0x02, 0x28, 2, 0, 0x41, 0xa0, 0x8d, 0x06, 0x6c, 0x6a], // + 100000 × memory[300]
  ...[0x41, 0x88, 0x80, 0x04, 0x41, 5, 0x36, 2, 0], // memory[65544] = 5
  ...[0x41, 0xac, 0x02, 0x41, 1, 0x36, 2, 0], // memory[300] = 1
  ...[0x10, 0, 0x0b], // proc_exit(the sum)
];
const COUNTER = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  // types: (i32) → (), (i32 i32) → i32, () → ()
  ...section(1, [3, 0x60, 1, 0x7f, 0, 0x60, 2, 0x7f, 0x7f, 1, 0x7f, 0x60, 0, 0]),
  ...section(2, [2, ...name(WASI), ...name('proc_exit'), 0, 0, ...name(WASI), ...name('args_sizes_get'), 0, 1]),
  ...section(3, [1, 2]),
  ...section(5, [1, 0, 1]),
  ...section(6, [1, 0x7f, 1, 0x41, 7, 0x0b]),
  ...section(7, [2, ...name('memory'), 2, 0, ...name('_start'), 0, 2]),
  ...section(10, [1, ...leb(COUNTER_BODY.length), ...COUNTER_BODY]),
  // memory[100] = 2 at first; two bytes at 200, named .rodata below
  ...section(11, [2, 0, 0x41, 0xe4, 0, 0x0b, 1, 2, 0, 0x41, 0xc8, 1, 0x0b, 2, 9, 9]),
  ...section(0, [...name('name'), 9, ...((names: number[]) => [...leb(names.length), ...names])([2, 0, ...name('.data'), 1, ...name('.rodata')])]),
]);
/** Where COUNTER's export section starts (the one section makeResettable changes): after types, imports, functions, memory and globals. */
const EXPORTS_AT = COUNTER.indexOf(7, 8 + 16 + 77 + 5 + 5 + 8);

/** COUNTER with its data section replaced by `contents`. */
function counterWithData(contents: number[]): Uint8Array {
  const at = COUNTER.lastIndexOf(11, COUNTER.length - 30);
  const size = COUNTER[at + 1]!;
  return new Uint8Array([...COUNTER.subarray(0, at), ...section(11, contents), ...COUNTER.subarray(at + 2 + size)]);
}

describe('makeResettable', () => {
  it('exports every global of a module, lists its .rodata ranges, and changes nothing else', async () => {
    const changed = makeResettable(COUNTER);
    const module = await WebAssembly.compile(changed as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.exports(module)).toEqual([
      { name: 'memory', kind: 'memory' },
      { name: '_start', kind: 'function' },
      { name: `${GLOBAL_EXPORT_PREFIX}0`, kind: 'global' },
    ]);
    expect(WebAssembly.Module.imports(module)).toEqual(WebAssembly.Module.imports(new WebAssembly.Module(COUNTER)));
    expect(readOnlyRanges(module)).toEqual([[200, 202]]);
    expect(readOnlyRanges(new WebAssembly.Module(COUNTER))).toEqual([]);
    expect(WebAssembly.Module.customSections(module, READ_ONLY_SECTION)).toHaveLength(1);
    // Every byte but the export section's is the module's, in order; the custom section comes last.
    expect(COUNTER[EXPORTS_AT]).toBe(7);
    const after = Buffer.from(COUNTER.subarray(EXPORTS_AT + 2 + COUNTER[EXPORTS_AT + 1]!));
    expect(Buffer.from(changed.subarray(0, EXPORTS_AT))).toEqual(Buffer.from(COUNTER.subarray(0, EXPORTS_AT)));
    const at = Buffer.from(changed).indexOf(after, EXPORTS_AT + 2);
    expect(at).toBeGreaterThan(EXPORTS_AT);
    const listed = Buffer.from(changed.subarray(at + after.byteLength));
    expect(listed[0]).toBe(0); // a custom section, and nothing else
    expect(listed.includes(Buffer.from(READ_ONLY_SECTION))).toBe(true);
    expect(listed.byteLength).toBeLessThan(40);
  });

  it('gives back what it does not read or cannot reset, unchanged', () => {
    const cases: Record<string, Uint8Array> = {
      'no bytes': new Uint8Array(0),
      'no module': new TextEncoder().encode('not wasm at all'),
      'a cut module': COUNTER.subarray(0, 40),
      'a module of nothing': COUNTER.subarray(0, 8),
      // 2³² − 1 globals announced in a section of five bytes: refused at once, never built
      'a global count past its section': new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 6, 5, 0xff, 0xff, 0xff, 0xff, 0x0f, 7, 1, 0]),
      'a passive data segment (a run may drop it)': counterWithData([1, 1, 1, 7]),
      'a number of more than 5 bytes': counterWithData([1, 0, 0x41, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x0b, 1, 2]),
      'more than 1,024 globals, imported': new Uint8Array([
        ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
        ...section(2, [...leb(1100), ...Array.from({ length: 1100 }, () => [1, 0x61, 1, 0x62, 3, 0x7f, 0]).flat()]),
        ...section(5, [1, 0, 1]),
        ...section(7, [1, ...name('memory'), 2, 0]),
      ]),
    };
    for (const [label, bytes] of Object.entries(cases)) expect(makeResettable(bytes), label).toBe(bytes);
  });

  it('drops a read-only list the file brings, and makes no file resettable that names its exports as it would', async () => {
    const made = makeResettable(COUNTER);
    // Made once more: its list dropped, and its own mockrouter.global.0 export stops a second one.
    const again = makeResettable(made);
    expect(again.byteLength).toBeLessThan(made.byteLength);
    expect(WebAssembly.Module.customSections(await WebAssembly.compile(again as Uint8Array<ArrayBuffer>), READ_ONLY_SECTION)).toHaveLength(0);
    // A list alone, on a file that is otherwise resettable: replaced by the file's own ranges.
    const forged = new Uint8Array([...COUNTER, ...section(0, [...name(READ_ONLY_SECTION), 1, 0, 0x80, 0x80, 0x04])]);
    expect(readOnlyRanges(await WebAssembly.compile(makeResettable(forged) as Uint8Array<ArrayBuffer>))).toEqual([[200, 202]]);
    expect((await runFlite(await WebAssembly.compile(makeResettable(forged) as Uint8Array<ArrayBuffer>), [])).exitCode).toBe(1308);
  });
});

describe('runFlite on a module that counts its runs', () => {
  it('starts every run from the first state, also after a run that trapped; a module given as it is, in a new instance each time', async () => {
    const runs = async (module: WebAssembly.Module) => {
      const codes: (number | string)[] = [];
      for (const args of [[], ['x'], ['a', 'b'], [], []]) codes.push(await runFlite(module, args).then((run) => run.exitCode, (error: Error) => error.constructor.name));
      // Runs that overlap share the kept instance one after the other.
      codes.push(...(await Promise.all([1, 2, 3].map(() => runFlite(module, [])))).map((run) => run.exitCode));
      return codes;
    };
    expect(await runs(new WebAssembly.Module(makeResettable(COUNTER) as Uint8Array<ArrayBuffer>))).toEqual([1308, 2308, 'RuntimeError', 1308, 2308, 2308, 2308, 2308]);
    expect(await runs(new WebAssembly.Module(COUNTER))).toEqual([1308, 1308, 'RuntimeError', 1308, 1308, 1308, 1308, 1308]);
  });
});

const FLITE = fliteWasmFile();

describe.skipIf(FLITE === undefined)('runFlite on flite.wasm', () => {
  it('a kept instance gives the bytes of a new one, run after run, whatever ran before', async () => {
    const bytes = readFileSync(FLITE!);
    const fresh = await WebAssembly.compile(bytes);
    const kept = await WebAssembly.compile(makeResettable(bytes) as Uint8Array<ArrayBuffer>);
    const long = 'Your order has shipped and will arrive on Tuesday, after the long weekend. '.repeat(5);
    const runs: [string, string, number][] = [
      ['Hi.', 'alloy', 1],
      [long, 'onyx', 0.5], // grows the memory
      ['Hi.', 'alloy', 1],
      ['Please call me back tomorrow morning at nine.', 'af_heart', 2],
      ['!!!', 'nova', 1],
      ['The train to Boston leaves from platform seven.', 'en_paul_neutral', 1],
      [long, 'onyx', 0.5],
    ];
    for (const [text, voice, speed] of runs) {
      const args = fliteArgs(text, speakerOf(voice), speed);
      const [a, b] = [await runFlite(kept, args), await runFlite(fresh, args)];
      expect(a.exitCode, text).toBe(0);
      expect(b.exitCode, text).toBe(0);
      expect(sha256Hex(a.wav!), `${voice} ${speed}: ${text.slice(0, 20)}`).toBe(sha256Hex(b.wav!));
    }
  }, 60_000);

  it('lists its .rodata, and no run writes there', async () => {
    const module = await WebAssembly.compile(makeResettable(readFileSync(FLITE!)) as Uint8Array<ArrayBuffer>);
    const ranges = readOnlyRanges(module);
    expect(ranges.reduce((sum, [start, end]) => sum + end - start, 0)).toBeGreaterThan(16_000_000);
    for (const [text, voice, speed] of [['Please call me back tomorrow morning at nine.', 'alloy', 1], ['1234567890 xyzzy!', 'onyx', 0.5], ['Hello world.', 'af_heart', 2]] as const) {
      const made: { memory?: WebAssembly.Memory } = {};
      const argv = ['flite', ...fliteArgs(text, speakerOf(voice), speed)].map((arg) => new TextEncoder().encode(`${arg}\0`));
      const state: RunState = { argv, argvBytes: argv.reduce((sum, arg) => sum + arg.byteLength, 0), output: undefined, printed: [] };
      const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasiImports(() => made.memory!, () => state) });
      made.memory = instance.exports.memory as WebAssembly.Memory;
      const before = ranges.map(([start, end]) => sha256Hex(new Uint8Array(made.memory!.buffer, start, end - start)));
      try {
        (instance.exports._start as () => void)();
      } catch (thrown) {
        expect(thrown).toBeInstanceOf(ProcessExit); // exit(0) may return or end by proc_exit
      }
      expect(state.output!.length, text).toBeGreaterThan(44);
      expect(ranges.map(([start, end]) => sha256Hex(new Uint8Array(made.memory!.buffer, start, end - start))), text).toEqual(before);
    }
  }, 60_000);
});
