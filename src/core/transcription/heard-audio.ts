/**
 * The audio of recent transcription requests, kept so the journal can play it again (`GET
 * /__mock/requests/<seq>/audio` of a transcription entry, the dashboard's player): by the audio's SHA-256, bounded,
 * in this process only (another replica of a shared store answers 404 for audio it did not hear).
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import type { TranscriptionFormat } from './audio-length.js';

/** Most bytes of audio kept in all (16 MiB); the least recently heard goes first. */
export const HEARD_AUDIO_BYTES = 16 * 1024 * 1024;

/** Largest clip kept, bytes (8 MiB): a larger one is transcribed but cannot be played again. */
export const HEARD_CLIP_BYTES = 8 * 1024 * 1024;

/** Content type of each format, as the admin API serves the audio. */
const CONTENT_TYPES: Readonly<Record<TranscriptionFormat, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  mpeg: 'audio/mpeg',
  mpga: 'audio/mpeg',
  flac: 'audio/flac',
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  webm: 'audio/webm',
  aac: 'audio/aac',
  pcm: 'audio/pcm;rate=24000;channels=1',
};

/** A clip as heard: its bytes and the content type of its format. */
export interface HeardClip {
  readonly bytes: Uint8Array;
  readonly contentType: string;
}

/** The clips of recent transcriptions; see the module's comment. */
export interface HeardAudio {
  /** Keeps `bytes` (not copied: callers must not change them) under `sha256`, unless over {@link HEARD_CLIP_BYTES}. */
  keep(sha256: string, bytes: Uint8Array, format: TranscriptionFormat): void;
  /** The clip kept under `sha256`, or `undefined`. */
  get(sha256: string): HeardClip | undefined;
}

/** Creates an empty store of heard clips, bounded by {@link HEARD_AUDIO_BYTES}. The cache is made on first use. */
export function createHeardAudio(): HeardAudio {
  let clips: LRUCache<string, HeardClip> | undefined;
  return {
    keep(sha256, bytes, format) {
      if (bytes.byteLength === 0 || bytes.byteLength > HEARD_CLIP_BYTES) return;
      clips ??= new LRUCache<string, HeardClip>({ maxSize: HEARD_AUDIO_BYTES, sizeCalculation: (clip) => clip.bytes.byteLength });
      clips.set(sha256, { bytes, contentType: CONTENT_TYPES[format] });
    },
    get: (sha256) => clips?.get(sha256),
  };
}
