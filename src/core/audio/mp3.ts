/**
 * MP3 encoding for OpenRouter's `response_format: "mp3"` (`createAudioSpeech`, served as `Content-Type:
 * audio/mpeg`), with LAME 3.100 compiled to WebAssembly (`src/core/audio/lame-instance.ts`).
 *
 * Output: MPEG-2 Layer III, 24,000 Hz, mono, constant 64 kbps (`MP3_BITRATE_KBPS`), every frame 192 bytes; the
 * first frame is a Xing "Info" frame with a LAME tag recording the encoder delay (576 samples) and end padding
 * (`src/core/audio/mp3-tag.ts`), so gapless decoders (mpg123, ffmpeg) return exactly the input's sample count.
 * Others play 576 samples (24 ms) of silence for the tag frame, then the encoder delay and padding.
 *
 * Incremental: the length and the tag depend only on the sample count, so a response can send a
 * stream's `header` and its `Content-Length` (`mp3ByteLength`) before any audio exists, then the bytes of its
 * `encode()` as samples are rendered (`createMp3Stream`). The bytes do not depend on how the samples are split.
 * Encoding speed: `bench/encoders.ts` and `bench/README.md`.
 *
 * @module
 */

export {
  MP3_RETRY_INTERVAL_MS,
  loadMp3Encoder,
  mp3EncoderFailure,
  mp3EncoderReady,
  retryMp3EncoderLoad,
  type Mp3WasmSource,
} from './lame-instance.js';
export { bundledMp3Wasm } from './lame-glue.js';
export { type Mp3Stream, type OpenMp3Stream, createMp3Stream, createOpenMp3Stream, encodeMp3 } from './mp3-stream.js';
export {
  MP3_BITRATE_KBPS,
  MP3_ENCODER_DELAY,
  MP3_FRAME_BYTES,
  MP3_FRAME_SAMPLES,
  mp3ByteLength,
  mpeg2Layer3FrameLength,
} from './mp3-tag.js';

