/**
 * The format of a recorded folder (issue 22; `docs/recording.md`): what `mockrouter record` writes and
 * `--fixtures <dir>` serves, beside the fixture files of `fixture-schema.ts`:
 *
 * - `models.json`: the catalog, as `fixtures/models.json` (`ModelsFileSchema`), or the real gateway's answer to
 *   `GET /api/v1/models?output_modalities=all` saved as it came (`{"data": [<Model>, ...], ...}`);
 * - `generations.json` (optional): generation records, as `fixtures/generations.json`;
 * - `audio/index.json` (optional) and the files it names: recorded speech answers, keyed by the request's
 *   normalized body ({@link speechKeyOf}), served byte for byte;
 * - `scenarios/recorded.yaml` (optional): the error answers recorded, as rules of a scenario named `recorded`
 *   (`docs/scenarios.md`), replayed with `--scenarios <dir>/scenarios --scenario recorded`.
 *
 * @module
 */
import * as z from 'zod';

/** Where, under a recorded folder, the speech recordings are. */
export const AUDIO_FOLDER = 'audio';
/** The index of the speech recordings, under {@link AUDIO_FOLDER}. */
export const AUDIO_INDEX_FILE = 'index.json';
/** The scenario file of the error answers recorded, under `scenarios/`; its scenario is named {@link RECORDED_SCENARIO}. */
export const RECORDED_SCENARIO_FILE = 'recorded.yaml';
/** The name of the scenario of recorded error answers. */
export const RECORDED_SCENARIO = 'recorded';

/** One recorded speech answer. */
export const AudioRecordingSchema = z.strictObject({
  /** The request's normalized body ({@link speechKeyOf}), as its JSON text. */
  key: z.string().min(1, 'expected the normalized request, as JSON text'),
  /** The file under `audio/` holding the answer's bytes: a plain name, no folder (`<64 hex>.mp3` or `.pcm`). */
  file: z.string().regex(/^[A-Za-z0-9._-]+$/, 'expected a file name under audio/ (letters, digits, ".", "_", "-"), no folder'),
  /** The answer's `Content-Type`, as the upstream sent it (`audio/mpeg`, `audio/pcm;rate=24000;channels=1`). */
  content_type: z.string().min(1, 'expected the Content-Type the upstream sent'),
  /** The file's length, bytes (checked when the folder loads). */
  bytes: z.int().min(0),
});

/** `audio/index.json`. */
export const AudioIndexSchema = z.strictObject({ recordings: z.array(AudioRecordingSchema) });

/** One recorded speech answer (see {@link AudioRecordingSchema}). */
export type AudioRecording = z.output<typeof AudioRecordingSchema>;
/** `audio/index.json`, parsed. */
export type AudioIndex = z.output<typeof AudioIndexSchema>;

/** What a speech request's answer depends on: the fields of its body that {@link speechKeyOf} keeps. */
export interface SpeechKeyFields {
  model: string;
  input: string;
  voice: string;
  response_format?: string | undefined;
  speed?: number | undefined;
  provider?: { options?: unknown } | undefined;
}

/**
 * The key of a speech request's recording: the JSON text of `{input, model, provider_options, response_format,
 * speed, voice}` (names sorted, provider options with their names sorted at every depth), `response_format`
 * defaulting to `pcm` and `speed` to 1 as the gateway's (`createAudioSpeech`), `provider_options` `null` when none.
 * Other body fields (`session_id`, `user`, ...) do not change the audio, so they are not part of it.
 *
 * @example speechKeyOf({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: 'Hi', voice: 'alloy' })
 * // '{"input":"Hi","model":"openai/gpt-4o-mini-tts-2025-12-15","provider_options":null,"response_format":"pcm","speed":1,"voice":"alloy"}'
 */
export function speechKeyOf(body: SpeechKeyFields): string {
  return JSON.stringify({
    input: body.input,
    model: body.model,
    provider_options: sorted(body.provider?.options ?? null),
    response_format: body.response_format ?? 'pcm',
    speed: body.speed ?? 1,
    voice: body.voice,
  });
}

/** `value` with the names of every object sorted (arrays keep their order). */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sorted((value as Record<string, unknown>)[name])]),
  );
}
