/**
 * What `mockrouter verify` reports: the requests it sent to both sides and every difference it found.
 * The `--json` document is a {@link VerifyReport} as it is.
 *
 * @module
 */
import type { ProbeErrorCode } from './errors.js';
import type { ShapeDifference } from './shape-differences.js';

/**
 * The probes, by name: `models` (`getModels` with `output_modalities=speech`), `models-count` (`listModelsCount`),
 * `model` (`getModel` of each speech model both sides list), `endpoints` (`listEndpoints` of the same), `key`
 * (`getCurrentKey`), `credits` (`getCredits`), and with `--spend` `speech-mp3`, `speech-pcm` (`createAudioSpeech`),
 * `generation` (`getGeneration` of each speech call's id) and `transcription` (`createAudioTranscriptions`).
 */
export type ProbeName = 'models' | 'models-count' | 'model' | 'endpoints' | 'speech-models' | 'speech-model' | 'key' | 'credits' | 'speech-mp3' | 'speech-pcm' | 'generation' | 'transcription' | 'speech-shapes';

/** One request sent to both sides. */
export interface ProbeResult {
  readonly probe: ProbeName;
  /** `GET /api/v1/models?output_modalities=speech`: the method, the path under the API base and the query. */
  readonly request: string;
  /** The upstream's status; `null` when it was not asked (a speech call the simulator could not make). */
  readonly upstream: number | null;
  /** The simulator's status. */
  readonly mockrouter: number | null;
  /** Whether the answers were compared (status and headers, and the JSON body's shape with the probe's others). */
  readonly compared: boolean;
  /** Why not, or what to know (`upstream 403: the key is no management key; not compared`). */
  readonly note?: string;
  /** Set on the request the check stopped at: why its upstream answer could not be read (the note says more). */
  readonly error?: ProbeErrorCode;
}

/** The upstream answer the check stopped at (exit code 2): its probe, its request, why, and a message naming it. */
export interface ProbeError {
  readonly probe: ProbeName;
  readonly request: string;
  readonly code: ProbeErrorCode;
  readonly message: string;
}

/**
 * One difference. `path` is the JSON path in the body (`data.endpoints[].pricing.prompt`; `''` for the whole
 * body), `status` for the HTTP status, or `header <Name>`. `kind` is a {@link ShapeDifference}'s, or `status`,
 * `header`, `body` (one side's body is no JSON) or `schema` (an answer the schema written from the gateway's docs
 * refuses: `src/core/formats/speech-model-schema.ts`). `upstream` and `mockrouter` say what each side has.
 */
export interface Difference {
  readonly probe: ProbeName;
  /** For `status`, `header`, `body` and `schema`: the request it was seen on. */
  readonly request?: string;
  /**
   * For a shape difference of a probe sent more than once (a lookup per model): the requests whose answers show it,
   * when not all of them do; absent when every request of the probe shows it (or the probe was sent once).
   */
  readonly requests?: readonly string[];
  readonly path: string;
  readonly kind: ShapeDifference['kind'] | 'status' | 'header' | 'body' | 'schema';
  readonly upstream: string;
  readonly mockrouter: string;
  /** For `renamed`: the path mockrouter has the field at (`path` is the upstream's). */
  readonly from?: string;
}

/**
 * The drift check's outcome: `drift` when there is any difference; `error` when it stopped at an upstream answer it
 * could not read (then `probes` and `differences` hold what was compared before).
 */
export interface VerifyReport {
  readonly drift: boolean;
  /** The upstream's API base, e.g. `https://openrouter.ai/api/v1`. */
  readonly upstream: string;
  /** Whether speech calls (which cost credit) were sent (`--spend`). */
  readonly spend: boolean;
  readonly probes: readonly ProbeResult[];
  readonly differences: readonly Difference[];
  /** The answer the check stopped at, or `null` when it went through every probe. */
  readonly error: ProbeError | null;
}
