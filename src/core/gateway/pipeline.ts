/**
 * The request pipeline of the simulated gateway, pure of bookkeeping (journaling and timing are in
 * `journaled.ts`):
 *
 * route (404, 405 with `Allow`) → bearer auth (401) → session → the speech mode (`X-Mock-Speech`, 400 for a value that
 * is none) → scenario selection (`X-Mock-Status`,
 * `X-Mock-Scenario`, the default) → the first applicable rule, or the key's rate limit (429) and the operation
 * itself (which may also answer 429 for `:free` models and 402 for credits) → the rule's effects (audio effects,
 * delay) and `X-Mock-Applied`, on a new response (never an edit of the operation's or the rule's).
 *
 * A stage may wait (an operation may answer with a promise, `operations/call.ts`); the stages run one after
 * another for a request, in the order above, and the pipeline answers at once when none had to wait. Every
 * failure, thrown or a rejection, is the gateway's error envelope (`toErrorResponse`).
 *
 * @module
 */
import type { Account } from '../accounts/accounts.js';
import type { GatewayContext } from '../operations/context.js';
import { GatewayError, toErrorResponse } from '../base/error-envelope.js';
import { API_METHODS, SERVED_METHODS, methodNotAllowed } from '../http/malformed-requests.js';
import { modelIdOf } from '../operations/model.js';
import { OPERATION_HANDLERS } from '../operations/index.js';
import { speechModeOf } from '../operations/speech-mode.js';
import type { SpeechMode } from '../audio/types.js';
import { header, jsonBodyOrUndefined } from '../http/request.js';
import { matchRoute, type RouteMatch } from '../http/routes.js';
import { delayOf, ruleResponse, withAudioEffects } from '../scenarios/effects.js';
import { APPLIED_HEADER, SCENARIO_HEADER, SESSION_HEADER, STATUS_HEADER, type AppliedRule, type RequestFacts, type ScenarioEngine } from '../scenarios/engine.js';
import { bearerKey } from '../accounts/auth.js';
import { keyDigest, sessionOf } from '../accounts/session.js';
import type { OperationAnswer } from '../operations/call.js';
import { andThen, type CoreRequest, type CoreResponse, type MaybePromise, type SpeechAudio, type TranscriptionFacts } from '../base/types.js';

/** What the pipeline made of one request: the response and what the journal records about it. */
export interface Answered {
  readonly response: CoreResponse;
  /** What a speech answer's body renders (the operation's), for the journal's `audio`; adapters never see it. */
  readonly audio?: SpeechAudio | undefined;
  /** What completes `audio` once the body ended (the operation's `audioEnded`, speech with words). */
  readonly audioEnded?: OperationAnswer['audioEnded'];
  /** What a transcription answer transcribed (the operation's), for the journal's `transcription`. */
  readonly transcription?: TranscriptionFacts | undefined;
  /** The request body as the journal keeps it, when the operation gave one (`OperationAnswer.requestBody`). */
  readonly requestBody?: unknown;
  /** The matched route, or `undefined` for an unknown path. */
  readonly route: RouteMatch | undefined;
  /** The session the request ran in (`X-Mock-Session`, else derived from the key it sent, else `no-key`). */
  readonly session: string;
  /** The scenario rule applied, if any. */
  readonly applied: AppliedRule | undefined;
}

/**
 * The pipeline of one gateway: what it made of a request, at once when no stage had to wait, else a promise of it;
 * never throws, never rejects.
 */
export type Pipeline = (request: CoreRequest) => MaybePromise<Answered>;

/**
 * The route of `request`.
 *
 * @throws {GatewayError} 404 for a path that is no operation, or 405 with `Allow` (`methodNotAllowed` of
 *   `http/malformed-requests.ts`) there for a method served nowhere (`CONNECT`, `TRACE`, ...); 405 with `Allow` for a wrong
 *   method on an operation's path (HEAD is GET).
 */
