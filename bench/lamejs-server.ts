/**
 * The baseline of the cold-MP3 goals: a bare `node:http` server (child process of bench/run.ts, 127.0.0.1, free
 * port) that answers `POST /api/v1/audio/speech` as mockrouter did before speech was streamed (commit 944c904): plan and synthesize the whole
 * input with the project's own functions (`synthesizeSamples` from `dist/`, seed 1 like the bench's mock), encode
 * it whole with `@breezystack/lamejs` (64 kbps CBR, 1,152 samples per `encodeBuffer` call) and put the Info/LAME
 * tag frame in front (delay and padding, music CRC), as `git show 944c904:src/core/audio/mp3.ts` did; then send it
 * with a `Content-Length`. No routing, validation, accounting or journal: it flatters the baseline, never the mock.
 *
 * Prints `lamejs server listening on http://127.0.0.1:<port>` when ready. Exits on SIGTERM.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Mp3Encoder } from '@breezystack/lamejs';
import type * as Synthesize from '../src/core/audio/synthesize.js';
import type * as Mp3Tag from '../src/core/audio/mp3-tag.js';

const { synthesizeSamples } = (await import(new URL('../dist/core/audio/synthesize.js', import.meta.url).href)) as typeof Synthesize;
const { crc16, mpeg2Layer3FrameLength } = (await import(new URL('../dist/core/audio/mp3-tag.js', import.meta.url).href)) as typeof Mp3Tag;

const RATE = 24_000;
const KBPS = 64;
const BLOCK = 1152;
const FRAME_SAMPLES = 576;
const ENCODER_DELAY = 576;

/** The old encodeMp3: lamejs over the whole signal, then the tag frame in front. */
function encodeMp3(samples: Int16Array): Uint8Array {
  const encoder = new Mp3Encoder(1, RATE, KBPS);
  const parts: Uint8Array[] = [];
  const push = (part: ArrayBufferView) => part.byteLength > 0 && parts.push(new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
  for (let at = 0; at < samples.length; at += BLOCK) push(encoder.encodeBuffer(samples.subarray(at, at + BLOCK)));
  push(encoder.flush());
  const audio = Buffer.concat(parts);
  const tag = infoFrame(audio, samples.length);
  return Buffer.concat([tag, audio]);
}

/** The old Info frame: Xing header with seek table, LAME extension (delay, padding, lengths, CRCs). */
function infoFrame(audio: Uint8Array, sampleCount: number): Uint8Array {
  let frames = 0;
  for (let at = 0; at < audio.length; frames++) {
    const length = mpeg2Layer3FrameLength(audio, at);
    if (length === 0) throw new Error('lamejs output does not parse as MPEG-2 Layer III frames');
    at += length;
  }
  const padding = frames * FRAME_SAMPLES - ENCODER_DELAY - sampleCount;
  const header = Uint8Array.of(0xff, audio[1]! | 0x01, audio[2]! & 0xfd, audio[3]!);
  const frame = new Uint8Array(mpeg2Layer3FrameLength(header, 0));
  const view = new DataView(frame.buffer);
  frame.set(header, 0);
  let p = 4 + 9; // header, mono MPEG-2 side info
  const ascii = (s: string) => { for (const ch of s) frame[p++] = ch.charCodeAt(0); };
  ascii('Info');
  const totalBytes = frame.length + audio.length;
  for (const value of [0x0f, frames, totalBytes]) { view.setUint32(p, value); p += 4; }
  for (let i = 0; i < 100; i++) frame[p + i] = Math.floor((i * 256) / 100);
  p += 100;
  view.setUint32(p, 57);
  p += 4;
  ascii('LAME3.98r');
  frame[p++] = 0x01;
  p += 1 + 4 + 2 + 2 + 1;
  frame[p++] = KBPS;
  frame[p++] = ENCODER_DELAY >> 4;
  frame[p++] = ((ENCODER_DELAY & 0xf) << 4) | (padding >> 8);
  frame[p++] = padding & 0xff;
  p += 2 + 2;
  view.setUint32(p, totalBytes);
  p += 4;
  view.setUint16(p, crc16(audio, 0, audio.length));
  p += 2;
  view.setUint16(p, crc16(frame, 0, p));
  return frame;
}

const server = createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (part: Buffer) => parts.push(part));
  req.on('end', () => {
    try {
      const body = JSON.parse(Buffer.concat(parts).toString()) as { input: string; voice: string; speed?: number };
      const mp3 = encodeMp3(synthesizeSamples({ input: body.input, voice: body.voice, speed: body.speed ?? 1, seed: 1 }));
      res.writeHead(200, { 'Content-Type': 'audio/mpeg', 'Content-Length': mp3.byteLength });
      res.end(mp3);
    } catch (error) {
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(String(error));
    }
  });
});
server.keepAliveTimeout = 72_000;

process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`lamejs server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
