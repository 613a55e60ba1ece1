/**
 * A model's endpoints, as `GET /models/{author}/{slug}/endpoints` answers them (the gateway's OpenAPI operation
 * `listEndpoints`; `docs/behaviour.md`, "Discovery reads"): one `PublicEndpoint` per provider that serves the model.
 *
 * What an endpoint says about the model (name, context length, pricing, supported parameters) is the model
 * record's, so an endpoint of `openai/gpt-4o:free` costs nothing like its record. What the gateway measures
 * (latency and throughput percentiles over the last 30 minutes, uptimes) is drawn from the gateway's seed, the
 * model and the provider: the same for every call of one seed, different for another seed, and plausible
 * (latency p50 ≤ p75 ≤ p90 ≤ p99; throughput p50 ≥ p75 ≥ p90 ≥ p99, the slow tail last, as the document's example
 * orders them).
 *
 * @module
 */
import type { ModelRecord, ProviderEntry } from '../formats/fixture-schema.js';
import { hashString, unitFloat } from '../base/prng.js';
import type { ResolvedModel } from './catalog.js';

/** Percentiles of one measure over the last 30 minutes (the document's `PercentileStats`). */
export interface PercentileStats {
  p50: number;
  p75: number;
  p90: number;
  p99: number;
}

/** One endpoint (the document's `PublicEndpoint`), keys in the order the gateway writes them. */
export interface PublicEndpoint {
  /** `<provider_name> | <model id>`. */
  name: string;
  /** The model's permaslug (`canonical_slug`). */
  model_id: string;
  model_name: string;
  /** Tokens (characters for a speech model, as its record says). */
  context_length: number;
  /** The model record's `pricing`: USD per token (per character for speech input), decimal strings. */
  pricing: ModelRecord['pricing'];
  provider_name: string;
  tag: string;
  quantization: ProviderEntry['quantization'];
  max_completion_tokens: number | null;
  max_prompt_tokens: number | null;
  supported_parameters: string[];
  /** 0: the endpoint is up (the document's `EndpointStatus`). */
  status: number;
  /** Percent of requests that succeeded over the last 30 minutes, 5 minutes and day. */
  uptime_last_30m: number;
  uptime_last_5m: number;
  uptime_last_1d: number;
  supports_implicit_caching: boolean;
  /** Which `tool_choice` values passed testing: all of them when the model takes `tool_choice`, none otherwise. */
  supports_tool_choice: { auto: boolean; none: boolean; required: boolean; function: boolean };
  /** Speech endpoints only: whether reference audio (`input_references`) is accepted: its speech entry's `input_modalities` include `audio`. */
  supports_voice_cloning?: boolean;
  /**
   * Speech-to-text endpoints only: whether the provider labels speakers (`diarize`), from its transcription entry's
   * `diarization` (the gateway's Python SDK v1.3.53 lists it on `PublicEndpoint`).
   */
  supports_diarization?: boolean;
  /** Time to the first token (first audio byte for speech, the whole transcript for speech-to-text), seconds. */
  latency_last_30m: PercentileStats;
  /** Tokens per second (input characters per second for speech, seconds of audio per second for speech-to-text). */
  throughput_last_30m: PercentileStats;
}

/** The `data` of a `listEndpoints` answer. */
export interface ModelEndpoints {
  id: string;
  name: string;
  /** Unix seconds. */
  created: number;
  description: string;
  /** The record's `architecture`, with `tokenizer` and `instruct_type` null when it has none. */
  architecture: Omit<ModelRecord['architecture'], 'tokenizer' | 'instruct_type'> & { tokenizer: string | null; instruct_type: string | null };
  endpoints: PublicEndpoint[];
}

/** Rounds to `digits` decimal places. */
function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * Seeded percentiles: p50 in `[min, max)`, then each next percentile `1 + spread` to `1 + 2 × spread` times the
 * previous one (`rising`) or divided by that (`falling`).
 */
function percentiles(seed: number, [min, max]: readonly [number, number], spread: number, rising: boolean, digits: number): PercentileStats {
  const steps = [0, 1, 2, 3].map((i) => unitFloat(seed, i));
  const p50 = min + (max - min) * steps[0]!;
  const values = [p50];
  for (let i = 1; i < 4; i++) {
    const factor = 1 + spread * (1 + steps[i]!) * i;
    values.push(rising ? values[i - 1]! * factor : values[i - 1]! / factor);
  }
  const [a, b, c, d] = values.map((v) => round(v, digits)) as [number, number, number, number];
  return { p50: a, p75: b, p90: c, p99: d };
}

