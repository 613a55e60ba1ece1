/**
 * The two functions this project uses of `wasm-media-encoders`, imported by name in a module of their own so that
 * `src/core/audio/mp3-wasm.ts` can load it lazily (`import()`) and bundlers still drop the rest of the package
 * (its Ogg Vorbis encoder, 450 KiB of inlined WebAssembly) from browser bundles.
 *
 * @module
 */
export { createEncoder, createMp3Encoder } from 'wasm-media-encoders';
