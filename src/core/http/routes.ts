/**
 * The gateway's routes under `/api/v1`, stated once: the core routes requests with {@link matchRoute} and the
 * MSW handlers build their URL patterns from {@link ROUTES} ({@link interceptPattern}), so every adapter routes
 * alike.
 *
 * Sources: the gateway's OpenAPI operations `createAudioSpeech` (`POST /audio/speech`), `createAudioTranscriptions`
 * (`POST /audio/transcriptions`, JSON or multipart), `getModel`
 * (`GET /model/{author}/{slug}`) and `getGeneration` (`GET /generation?id=`), and the discovery and account reads
 * `getModels` (`GET /models`), `listModelsCount` (`GET /models/count`), `listEndpoints`
 * (`GET /models/{author}/{slug}/endpoints`), `getCurrentKey` (`GET /key`) and `getCredits` (`GET /credits`), and the
 * speech model discovery reads `listSpeechModels` (`GET /audio/speech/models`) and `getSpeechModel`
 * (`GET /audio/speech/models/{author}/{slug}`).
 *
 * @module
 */

/**
 * The operations the simulator answers, by the name the journal and scenario rules (`match.operation`) use:
 * `speech` (`createAudioSpeech`), `transcription` (`createAudioTranscriptions`), `model` (`getModel`), `generation` (`getGeneration`), `models` (`getModels`),
 * `models-count` (`listModelsCount`), `endpoints` (`listEndpoints`), `key` (`getCurrentKey`), `credits`
 * (`getCredits`), `speech-models` (`listSpeechModels`) and `speech-model` (`getSpeechModel`).
 */
export const OPERATIONS = ['speech', 'transcription', 'model', 'generation', 'models', 'models-count', 'endpoints', 'key', 'credits', 'speech-models', 'speech-model'] as const;

/** One operation the simulator answers. */
export type Operation = (typeof OPERATIONS)[number];

/** Prefix every operation's path starts with. */
export const API_PREFIX = '/api/v1';

/** One route: an operation, its method and its path template under {@link API_PREFIX}. */
export interface Route {
  readonly operation: Operation;
  /** The gateway's OpenAPI operation id, for docs and messages. */
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  /** Path template under {@link API_PREFIX}; `{name}` stands for one non-empty, still percent-encoded segment. */
  readonly path: string;
}

/** Every route, in the order they are matched. */
export const ROUTES: readonly Route[] = [
  { operation: 'speech', operationId: 'createAudioSpeech', method: 'POST', path: '/audio/speech' },
  { operation: 'transcription', operationId: 'createAudioTranscriptions', method: 'POST', path: '/audio/transcriptions' },
  { operation: 'model', operationId: 'getModel', method: 'GET', path: '/model/{author}/{slug}' },
  { operation: 'generation', operationId: 'getGeneration', method: 'GET', path: '/generation' },
  { operation: 'models', operationId: 'getModels', method: 'GET', path: '/models' },
  { operation: 'models-count', operationId: 'listModelsCount', method: 'GET', path: '/models/count' },
  { operation: 'endpoints', operationId: 'listEndpoints', method: 'GET', path: '/models/{author}/{slug}/endpoints' },
  { operation: 'key', operationId: 'getCurrentKey', method: 'GET', path: '/key' },
  { operation: 'credits', operationId: 'getCredits', method: 'GET', path: '/credits' },
  { operation: 'speech-models', operationId: 'listSpeechModels', method: 'GET', path: '/audio/speech/models' },
  { operation: 'speech-model', operationId: 'getSpeechModel', method: 'GET', path: '/audio/speech/models/{author}/{slug}' },
];

/** A matched route with its path parameters (raw, still percent-encoded). */
export interface RouteMatch {
  readonly route: Route;
  readonly operation: Operation;
  readonly method: Route['method'];
  readonly params: Readonly<Record<string, string>>;
}

const TEMPLATES = ROUTES.map((route) => ({ route, segments: route.path.split('/').slice(1) }));

/**
 * Matches a raw path (percent-encoded, no query); one trailing slash is ignored.
 *
 * @returns the route and its parameters, or `undefined` when the path is none of {@link ROUTES}.
 * @example matchRoute('/api/v1/model/openai/gpt-4o') // { operation: 'model', params: { author: 'openai', slug: 'gpt-4o' }, ... }
 */
export function matchRoute(path: string): RouteMatch | undefined {
  if (!path.startsWith(API_PREFIX)) return undefined;
  let rest = path.slice(API_PREFIX.length);
  if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
  if (!rest.startsWith('/')) return undefined;
  const segments = rest.slice(1).split('/');
  for (const { route, segments: template } of TEMPLATES) {
    const params = matchSegments(template, segments);
    if (params) return { route, operation: route.operation, method: route.method, params };
  }
  return undefined;
}

/**
 * Matches path segments against a template's (`['model', '{author}', '{slug}']`): literal parts equal, each
 * `{name}` part one non-empty segment, taken raw. Shared by the API routes and the admin routes (`src/core/admin/admin-api.ts`).
 *
 * @returns the parameters by name, or `undefined` when the segments do not match.
 * @example matchSegments(['requests', '{seq}'], ['requests', '12']) // { seq: '12' }
 */
export function matchSegments(template: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  const matched = template.every((part, i) => {
    const segment = segments[i]!;
    if (!part.startsWith('{')) return part === segment;
    params[part.slice(1, -1)] = segment;
    return segment !== '';
  });
  return matched ? params : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The path part of a URL pattern that takes `route` in: the path itself with an optional trailing slash, or,
 * for a template with parameters, its literal prefix and anything after (so a malformed model path such as
 * `/model/a` still reaches the core and gets the gateway's 404 envelope). No capture groups: a path with broken
 * percent-encoding is never decoded on the way.
 *
 * @example interceptPattern(ROUTES[1]) // '/api/v1/model/.*'
 */
export function interceptPattern(route: Route): string {
  const brace = route.path.indexOf('{');
  return brace === -1 ? `${escapeRegExp(API_PREFIX + route.path)}/?` : `${escapeRegExp(API_PREFIX + route.path.slice(0, brace))}.*`;
}
