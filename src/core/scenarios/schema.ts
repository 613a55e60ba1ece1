/**
 * The scenario file format: an ordered list of rules, each a match and an effect. Validated with zod at load;
 * `scenarios/schema.json` (for editors) is generated from this same schema by `npm run scenarios:generate`.
 *
 * @example
 * # scenarios/rate-limited-then-ok.yaml
 * name: rate-limited-then-ok
 * description: 429 twice with Retry-After 1, then normal answers.
 * rules:
 *   - name: rate-limit
 *     times: 2
 *     error: { status: 429, headers: { Retry-After: "1" } }
 *
 * @module
 */
import * as z from 'zod';
import { OPERATIONS } from '../http/routes.js';

/** The operations a rule can match: each of {@link OPERATIONS}, or `any` for every request (unknown paths too). */
const MATCH_OPERATIONS = [...OPERATIONS, 'any'] as const;

/** What a rule matches on. Every given field must match; omitted fields match anything. */
const MatchSchema = z.lazy(() =>
  z
    .strictObject({
      operation: z.enum(MATCH_OPERATIONS).default('any').describe(`Operation to match: ${OPERATIONS.join(', ')} or any (default).`),
      model: z.string().min(1).optional().describe('Model id to match exactly (the `model` of a speech body or of a transcription\'s JSON body up to 1 MiB, or the model of a lookup or endpoints path). A trailing `*` matches a prefix.'),
      voice: z.string().min(1).optional().describe('Speech `voice` to match exactly.'),
      format: z.enum(['mp3', 'pcm']).optional().describe('Speech `response_format` to match (omitted in the request counts as pcm).'),
    })
    .describe('Which requests the rule applies to.'),
);

/**
 * Headers a scenario may not set: they choose how the body is framed, which the adapter decides from the body it
 * sends (a `Content-Length` of a scenario's is allowed and replaced by the body's own, `src/node-adapter/send.ts`).
 */
const FRAMING_HEADERS = new Set(['transfer-encoding', 'trailer', 'te']);

/**
 * A header name HTTP can send: a token (RFC 9110, section 5.6.2), as Node's `validateHeaderName` checks it; not
 * one of {@link FRAMING_HEADERS}.
 */
const HeaderNameSchema = z.lazy(() =>
  z
    .string()
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "expected a header name: letters, digits and !#$%&'*+.^_`|~- only, no spaces")
    .refine((name) => !FRAMING_HEADERS.has(name.toLowerCase()), { message: 'expected a header that does not frame the body (not Transfer-Encoding, Trailer or TE)' }),
);

/**
 * A header value HTTP can send: tab, visible ASCII, spaces and Latin-1 (U+0080 to U+00FF), no CR, LF or other
 * control characters, as Node's `validateHeaderValue` checks it (RFC 9110, section 5.5).
 */
const HeaderValueSchema = z.lazy(() =>
  z.string().regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'expected a header value of tab, printable ASCII or Latin-1 characters (no CR, LF or other control characters, nothing past U+00FF)'),
);

/** Extra response headers of an effect: names and values HTTP can send. */
const HeadersSchema = z.lazy(() => z.record(HeaderNameSchema, HeaderValueSchema));