/**
 * Ranges the seeded measures are drawn from: speech endpoints answer faster and count characters; speech-to-text
 * endpoints answer once the whole clip is transcribed (0.3–1.5 s for a short clip) and count seconds of audio
 * transcribed per second of wall time (20–120: batch recognizers run far faster than real time).
 */
const RANGES = {
  text: { latencyS: [0.25, 1.2], throughput: [30, 160] },
  speech: { latencyS: [0.15, 0.6], throughput: [400, 1200] },
  transcription: { latencyS: [0.3, 1.5], throughput: [20, 120] },
} as const;

/** The endpoint of `model` at provider `entry`, its measures drawn from `seed`. */
function endpointOf(model: ResolvedModel, entry: ProviderEntry, seed: number): PublicEndpoint {
  const record = model.record;
  const speaks = model.speech !== null;
  const transcribes = model.transcription !== null;
  const ranges = speaks ? RANGES.speech : transcribes ? RANGES.transcription : RANGES.text;
  const draw = (n: number) => unitFloat(seed, n);
  const uptime = (n: number, floor: number) => round(Math.min(100, floor + (100 - floor) * (0.4 + 0.6 * draw(n))), 2);
  const tools = record.supported_parameters.includes('tool_choice');
  return {
    name: `${entry.provider_name} | ${record.id}`,
    model_id: record.canonical_slug,
    model_name: record.name,
    context_length: record.context_length ?? record.top_provider.context_length ?? 0,
    pricing: { ...record.pricing },
    provider_name: entry.provider_name,
    tag: entry.tag,
    quantization: entry.quantization,
    max_completion_tokens: entry.max_completion_tokens ?? record.top_provider.max_completion_tokens ?? null,
    max_prompt_tokens: null,
    supported_parameters: [...record.supported_parameters],
    status: 0,
    uptime_last_30m: uptime(10, 97),
    uptime_last_5m: uptime(11, 95),
    uptime_last_1d: uptime(12, 98),
    supports_implicit_caching: entry.supports_implicit_caching ?? false,
    supports_tool_choice: { auto: tools, none: tools, required: tools, function: tools },
    ...(speaks ? { supports_voice_cloning: model.speech?.input_modalities?.includes('audio') === true } : {}),
    ...(transcribes ? { supports_diarization: model.transcription?.diarization === true } : {}),
    latency_last_30m: percentiles(seed ^ 0x1a7e, ranges.latencyS, 0.15, true, 3),
    throughput_last_30m: percentiles(seed ^ 0x7b9, ranges.throughput, 0.12, false, 1),
  };
}

/**
 * The `data` of `listEndpoints` for `model` (its record, alias or variant included) served by `providers`.
 *
 * @param seed the gateway's seed; the measures of one endpoint depend only on it, the base model id and the
 *   provider's tag.
 */
export function modelEndpoints(model: ResolvedModel, providers: readonly ProviderEntry[], seed: number): ModelEndpoints {
  const { record } = model;
  return {
    id: record.id,
    name: record.name,
    created: record.created,
    description: record.description ?? '',
    architecture: { ...record.architecture, tokenizer: record.architecture.tokenizer ?? null, instruct_type: record.architecture.instruct_type ?? null },
    endpoints: providers.map((entry) => endpointOf(model, entry, seed ^ hashString(`${model.baseId}\u0000${entry.tag}`))),
  };
}

/**
 * The best recent figures of a model over its endpoints, for `getModels`' `sort`: the lowest latency p50
 * (seconds) and the highest throughput p50.
 */
export function bestPerformance(model: ResolvedModel, providers: readonly ProviderEntry[], seed: number): { latencyS: number; throughput: number } {
  const endpoints = modelEndpoints(model, providers, seed).endpoints;
  return {
    latencyS: Math.min(...endpoints.map((e) => e.latency_last_30m.p50)),
    throughput: Math.max(...endpoints.map((e) => e.throughput_last_30m.p50)),
  };
}
