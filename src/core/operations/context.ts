/**
 * What every operation of the simulator shares: the catalog, the state store, the audio renderer, the seed and
 * the clock. Built once per `createGateway` call and internal to the core: users reach the clock, the journal and
 * the scenarios through the `Gateway`, never this object.
 *
 * @module
 */
import type { Accounts } from '../accounts/accounts.js';
import type { AudioRenderer } from '../audio/renderer.js';
import type { SpeechMode } from '../audio/types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Clock } from '../base/clock.js';
import type { Recordings } from '../formats/recording-schema.js';
import type { FixtureTranscript } from '../formats/transcript-schema.js';
import type { Base64Decoder } from '../transcription/request-body.js';
import type { SaidIndex } from '../transcription/said-index.js';
import type { Sha256 } from '../transcription/said-audio.js';
import type { HeardAudio } from '../transcription/heard-audio.js';
import type { GenerationStore } from '../generations/known-generations.js';
import type { GatewayStore } from '../store/types.js';

/** Shared state of one simulated gateway. */
export interface GatewayContext {
  /** The model catalog (fixtures' models, variants, aliases). */
  readonly catalog: Catalog;
  /** Generation records (fixtures and speech calls). */
  readonly generations: GenerationStore;
  /** Renders and caches audio. */
  readonly audio: AudioRenderer;
  /** Where the gateway's state is kept (in memory, or shared by replicas): generation serials among it. */
  readonly store: GatewayStore;
  /** How speech sounds when a request has no `X-Mock-Speech` (option `speech`, default `tones`). */
  readonly speech: SpeechMode;
  /** The seed every generated value derives from. */
  readonly seed: number;
  /** The controllable clock (epoch ms). */
  readonly clock: Clock;
  /** The API keys, their balances and rate-limit windows. */
  readonly accounts: Accounts;
  /**
   * How long after a speech call its generation record becomes readable, ms, or `realistic` (500 to 2000 ms,
   * seeded per record). Before that, lookups answer 404 `Generation not found`.
   */
  readonly generationDelay: number | 'realistic';
  /** Recorded speech answers of a `fixtures` folder (`Fixtures.recordings`), keyed by `speechKeyOf`; undefined when none. */
  readonly recordings?: Recordings | undefined;
  /** Transcripts of audio apps bring (`Fixtures.transcripts`), by the audio's SHA-256; undefined when none. */
  readonly transcripts?: ReadonlyMap<string, FixtureTranscript> | undefined;
  /** Audio this simulator said, found again by its hash for transcription (fed by the renderer's `said` hook). */
  readonly said: SaidIndex;
  /** The audio of recent transcriptions, for the journal to play again. */
  readonly heard: HeardAudio;
  /** The platform's SHA-256 (`Platform.sha256Hex`, else Web Crypto or `@noble/hashes`). */
  readonly sha256: Sha256;
  /** The platform's base64 decoder (`Platform.decodeBase64`, else `atob`). */
  readonly decodeBase64: Base64Decoder;
}