/** A media type `type/subtype` with optional `; name=value` parameters (RFC 9110, section 8.3.1), sendable as a header value. */
const MediaTypeSchema = z.lazy(() =>
  z
    .string()
    .regex(
      /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*;[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+=(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[\t\x20\x21\x23-\x5b\x5d-\x7e\x80-\xff]|\\[\t\x20-\x7e\x80-\xff])*"))*[ \t]*$/,
      'expected a media type such as text/html; charset=UTF-8',
    ),
);

/** An error answer: the gateway's envelope for `status`, each part overridable. */
const ErrorEffectSchema = z.lazy(() =>
  z
    .strictObject({
      status: z
        .int()
        .min(400)
        .max(599)
        .describe('HTTP status and error.code, 400 to 599; the gateway documents 400, 401, 402, 403, 404, 413, 429, 500, 502, 503, 524 and 529 for createAudioSpeech (SDK 1.3.19).'),
      message: z.string().optional().describe("error.message; default: the real gateway's message for the status."),
      metadata: z.record(z.string(), z.unknown()).nullable().optional().describe('Merged into error.metadata (which always has error_type); null sends no metadata.'),
      user_id: z.string().optional().describe('Top-level user_id (the real gateway sends one on 402).'),
      headers: HeadersSchema.optional().describe('Extra response headers, e.g. Retry-After (seconds).'),
    })
    .describe("Answer with the gateway's error envelope."),
);

/** A raw answer with its own content type (for example the edge network's HTML 524 page). */
const RawEffectSchema = z.lazy(() =>
  z
    .strictObject({
      status: z.int().min(200).max(599).describe('HTTP status, 200 to 599 (an informational 1xx is no final answer).'),
      content_type: MediaTypeSchema.describe('Content-Type of the body, e.g. text/html; charset=UTF-8.'),
      body: z.string().describe('The body text, sent as is.'),
      headers: HeadersSchema.optional().describe('Extra response headers.'),
    })
    .describe('Answer with a raw body instead of the envelope.'),
);

/**
 * What a value that is none of a union's forms is told (zod's own message says only `Invalid input`): the forms by
 * their keys, and one of each.
 */
const DELAY_FORMS = 'expected {ms} or {min_ms, max_ms}: whole milliseconds from 0 to 600000, such as { ms: 500 }';
/** As {@link DELAY_FORMS}, for `audio.dribble`. */
const DRIBBLE_FORMS = 'expected {chunks, over_ms} or {realtime}, such as { chunks: 20, over_ms: 5000 } or { realtime: 0.5 }';

/** A delay before the response starts: fixed, or a seeded random value in a range. */
const DelaySchema = z.lazy(() =>
  z
    .union([
      z.strictObject({ ms: z.int().min(0).max(600_000).describe('Fixed delay, ms.') }),
      z
        .strictObject({
          min_ms: z.int().min(0).max(600_000).describe('Shortest delay, ms.'),
          max_ms: z.int().min(0).max(600_000).describe('Longest delay, ms.'),
        })
        .refine((d) => d.max_ms >= d.min_ms, { message: 'max_ms must be at least min_ms', path: ['max_ms'] }),
    ], { error: DELAY_FORMS })
    .describe('Wait before the response starts (ms); a range draws a seeded value per request.'),
);

/** Pacing of a streamed audio body. */
const DribbleSchema = z.lazy(() =>
  z
    .union([
      z.strictObject({
        chunks: z.int().min(1).max(100_000).describe('Number of chunks to split the audio into.'),
        over_ms: z.int().min(0).max(600_000).describe('Time to spread the chunks over, ms.'),
      }),
      z.strictObject({
        realtime: z.number().positive().max(1000).describe('Send audio at real time × this factor (1 = as fast as it plays; 0.5 = twice as slow).'),
      }),
    ], { error: DRIBBLE_FORMS })
    .describe('Send the audio slowly: N chunks over T ms, or paced at real time × k.'),
);

/** Effects on a successful audio response (speech only). */
const AudioEffectSchema = z.lazy(() =>
  z
    .strictObject({
      truncate: z.number().gt(0).lt(1).optional().describe('End the stream after this fraction of the bytes, then cut the connection (0 < f < 1).'),
      dribble: DribbleSchema.optional(),
    })
    .describe('Effects on the audio stream of a successful speech response.'),
);

/** One rule. A rule with no effect lets the matching requests through unchanged (and still counts them). */
const RuleSchema = z.lazy(() =>
  z
    .strictObject({
      name: z.string().regex(/^[\w.-]+$/, 'expected letters, digits, _ . or -').optional().describe('Name shown in X-Mock-Applied (default: rule-<n>, 1-based).'),
      match: MatchSchema.optional(),
      times: z.int().min(1).optional().describe('Apply only to the first N matching requests of a session; later ones fall through.'),
      probability: z.number().min(0).max(1).optional().describe('Apply with this seeded probability (0 to 1).'),
      delay: DelaySchema.optional(),
      error: ErrorEffectSchema.optional(),
      raw: RawEffectSchema.optional(),
      reset: z.literal(true).optional().describe('Drop the connection without an answer (socket destroyed; in-process, a network error).'),
      audio: AudioEffectSchema.optional(),
    })
    .refine((r) => [r.error, r.raw, r.reset].filter((x) => x !== undefined).length <= 1, {
      message: 'a rule takes at most one of error, raw and reset',
    })
    .refine((r) => !r.audio || (r.error === undefined && r.raw === undefined && r.reset === undefined), {
      message: 'audio effects apply to a successful answer; they cannot be combined with error, raw or reset',
    })
    .describe('One rule: when a request matches, apply the effects.'),
);

/** A scenario: a name and ordered rules; the first rule that applies wins. */
export const ScenarioSchema = z.lazy(() =>
  z
    .strictObject({
      $schema: z.string().optional().describe('Path or URL of scenarios/schema.json, for editors.'),
      name: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected lower-case letters, digits, . _ or -').describe('The name used by X-Mock-Scenario and --scenario.'),
      description: z.string().optional().describe('What the scenario simulates.'),
      rules: z.array(RuleSchema).min(1).describe('Rules in order; the first that applies to a request wins; unmatched requests get normal behavior.'),
    })
    .describe('A mockrouter scenario.'),
);

/** A scenario as written in a file. */
export type ScenarioDefinition = z.input<typeof ScenarioSchema>;
/** A validated scenario (defaults filled in). */
export type Scenario = z.output<typeof ScenarioSchema>;
/** A validated rule. */
export type Rule = Scenario['rules'][number];
