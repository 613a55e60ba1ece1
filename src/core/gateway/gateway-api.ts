/**
 * What a simulated gateway is to its users ({@link Gateway}): it answers one request at a time, and exposes what
 * users steer (the clock, the journal, the scenarios, the replayed audio, the shared store's connection). Made by
 * `createGatewayOn` of `gateway.ts`.
 *
 * @module
 */
import type { Clock } from '../base/clock.js';
import type { ReplayedAudio } from '../journal/audio-replay.js';
import type { GatewayEventSource } from '../journal/gateway-events.js';
import type { Journal } from '../journal/journal.js';
import type { SharedJournal } from '../store/types.js';
import type { SpeechModelResponse } from '../catalog/speech-models.js';
import type { ScenarioControl } from '../scenarios/engine.js';
import type { Scenario, ScenarioDefinition } from '../scenarios/schema.js';
import type { CoreRequest, CoreResponse, MaybePromise } from '../base/types.js';

/** A simulated gateway. */
export interface Gateway {
  /**
   * Answers one request.
   *
   * @returns a promise of the response. It never rejects, for any input: every failure is the gateway's error
   *   envelope (an unexpected internal fault, thrown or a rejection, is reported once and answered with the 500
   *   envelope).
   * @example const response = await gateway.handle({ method: 'GET', path: '/api/v1/key', query: '', headers: { authorization: 'Bearer sk-test' } });
   */
  handle(request: CoreRequest): Promise<CoreResponse>;
  /**
   * The simulator's clock (epoch ms): record timestamps, generation readiness, rate-limit windows and
   * `Retry-After` read it. `clock.advance(ms)` and `clock.set(ms)` move it (a frozen clock stays frozen, a running
   * one keeps running from there), in whole ms within years 1970–9999, else a `RangeError` and no move.
   */
  readonly clock: Clock;
  /** The loaded scenarios and the default one (read-only; set the default with {@link useScenario}). */
  readonly scenarios: ScenarioControl;
  /**
   * Every API request this gateway answered, bounded (`journalSize`, `journalBytes`). With a shared store
   * (option `store`) it holds this process's answers, numbered in the one sequence of every replica, of the store's
   * current run: when the store restarts empty (its numbers start over), it starts over too, at this process's
   * next answer (with a `journal-cleared` event to this gateway's listeners). The admin API reads
   * {@link sharedJournal}.
   */
  readonly journal: Journal;
  /**
   * The journal of every replica: {@link journal} itself in memory; with option `store`, the store's (reads are
   * promises).
   */
  readonly sharedJournal: SharedJournal;
  /**
   * What happens, as it happens (`subscribe(listener)`): journal entries as requests arrive (`entry`) and as their
   * bodies end (`entry-done`), clock moves, default scenario changes, the journal emptied (`journal-cleared`) and
   * resets. See `GatewayEvent`. With a shared store (option `store`), the other replicas' events too, as they arrive
   * through the store (an entry's `replica` says whose).
   */
  readonly events: GatewayEventSource;
  /**
   * The audio of the speech answer journaled as `seq`, rendered again from the entry (the request's `input`, the
   * entry's `audio`: format, voice, speed) and the gateway's seed: the same bytes as the original answer, whole
   * (also when a scenario cut that answer short). The journal keeps no audio; this renders it (or takes it from the
   * audio cache). For a transcription entry: the audio the request sent, as kept by this process (the 16 MiB of
   * recent clips, each at most 8 MiB; `src/core/transcription/heard-audio.ts`). {@link openAudio} read whole. With a shared store the entry is the store's (any replica's), never
   * one of an earlier run of the store.
   *
   * @returns the content type (`audio/mpeg` or `audio/pcm;rate=24000;channels=1`) and the bytes.
   * @throws {GatewayError} (the promise rejects) 404 naming why there is none, as {@link openAudio} does.
   * @example const audio = await mock.gateway.audioOf(mock.journal.last()!.seq);
   */
  audioOf(seq: number): Promise<{ contentType: string; bytes: Uint8Array }>;
  /**
   * The audio of the speech answer journaled as `seq`, as {@link audioOf} gives it, opened as a streamed body: it
   * renders as it is read (from the cache, its chunks are at hand: `body.chunksNow()`), and nothing is rendered
   * until it is. Behind the admin API's `GET /__mock/requests/<seq>/audio` (`docs/admin-api.md`).
   *
   * @returns the content type (`audio/mpeg` or `audio/pcm;rate=24000;channels=1`), the body's length in bytes,
   *   and the body.
   * @throws {GatewayError} 404 whose message says why there is none: `No journal entry <seq>` (never made, or
   *   dropped by the bound or a reset), `Journal entry <seq> is not a speech answer with status 200`, `Journal
   *   entry <seq> did not keep its request body (over 64 KiB), so its audio cannot be rendered again`, or that it
   *   answered a recorded speech answer (a `fixtures` folder's audio, served, not rendered).
   * @example const { contentType, body } = await gateway.openAudio(seq); for await (const chunk of body) write(chunk);
   */
  openAudio(seq: number): MaybePromise<ReplayedAudio>;
  /**
   * Sets the default scenario: a loaded name, a definition, or `null` for none. Restarts the counters. Sends a
   * `scenario` event. Synchronous, as `clock.advance` and {@link reset} are: the change applies here at once, and
   * {@link sync} waits for it to reach the other replicas of a shared store. The adapters' `mock.useScenario`
   * (`MockControls`) is this call and that wait, as one promise of the same scenario.
   *
   * @param where names the caller in error messages; default `useScenario()`.
   * @returns the scenario set: the loaded one a name names, the definition validated, or `null`.
   * @throws {GatewayError} 400 `<where>: unknown scenario "<name>"; loaded scenarios: ...` for an unknown name;
   *   {@link ScenarioError} naming `<where>` and the path inside an invalid definition.
   */
  useScenario(nameOrDefinition: string | ScenarioDefinition | null, where?: string): Scenario | null;
  /**
   * Clears scenario counters, the journal, rate-limit windows and spent credits, and returns to the initial
   * default scenario. Generation records and the clock are kept. Sends a `reset` event (then `scenario` when the
   * default changed).
   */
  reset(): void;
  /**
   * Resolves once the state store answers (at once in memory). With option `store`, rejects when it cannot be
   * reached within 10 s, with a `StoreConnectError` naming the URL (without its password). Requests made before
   * wait for the first attempt; the standalone server waits for it before it listens.
   *
   * @example await mock.gateway.connect();
   */
  connect(): Promise<void>;
  /** Closes the state store's connections (nothing in memory) and its use of the words threads; the gateway answers 503 to what needs state after it. */
  close(): Promise<void>;
  /**
   * With a shared store: waits until every change made here (clock moves, `useScenario`, `reset`) reached the
   * store, then reads the shared clock and default scenario back, so what follows sees every replica's latest
   * changes (the admin API calls it around each change). At once in memory.
   *
   * @throws {StoreUnavailableError} (a 503 `GatewayError`) when the store cannot be reached.
   */
  sync(): Promise<void>;
  /**
   * Loads ahead what the first speech answer would otherwise wait for (the WebAssembly MP3 encoder, and with option
   * `speech: 'words'` the words engine, each once per process; bench/README.md, "Cold speech synthesis"). Optional;
   * the standalone server does it once it listens.
   *
   * @throws (rejects with) the words engine's load error, when option `speech` is `words`.
   *
   * @example beforeAll(() => mock.gateway.warmUp());
   */
  warmUp(): Promise<void>;
  /**
   * The speech model discovery answer of model `id` (`GET /api/v1/audio/speech/models/{author}/{slug}`'s `data`), or
   * `undefined` when it does not exist or does not output speech: what the dashboard shows beside a speech request.
   */
  speechModel(id: string): SpeechModelResponse | undefined;
  /**
   * Reports an unexpected error, once, to option `onError` (default: one `console.error` line); never throws. The
   * gateway reports its own (an event listener that threw, a failure inside `handle`); adapters report what they
   * catch around it (an answer Node could not send, a body that failed, an admin route that threw).
   *
   * @param where a short phrase naming the place, e.g. `sending the 200 answer to GET /api/v1/models`.
   */
  reportError(error: unknown, where: string): void;
}