function route(request: CoreRequest): RouteMatch {
  const match = matchRoute(request.path);
  if (!match) {
    if (!SERVED_METHODS.has(request.method)) throw methodNotAllowed(request.method, request.path, API_METHODS);
    throw new GatewayError(404, { message: `No route for ${request.method} ${request.path}` });
  }
  const method = request.method === 'HEAD' && match.method === 'GET' ? 'GET' : request.method;
  if (method !== match.method) throw methodNotAllowed(request.method, request.path, match.method);
  return match;
}

/** What scenario rules match on; the speech body is parsed only when a rule asks for it. */
function factsOf(request: CoreRequest, match: RouteMatch): RequestFacts {
  if (match.operation === 'model' || match.operation === 'endpoints' || match.operation === 'speech-model') {
    return { operation: match.operation, model: modelIdOf(match.params.author ?? '', match.params.slug ?? '') };
  }
  return {
    operation: match.operation,
    speechBody: () => {
      const body = jsonBodyOrUndefined(request);
      return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    },
  };
}

/**
 * The session of a request refused before its key was accepted (an unknown path, no key, a key the keys file does
 * not list): `X-Mock-Session`, else derived from the key it sent, else `no-key` (`sessionOf`).
 */
function sentSession(request: CoreRequest, sessionHeader: string | undefined): string {
  const key = bearerKey(request.headers);
  return sessionOf(sessionHeader, key === undefined ? undefined : keyDigest(key));
}

/**
 * Creates the pipeline over a gateway's shared state and scenarios.
 *
 * @param before runs after the route and the key were checked, before anything reads state (a shared store's
 *   controls: `gateway.ts`); its failure (a 503 of a store away) is the request's answer, like any stage's.
 */
export function createPipeline(ctx: GatewayContext, scenarios: ScenarioEngine, before?: () => MaybePromise<void>): Pipeline {
  function operate(request: CoreRequest, match: RouteMatch, account: Account, speech: SpeechMode): MaybePromise<OperationAnswer> {
    return andThen(ctx.accounts.consumeKeyLimit(account, ctx.clock.now()), () => OPERATION_HANDLERS[match.operation]({ ctx, request, params: match.params, account, speech }));
  }

  function answer(request: CoreRequest, match: RouteMatch, session: string, account: Account): MaybePromise<Answered> {
    const speech = speechModeOf(request, ctx.speech);
    const scenario = scenarios.select(header(request.headers, STATUS_HEADER), header(request.headers, SCENARIO_HEADER));
    const applying = scenario ? scenarios.apply(scenario, session, factsOf(request, match)) : undefined;
    return andThen(applying, (applied) => {
      if (!applied) return andThen(operate(request, match, account, speech), (operated) => ({ ...operated, route: match, session, applied }));
      const ruled = ruleResponse(applied, ctx.clock.now(), session, account.userId);
      const operated: MaybePromise<OperationAnswer> = ruled ? { response: ruled } : operate(request, match, account, speech);
      return andThen(operated, ({ response, ...kept }) => {
        const effects = !ruled && response.status === 200;
        return {
          ...kept,
          response: {
            ...response,
            body: effects ? withAudioEffects(applied.rule, response.body) : response.body,
            delayMs: delayOf(applied.rule, applied.draw),
            headers: { ...response.headers, [APPLIED_HEADER]: `${applied.scenario}/${applied.ruleName}` },
          },
          route: match,
          session,
          applied,
        };
      });
    });
  }

  return (request) => {
    const sessionHeader = header(request.headers, SESSION_HEADER);
    /** Set once the key was accepted; a request refused before has the session of the key it sent, if any. */
    let session: string | undefined;
    let match: RouteMatch | undefined;
    const failed = (error: unknown): Answered => ({ response: toErrorResponse(error), route: match, session: session ?? sentSession(request, sessionHeader), applied: undefined });
    try {
      match = route(request);
      const account = ctx.accounts.authenticate(request.headers);
      const accepted = sessionOf(sessionHeader, account.digest);
      session = accepted;
      const answered = before ? andThen(before(), () => answer(request, match!, accepted, account)) : answer(request, match, accepted, account);
      return answered instanceof Promise ? answered.catch(failed) : answered;
    } catch (error) {
      return failed(error);
    }
  };
}
