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
import { GatewayEvents, clockStateOf } from '../journal/gateway-events.js';
import { openStore } from './open-store.js';
import { checkStoreNames } from './store-names.js';
import { linkReplicas } from './replica-link.js';
import type { SharedScenario } from '../store/types.js';
import { createGenerationStore, DEFAULT_MAX_GENERATIONS } from '../generations/known-generations.js';
import { DEFAULT_JOURNAL_BYTES, DEFAULT_JOURNAL_SIZE, Journal, type JournalEntry } from '../journal/journal.js';
import type { Gateway } from './gateway-api.js';
import { journaled } from './journaled.js';
import { journalSinkOf, sharedJournalOf } from './journal-sink.js';
import { checkNumericOptions, frozenTimeOf, generationDelayOf, type GatewayOptions } from './options.js';
import { filesFor, initialScenario, userScenarios } from './option-files.js';
import { speechSetupOf } from './speech-option.js';
import { speechModelAnswer } from '../operations/speech-model.js';
import { createPipeline } from './pipeline.js';
import { consoleReporter, safeReporter, type ErrorReporter } from '../base/report-error.js';
import type { Platform } from './platform.js';
import { ScenarioEngine } from '../scenarios/engine.js';
import { scenarioRegistry } from '../scenarios/parse.js';
import { andThen, type CoreRequest, type CoreResponse, type MaybePromise } from '../base/types.js';

export type { Gateway } from './gateway-api.js';
export type { GatewayOptions } from './options.js';
export type { ReplayedAudio } from '../journal/audio-replay.js';

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
