/**
 * The simulated gateway: one request in, one response out, with no HTTP framework in between. It puts together
 * the shared state (`operations/context.ts`), the request pipeline (`pipeline.ts`) and the journal around it
 * (`journaled.ts`), and exposes what users steer: the clock, the journal and the scenarios.
 *
 * @module
 */
import { Accounts, parseKeys } from '../accounts/accounts.js';
import { createAudioRenderer, type AudioRequest } from '../audio/renderer.js';
import { decodeBase64WithAtob } from '../transcription/request-body.js';
import { sha256Hex, type SaidAudio } from '../transcription/said-audio.js';
import { createSaidIndex } from '../transcription/said-index.js';
import { createHeardAudio } from '../transcription/heard-audio.js';
import { createCatalog } from '../catalog/catalog.js';
import { collectAudio, replayHeard, replaySpeech, type ReplayedAudio } from '../journal/audio-replay.js';
import { Clock, systemNow } from '../base/clock.js';
import { GatewayError, toErrorResponse } from '../base/error-envelope.js';
import type { GatewayContext } from '../operations/context.js';
import { GatewayEvents, clockStateOf, type GatewayEventSource } from '../journal/gateway-events.js';
import { openStore } from './open-store.js';
import { checkStoreNames } from './store-names.js';
import { linkReplicas } from './replica-link.js';
import type { SharedJournal, SharedScenario } from '../store/types.js';
import { createGenerationStore, DEFAULT_MAX_GENERATIONS } from '../generations/known-generations.js';
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, Journal, type JournalEntry } from '../journal/journal.js';
import { journaled } from './journaled.js';
import { journalSinkOf, sharedJournalOf } from './journal-sink.js';
import { checkNumericOptions, frozenTimeOf, generationDelayOf, type GatewayOptions } from './options.js';
import { filesFor, initialScenario, userScenarios } from './option-files.js';
import { speechSetupOf } from './speech-option.js';
import type { SpeechModelResponse } from '../catalog/speech-models.js';
import { speechModelAnswer } from '../operations/speech-model.js';
import { createPipeline } from './pipeline.js';
import { consoleReporter, safeReporter, type ErrorReporter } from '../base/report-error.js';
import type { Platform } from './platform.js';
import { ScenarioEngine, type ScenarioControl } from '../scenarios/engine.js';
import { scenarioRegistry } from '../scenarios/parse.js';
import type { Scenario, ScenarioDefinition } from '../scenarios/schema.js';
import { andThen, type CoreRequest, type CoreResponse, type MaybePromise } from '../base/types.js';

export type { GatewayOptions } from './options.js';
export type { ReplayedAudio } from '../journal/audio-replay.js';

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

/** Each gateway's shared state, for the simulator's own tests; not part of the package's API. */
const contexts = new WeakMap<Gateway, GatewayContext>();

/**
 * The shared state behind `gateway` (accounts, stores, catalog, audio renderer), for tests that check state no
 * request or gateway method shows, such as a key's remaining balance or the audio cache's counters. Test-only:
 * nothing in `src` calls it, and no entry point of the package exports it (tests reach it through
 * `test/support/gateway-context.ts`).
 *
 * @internal
 * @throws {TypeError} for an object `createGatewayOn` did not make.
 */
export function contextOf(gateway: Gateway): GatewayContext {
  const context = contexts.get(gateway);
  if (!context) throw new TypeError('not a gateway made by createGateway');
  return context;
}

/**
 * `handle`, unable to throw or reject: an unexpected error, thrown or a rejection, is reported once and answered
 * with the 500 envelope (the pipeline already answers every request's own fault with its envelope; this catches
 * what would escape it, such as the journal or a response of the core that cannot be built).
 */
function isolated(handle: (request: CoreRequest) => MaybePromise<CoreResponse>, report: ErrorReporter): (request: CoreRequest) => Promise<CoreResponse> {
  const fault = (request: CoreRequest, error: unknown): CoreResponse => {
    report(error, `request ${request.method} ${request.path}`);
    return toErrorResponse(error);
  };
  return (request) => {
    try {
      const response = handle(request);
      // One promise per request: the one `handle` promises; none made on the way when nothing had to wait.
      return response instanceof Promise ? response.catch((error: unknown) => fault(request, error)) : Promise.resolve(response);
    } catch (error) {
      return Promise.resolve(fault(request, error));
    }
  };
}

