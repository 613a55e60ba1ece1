/**
 * The simulated gateway: one request in, one response out, with no HTTP framework in between.
 *
 * @module
 */
import { createAudioRenderer } from './audio/index.js';
import { authenticate } from './auth.js';
import { createCatalog } from './catalog/index.js';
import { systemNow, type Now } from './clock.js';
import type { GatewayContext } from './context.js';
import { GatewayError, errorResponse } from './errors.js';
import { loadFixtures, type Fixtures } from './fixtures/index.js';
import { createGenerationStore, DEFAULT_MAX_GENERATIONS } from './generations/store.js';
import { createIdSequence } from './ids.js';
import { getGeneration } from './operations/generation.js';
import { getModel } from './operations/model.js';
import { createSpeech } from './operations/speech.js';
import { matchRoute, type RouteMatch } from './routes.js';
import type { CoreRequest, CoreResponse } from './types.js';

/** Options shared by `createMockRouter` (in-process) and `startServer` (standalone). */
export interface GatewayOptions {
  /**
   * Seed of every generated value (generation ids, latencies, audio contour). Same seed and same requests give
   * byte-identical responses. Default `0`.
   */
  seed?: number;
  /**
   * The model catalog and known generation records: a folder holding `models.json` and `generations.json`
   * (the format of the package's own `fixtures/`), or the loaded {@link Fixtures}. Default: the package's
   * fixtures.
   */
  fixtures?: string | Fixtures;
  /**
   * The valid API keys. Default: any non-empty bearer key is valid. When given, any other key gets
   * 401 `User not found.` (facts file, "Messages seen").
   */
  keys?: readonly string[];
  /** The clock, epoch ms. Default `Date.now`. */
  now?: Now;
  /** How many speech-call generation records to keep (oldest evicted first). Default 10,000. */
  maxGenerations?: number;
  /** Bound of the audio cache, in bytes. Default 64 MiB. */
  audioCacheBytes?: number;
}

/** A simulated gateway. */
export interface Gateway {
  /**
   * Answers one request. Never throws for any input: every failure is the gateway's error envelope
   * (an unexpected internal fault is a 500 envelope).
   */
  handle(request: CoreRequest): CoreResponse;
  /** The shared state (catalog, stores), for adapters and tests. */
  readonly context: GatewayContext;
}

/**
 * Creates a gateway simulator.
 *
 * @throws {FixtureError} when `fixtures` names a folder whose files are missing or invalid (the message names
 *   the file, the path inside it, and what was expected).
 */
export function createGateway(options: GatewayOptions = {}): Gateway {
  const seed = options.seed ?? 0;
  const fixtures = typeof options.fixtures === 'object' ? options.fixtures : loadFixtures(options.fixtures);
  const context: GatewayContext = {
    catalog: createCatalog(fixtures),
    generations: createGenerationStore(fixtures.generations, options.maxGenerations ?? DEFAULT_MAX_GENERATIONS),
    audio: createAudioRenderer(options.audioCacheBytes === undefined ? {} : { maxCacheBytes: options.audioCacheBytes }),
    ids: createIdSequence(seed),
    seed,
    now: options.now ?? systemNow,
    keys: options.keys ? new Set(options.keys) : undefined,
    serial: 0,
  };

  function dispatch(request: CoreRequest, route: RouteMatch): CoreResponse {
    authenticate(request.headers, context.keys);
    switch (route.operation) {
      case 'speech':
        return createSpeech(context, request);
      case 'model':
        return getModel(context, route.author, route.slug);
      case 'generation':
        return getGeneration(context, request.query);
    }
  }

  return {
    context,
    handle(request) {
      try {
        const route = matchRoute(request.path);
        if (!route) {
          throw new GatewayError(404, { message: `No route for ${request.method} ${request.path}` });
        }
        const method = request.method === 'HEAD' && route.method === 'GET' ? 'GET' : request.method;
        if (method !== route.method) {
          throw new GatewayError(405, {
            message: `Method ${request.method} is not allowed on ${request.path}; use ${route.method}`,
            headers: { Allow: route.method },
          });
        }
        return dispatch(request, route);
      } catch (error) {
        if (error instanceof GatewayError) return error.toResponse();
        return errorResponse(500, { metadata: { error_type: 'server', reason: (error as Error)?.message ?? String(error) } });
      }
    },
  };
}
