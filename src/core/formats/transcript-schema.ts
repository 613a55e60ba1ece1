/**
 * `transcripts.json` of a fixtures folder: the transcripts of audio an app brings (`docs/transcription.md`, "Audio
 * the app brings"). Each entry names its audio by SHA-256, or by a clip in the folder (hashed when the folder is
 * loaded), and gives the transcript the gateway answers for it. `mockrouter record` writes the same file from the
 * real gateway's answers, keyed by the audio's SHA-256.
 *
 * @module
 */
import * as z from 'zod';
import { FOLDER_LIMITS } from './folder-limits.js';

/** The name of the file in a fixtures folder. */
export const TRANSCRIPTS_FILE = 'transcripts.json';

/** Longest transcript `text`, characters. */
export const MAX_TRANSCRIPT_CHARS = 200_000;

/** Most `words` of one transcript. */
export const MAX_TRANSCRIPT_WORDS = 50_000;

/** One timed word of a transcript: `word`, `start` and `end` in seconds, `speaker` (an index from 0) when diarized. */
export const TranscriptWordSchema = z.lazy(() =>
  z.strictObject({
    word: z.string().max(1000),
    start: z.number().nonnegative(),
    end: z.number().nonnegative(),
    speaker: z.int().nonnegative().optional(),
  }),
);

/**
 * One entry: `sha256` (64 lower-case hex digits) or `clip` (a path inside the folder, such as `clips/hello.wav`),
 * exactly one; `text`; and optionally `language` (ISO-639-1), `duration` (seconds; default: read from the audio),
 * and `words` (default: the words of `text`, spread evenly over the duration).
 */
export const TranscriptEntrySchema = z.lazy(() =>
  z
    .strictObject({
      sha256: z
        .string()
        .regex(/^[0-9a-f]{64}$/, 'expected the SHA-256 of the audio file, 64 lower-case hex digits')
        .optional(),
      clip: z.string().min(1, 'expected a path inside the fixtures folder, such as "clips/hello.wav"').max(1024).optional(),
      text: z.string().max(MAX_TRANSCRIPT_CHARS),
      language: z.string().max(32).optional(),
      duration: z.number().nonnegative().optional(),
      words: z.array(TranscriptWordSchema).max(MAX_TRANSCRIPT_WORDS).optional(),
    })
    .refine((entry) => (entry.sha256 === undefined) !== (entry.clip === undefined), 'expected exactly one of sha256 and clip'),
);

/** The whole of `transcripts.json`: at most `FOLDER_LIMITS.transcripts` (10,000) entries. */
export const TranscriptsFileSchema = z.lazy(() =>
  z.strictObject({
    $schema: z.string().optional(),
    transcripts: z.array(TranscriptEntrySchema).max(FOLDER_LIMITS.transcripts),
  }),
);

/** An entry of `transcripts.json` (see {@link TranscriptEntrySchema}). */
export type TranscriptEntry = z.output<typeof TranscriptEntrySchema>;

/** A transcript the gateway answers for audio an app brings, by the audio's SHA-256 (`Fixtures.transcripts`). */
export interface FixtureTranscript {
  readonly text: string;
  readonly language?: string | undefined;
  readonly duration?: number | undefined;
  readonly words?: ReadonlyArray<z.output<typeof TranscriptWordSchema>> | undefined;
}