/**
 * Creates a gateway simulator on `platform` (Node.js: `createGateway` of `src/node-platform/create-gateway.ts`; browsers:
 * `src/browser/index.ts`).
 *
 * @throws {FixtureError} when `fixtures` names a folder whose files are missing or invalid; {@link ScenarioError}
 *   for an invalid scenario file, folder or definition; {@link KeysError} for an invalid keys file or list;
 *   {@link OptionsError} for an unknown default scenario name, a bad `clock`, `generationDelayMs`, `seed`,
 *   `journalSize`, `journalBytes`, `maxGenerations` or `audioCacheBytes`, or a path where the platform reads no files.
 *   Every message names the option or the file, the path inside it, and what was expected.
 */
export function createGatewayOn(platform: Platform, options: GatewayOptions = {}): Gateway {
  checkNumericOptions(options);
  checkStoreNames(options);
  const seed = options.seed ?? 0;
  const speech = speechSetupOf(platform, options);
  const fixtures =
    typeof options.fixtures === 'object' ? options.fixtures : options.fixtures === undefined ? platform.defaultFixtures() : filesFor(platform, 'fixtures', options.fixtures).fixtures(options.fixtures);
  const keys = options.keys === undefined ? undefined : typeof options.keys === 'string' ? filesFor(platform, 'keys', options.keys).keys(options.keys) : parseKeys(options.keys);
  const report = safeReporter(options.onError ?? consoleReporter);
  const replica = options.replicaId ?? platform.replicaId();
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  const journal = new Journal(journalSize, () => events.emit('journal-cleared', () => ({})), options.journalBytes ?? DEFAULT_JOURNAL_BYTES);
  const maxGenerations = options.maxGenerations ?? DEFAULT_MAX_GENERATIONS;
  const store = openStore(platform, options, { journal, replica, journalSize, maxGenerations, report });
  const events: GatewayEvents = new GatewayEvents(report, store.shared ? (event) => store.publish(event) : undefined);
  const clock: Clock = new Clock(options.now ?? systemNow, frozenTimeOf(options.clock), () => {
    events.emit('clock', () => clockStateOf(clock));
    link.writing(store.setClock(clock.setting()), 'sharing a clock move');
  });
  const sha256 = platform.sha256Hex ?? sha256Hex;
  const said = createSaidIndex(store, report, sha256);
  const context: GatewayContext = {
    catalog: createCatalog(fixtures),
    generations: createGenerationStore(fixtures.generations, store),
    speech: speech.mode,
    audio: createAudioRenderer({
      mp3Wasm: platform.mp3Wasm,
      flite: speech.flite,
      wordsPool: speech.wordsPool,
      ...(options.audioCacheBytes === undefined ? {} : { maxCacheBytes: options.audioCacheBytes }),
      said: (req, bytes, samples, pieces) => said.said(saidAudioOf(req, samples, pieces), bytes),
    }),
    said,
    heard: createHeardAudio(),
    sha256,
    transcripts: fixtures.transcripts,
    decodeBase64: platform.decodeBase64 ?? decodeBase64WithAtob,
    store,
    seed,
    clock,
    accounts: new Accounts(keys, store),
    generationDelay: generationDelayOf(options.generationDelayMs),
    recordings: fixtures.recordings,
  };
  // User scenarios are read and checked now, so a bad file fails at start-up; the built-ins are read on first use
  // (a start-up that needs none does not pay for them), or now when user scenarios must be checked against them.
  const user = userScenarios(options.scenarios, platform);
  const registry = user.length > 0 ? scenarioRegistry([...platform.builtinScenarios(), ...user]) : () => scenarioRegistry(platform.builtinScenarios());
  const scenarios = new ScenarioEngine(registry, seed, (slot) => store.countRule(slot));
  scenarios.setInitial(initialScenario(options.scenario, scenarios, platform));
  const link = linkReplicas({ store, clock, scenarios, report });

  const announceScenario = () => events.emit('scenario', () => ({ default: scenarios.defaultScenario?.name ?? null }));

  // With a shared store, every request first takes the shared clock and default scenario (one read).
  const pipeline = createPipeline(context, scenarios, link.before);
  if (store.shared) {
    store.onRemoteEvent(({ event }) => {
      // Another replica emptied the shared journal: this process's own entries go too, as they did there. Its event
      // is the one this gateway's listeners get; announcing the clear again would send it back to every replica.
      if (event.type === 'journal-cleared') journal.clearUnannounced();
      events.emitRemote(event);
    });
  }

  const replayed = (entry: JournalEntry | undefined, seq: number): ReplayedAudio => {
    const audio = entry?.operation === 'transcription' ? replayHeard(entry, seq, context.heard) : replaySpeech(entry, seq, context.audio, seed);
    if (typeof audio === 'string') throw new GatewayError(404, { message: audio });
    return audio;
  };
  // With a shared store, the store's journal is the one truth: this process's copy may hold an entry of an
  // earlier run of the store (one that restarted empty numbers from 1 again), so it is not read here.
  const entryOf = (seq: number): MaybePromise<JournalEntry | undefined> => (store.shared ? store.journal.get(seq) : journal.get(seq));
  /** The store's state started over (this process's copy of the journal just did): this gateway's listeners are told. */
  function storeStartedOver(): void {
    events.emitRemote({ type: 'journal-cleared', data: {} });
  }

  const gateway: Gateway = {
    clock,
    scenarios,
    journal,
    sharedJournal: sharedJournalOf(store, journal),
    events,
    handle: isolated(journaled(pipeline, journalSinkOf(store, journal, storeStartedOver), clock, events, replica), report),
    useScenario(nameOrDefinition, where = 'useScenario()') {
      const scenario = nameOrDefinition === null ? null : scenarios.resolve(nameOrDefinition, where);
      scenarios.useScenario(scenario);
      const shared: SharedScenario =
        nameOrDefinition === null ? { kind: 'none' } : typeof nameOrDefinition === 'string' ? { kind: 'name', name: nameOrDefinition } : { kind: 'definition', definition: nameOrDefinition };
      link.writing(store.setScenario(shared), 'sharing the default scenario');
      announceScenario();
      return scenario;
    },
    reset() {
      const before = scenarios.defaultScenario;
      scenarios.reset();
      context.accounts.reset();
      // The store clears its journal with the rest: in memory that is `journal`, whose `clear()` announces it. A
      // shared store's is every replica's; this process's copy is cleared here, which announces it to every replica.
      if (store.shared) journal.clear();
      link.writing(store.reset(), 'resetting the shared store');
      events.emit('reset', () => ({}));
      if (scenarios.defaultScenario !== before) announceScenario();
    },
    openAudio: (seq) => andThen(entryOf(seq), (entry) => replayed(entry, seq)),
    async audioOf(seq) {
      const audio = await gateway.openAudio(seq);
      return { contentType: audio.contentType, bytes: await collectAudio(audio) };
    },
    connect: () => store.ready(),
    close: () => Promise.all([speech.release(), store.close()]).then(() => undefined),
    sync: () => link.sync(),
    speechModel: (id) => speechModelAnswer(context.catalog, id),
    warmUp: () => Promise.all([context.audio.warmUp(), context.audio.prepare(context.speech)]).then(() => undefined),
    reportError: report,
  };
  contexts.set(gateway, context);
  return gateway;
}

/** What the said index keeps of a rendered request (`src/core/transcription/said-audio.ts`). */
function saidAudioOf(req: AudioRequest, samples: number, pieces: readonly number[] | undefined): SaidAudio {
  return { input: req.input, voice: req.voice, speed: req.speed, seed: req.seed, mode: req.mode ?? 'tones', format: req.format, samples, ...(pieces ? { pieces: [...pieces] } : {}), ...(req.turns ? { turns: req.turns.map(({ text, voice }) => ({ text, voice })) } : {}) };
}
