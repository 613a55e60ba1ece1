/**
 * Regenerates the committed fixtures: `fixtures/models.json` and `fixtures/generations.json`.
 *
 *   npm run fixtures
 *
 * The output is deterministic: a private faker instance (pinned @faker-js/faker 10.6.0, seed {@link SEED}, reference
 * date {@link REF_DATE}) and no clock, no Math.random. Running it twice gives byte-identical files; the test
 * `test/fixtures.test.ts` checks that `generateFixtures()` reproduces the committed files.
 *
 * Where `/work/shared/facts/real-gateway.md` (the facts about the real gateway) gives real values, they are written
 * here by hand: the six speech models and their voices, their pricing and context_length where given, and the real
 * `openai/gpt-4o-mini` record. The other chat models use their real public ids, names, release times, context
 * lengths and list prices as published by the gateway when this file was written (approximate; the simulator does not
 * depend on their exact values). Faker only fills what has no known value: release times of the newer speech models
 * and every random part of the generation records (id suffixes, upstream ids, token counts, latencies, ...).
 *
 * Units: model `pricing` is USD per token as a decimal string; for speech models `prompt` is USD per input
 * character and `completion` is "0". For speech models `context_length` equals the longest accepted input in
 * characters (`speech[id].max_input_chars`). Generation costs are USD, latencies milliseconds.
 *
 * Generation ids that docs and tests can cite (fixed by hand; the other ids are made from faker suffixes):
 * - `gen-1773480413-MockrouterFixture001`: chat completion, openai/gpt-4o-mini (2026-03-14T09:26:53.589+00:00)
 * - `gen-tts-1773480472-MockrouterFixtureTts`: speech, openai/gpt-4o-mini-tts-2025-12-15
 * `npm run fixtures` prints every id.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Faker, base, en } from '@faker-js/faker';
import { GenerationsFileSchema, ModelsFileSchema } from '../src/core/fixtures/schema.js';

/** faker seed of the committed fixtures. Changing it changes every faker-made value. */
export const SEED = 20260314;
/** Reference date for faker's relative dates (none are used today; set so that none can depend on the clock). */
export const REF_DATE = '2026-03-15T00:00:00.000Z';

// ---------------------------------------------------------------------------------------------------------------
// Model records

type Pricing = { prompt: string; completion: string } & Record<string, string>;
interface Reasoning {
  mandatory: boolean;
  default_enabled?: boolean;
  default_effort?: string | null;
  supported_efforts?: string[] | null;
  supports_max_tokens?: boolean;
}
type DefaultParameters = Partial<Record<'temperature' | 'top_p' | 'top_k' | 'frequency_penalty' | 'presence_penalty' | 'repetition_penalty', number | null>>;

interface ModelSpec {
  id: string;
  canonical_slug?: string;
  hugging_face_id?: string | null;
  name: string;
  created: number;
  description: string;
  context_length: number;
  max_completion_tokens: number | null;
  is_moderated: boolean;
  input: string[];
  output?: string[];
  modality?: string;
  tokenizer: string;
  instruct_type?: string | null;
  pricing: Pricing;
  supported_parameters: string[];
  default_parameters?: DefaultParameters | null;
  supported_voices?: string[] | null;
  reasoning?: Reasoning;
  knowledge_cutoff?: string | null;
  expiration_date?: string | null;
}

interface SpeechInfo {
  provider_name: string;
  response_formats: ('mp3' | 'pcm')[];
  max_input_chars: number;
}

/** Request parameter lists, sorted as the gateway sorts them. */
const PARAMS = {
  openai: ['frequency_penalty', 'logit_bias', 'logprobs', 'max_tokens', 'presence_penalty', 'response_format', 'seed', 'stop', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p'],
  openaiReasoning: ['include_reasoning', 'max_tokens', 'reasoning', 'response_format', 'seed', 'structured_outputs', 'tool_choice', 'tools'],
  anthropic: ['max_tokens', 'stop', 'temperature', 'tool_choice', 'tools', 'top_k', 'top_p'],
  anthropicReasoning: ['include_reasoning', 'max_tokens', 'reasoning', 'stop', 'temperature', 'tool_choice', 'tools', 'top_k', 'top_p'],
  google: ['include_reasoning', 'max_tokens', 'reasoning', 'response_format', 'seed', 'stop', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_p'],
  openWeights: ['frequency_penalty', 'logit_bias', 'max_tokens', 'min_p', 'presence_penalty', 'repetition_penalty', 'response_format', 'seed', 'stop', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_k', 'top_p'],
  openWeightsReasoning: ['frequency_penalty', 'include_reasoning', 'logit_bias', 'max_tokens', 'min_p', 'presence_penalty', 'reasoning', 'repetition_penalty', 'response_format', 'seed', 'stop', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_k', 'top_p'],
  xai: ['include_reasoning', 'logprobs', 'max_tokens', 'reasoning', 'response_format', 'seed', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_logprobs', 'top_p'],
  cohere: ['frequency_penalty', 'max_tokens', 'presence_penalty', 'response_format', 'seed', 'stop', 'structured_outputs', 'temperature', 'tool_choice', 'tools', 'top_k', 'top_p'],
} satisfies Record<string, string[]>;

const EFFORTS_OPENAI = ['minimal', 'low', 'medium', 'high'];
const EFFORTS_3 = ['low', 'medium', 'high'];

/** Voices of the speech models (facts: "Speech models and voices seen on the real gateway"). */
export const VOICES = {
  'openai/gpt-4o-mini-tts-2025-12-15': ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar'],
  'mistralai/voxtral-mini-tts-2603': ['en_paul_neutral', 'en_paul_happy', 'en_paul_sad', 'en_paul_excited', 'en_paul_confident', 'en_paul_cheerful', 'en_paul_angry', 'en_paul_frustrated', 'gb_oliver_neutral', 'gb_oliver_confident', 'gb_jane_neutral', 'gb_jane_confident', 'fr_marie_neutral', 'fr_marie_happy'],
  'google/gemini-3.1-flash-tts-preview': ['Zephyr', 'Puck', 'Charon', 'Kore', 'Fenrir', 'Leda', 'Orus', 'Aoede', 'Callirrhoe', 'Autonoe', 'Enceladus', 'Iapetus', 'Umbriel', 'Algieba', 'Despina', 'Erinome', 'Algenib', 'Rasalgethi', 'Laomedeia', 'Achernar', 'Alnilam', 'Schedar', 'Gacrux', 'Pulcherrima', 'Achird', 'Zubenelgenubi', 'Vindemiatrix', 'Sadachbia', 'Sadaltager', 'Sulafat'],
  'x-ai/grok-voice-tts-1.0': ['eve', 'ara', 'rex', 'sal', 'leo'],
  // The facts list af_alloy, af_bella, af_nicole, am_adam, am_michael, bf_emma, bm_lewis "and more": this is the
  // full voice list of Kokoro v1.0 (hexgrad/Kokoro-82M, VOICES.md).
  'hexgrad/kokoro-82m': [
    'af_heart', 'af_alloy', 'af_aoede', 'af_bella', 'af_jessica', 'af_kore', 'af_nicole', 'af_nova', 'af_river', 'af_sarah', 'af_sky',
    'am_adam', 'am_echo', 'am_eric', 'am_fenrir', 'am_liam', 'am_michael', 'am_onyx', 'am_puck', 'am_santa',
    'bf_alice', 'bf_emma', 'bf_isabella', 'bf_lily', 'bm_daniel', 'bm_fable', 'bm_george', 'bm_lewis',
    'jf_alpha', 'jf_gongitsune', 'jf_nezumi', 'jf_tebukuro', 'jm_kumo',
    'zf_xiaobei', 'zf_xiaoni', 'zf_xiaoxiao', 'zf_xiaoyi', 'zm_yunjian', 'zm_yunxi', 'zm_yunxia', 'zm_yunyang',
    'ef_dora', 'em_alex', 'em_santa', 'ff_siwis', 'hf_alpha', 'hf_beta', 'hm_omega', 'hm_psi',
    'if_sara', 'im_nicola', 'pf_dora', 'pm_alex', 'pm_santa',
  ],
  'canopylabs/orpheus-3b-0.1-ft': ['tara', 'leah', 'jess', 'leo', 'dan', 'mia', 'zac'],
} as const satisfies Record<string, readonly string[]>;

/** `speech` entries of models.json: upstream provider, accepted formats (Gemini TTS: pcm only), longest input. */
export const SPEECH: Record<keyof typeof VOICES, SpeechInfo> = {
  'openai/gpt-4o-mini-tts-2025-12-15': { provider_name: 'OpenAI', response_formats: ['mp3', 'pcm'], max_input_chars: 4096 },
  'mistralai/voxtral-mini-tts-2603': { provider_name: 'Mistral', response_formats: ['mp3', 'pcm'], max_input_chars: 5000 },
  'google/gemini-3.1-flash-tts-preview': { provider_name: 'Google AI Studio', response_formats: ['pcm'], max_input_chars: 8000 },
  'x-ai/grok-voice-tts-1.0': { provider_name: 'xAI', response_formats: ['mp3', 'pcm'], max_input_chars: 15000 },
  'hexgrad/kokoro-82m': { provider_name: 'DeepInfra', response_formats: ['mp3', 'pcm'], max_input_chars: 5000 },
  'canopylabs/orpheus-3b-0.1-ft': { provider_name: 'BaseTen', response_formats: ['mp3', 'pcm'], max_input_chars: 4000 },
};

/** Aliases: the dotted-name alias of the facts, and `~author/family-latest` aliases (with `alias_target`). */
export const ALIASES = [
  { alias: 'anthropic/claude-3-5-sonnet', target: 'anthropic/claude-3.5-sonnet' },
  { alias: 'anthropic/claude-3-5-haiku', target: 'anthropic/claude-3.5-haiku' },
  { alias: '~anthropic/claude-sonnet-latest', target: 'anthropic/claude-sonnet-4.5', alias_target: true },
  { alias: '~google/gemini-flash-latest', target: 'google/gemini-2.5-flash', alias_target: true },
  { alias: '~openai/gpt-latest', target: 'openai/gpt-5', alias_target: true },
];

function unix(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** Chat and embedding models (hand-written; real ids, names and list prices). */
function chatModels(): ModelSpec[] {
  return [
    {
      // The real record of the facts file ("A real chat model record (older field set)").
      id: 'openai/gpt-4o-mini',
      hugging_face_id: null,
      name: 'OpenAI: GPT-4o-mini',
      created: 1721260800,
      description:
        "GPT-4o mini is OpenAI's small multimodal model after GPT-4 Omni, accepting text and image inputs with text outputs. It is much cheaper than earlier frontier models and scores 82% on MMLU.",
      context_length: 128000,
      max_completion_tokens: 16384,
      is_moderated: true,
      input: ['text', 'image', 'file'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.00000015', completion: '0.0000006', request: '0', image: '0.000217' },
      supported_parameters: PARAMS.openai,
    },
    {
      id: 'openai/gpt-4o',
      name: 'OpenAI: GPT-4o',
      created: 1715558400,
      description:
        'GPT-4o ("o" for "omni") is OpenAI\'s multimodal flagship of 2024, taking text and image inputs with text outputs. It matches GPT-4 Turbo on English text and code while being faster and cheaper.',
      context_length: 128000,
      max_completion_tokens: 16384,
      is_moderated: true,
      input: ['text', 'image', 'file'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.0000025', completion: '0.00001', request: '0', image: '0.003613', input_cache_read: '0.00000125' },
      supported_parameters: PARAMS.openai,
      knowledge_cutoff: '2023-10-01',
    },
    {
      id: 'openai/gpt-4.1',
      canonical_slug: 'openai/gpt-4.1-2025-04-14',
      name: 'OpenAI: GPT-4.1',
      created: 1744651385,
      description:
        'GPT-4.1 is a flagship model for advanced instruction following, software engineering and long-context reasoning, with a one-million-token context window.',
      context_length: 1047576,
      max_completion_tokens: 32768,
      is_moderated: true,
      input: ['image', 'text', 'file'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.000002', completion: '0.000008', request: '0', image: '0', input_cache_read: '0.0000005' },
      supported_parameters: PARAMS.openai,
      knowledge_cutoff: '2024-06-01',
    },
    {
      id: 'openai/gpt-4.1-mini',
      canonical_slug: 'openai/gpt-4.1-mini-2025-04-14',
      name: 'OpenAI: GPT-4.1 Mini',
      created: 1744651381,
      description:
        'GPT-4.1 Mini is a mid-sized model with performance close to GPT-4o at much lower latency and cost, keeping the one-million-token context window of GPT-4.1.',
      context_length: 1047576,
      max_completion_tokens: 32768,
      is_moderated: true,
      input: ['image', 'text', 'file'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.0000004', completion: '0.0000016', request: '0', image: '0', input_cache_read: '0.0000001' },
      supported_parameters: PARAMS.openai,
      knowledge_cutoff: '2024-06-01',
    },
    {
      id: 'openai/gpt-5',
      canonical_slug: 'openai/gpt-5-2025-08-07',
      name: 'OpenAI: GPT-5',
      created: 1754587413,
      description:
        "GPT-5 is OpenAI's reasoning model for coding, agentic workflows and long multi-step tasks. Reasoning effort is adjustable from minimal to high.",
      context_length: 400000,
      max_completion_tokens: 128000,
      is_moderated: true,
      input: ['text', 'image', 'file'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.00000125', completion: '0.00001', request: '0', image: '0', web_search: '0.01', input_cache_read: '0.000000125' },
      supported_parameters: PARAMS.openaiReasoning,
      reasoning: { mandatory: true, default_enabled: true, default_effort: 'medium', supported_efforts: EFFORTS_OPENAI, supports_max_tokens: false },
      knowledge_cutoff: '2024-09-30',
    },
    {
      id: 'openai/gpt-oss-120b',
      hugging_face_id: 'openai/gpt-oss-120b',
      name: 'OpenAI: gpt-oss-120b',
      created: 1754414231,
      description:
        'gpt-oss-120b is an open-weight 117B-parameter Mixture-of-Experts model from OpenAI for high-reasoning, agentic and general-purpose use, activating 5.1B parameters per forward pass.',
      context_length: 131072,
      max_completion_tokens: 32768,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.00000005', completion: '0.00000025' },
      supported_parameters: PARAMS.openWeightsReasoning,
      default_parameters: { temperature: 1, top_p: 1 },
      reasoning: { mandatory: true, default_enabled: true, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: false },
    },
    {
      id: 'openai/text-embedding-3-small',
      name: 'OpenAI: Text Embedding 3 Small',
      created: 1706140800,
      description:
        'text-embedding-3-small is a small, efficient embedding model with 1536-dimensional output, for search, clustering and retrieval.',
      context_length: 8192,
      max_completion_tokens: null,
      is_moderated: false,
      input: ['text'],
      output: ['embeddings'],
      tokenizer: 'GPT',
      pricing: { prompt: '0.00000002', completion: '0' },
      supported_parameters: [],
    },
    {
      id: 'anthropic/claude-3.5-sonnet',
      name: 'Anthropic: Claude 3.5 Sonnet',
      created: 1729555200,
      description:
        'Claude 3.5 Sonnet (October 2024) delivers better-than-Opus capabilities at Sonnet speed and price, and is particularly strong at coding, data science, visual processing and agentic tasks.',
      context_length: 200000,
      max_completion_tokens: 8192,
      is_moderated: true,
      input: ['text', 'image', 'file'],
      tokenizer: 'Claude',
      pricing: { prompt: '0.000003', completion: '0.000015', request: '0', image: '0.0048', input_cache_read: '0.0000003', input_cache_write: '0.00000375' },
      supported_parameters: PARAMS.anthropic,
      knowledge_cutoff: '2024-04-01',
      expiration_date: '2025-10-22',
    },
    {
      id: 'anthropic/claude-3.5-haiku',
      name: 'Anthropic: Claude 3.5 Haiku',
      created: 1730678400,
      description:
        'Claude 3.5 Haiku is the fastest model of the Claude 3.5 family, with improved coding, tool use and reasoning, suited to user-facing products and sub-agent tasks.',
      context_length: 200000,
      max_completion_tokens: 8192,
      is_moderated: true,
      input: ['text', 'image'],
      tokenizer: 'Claude',
      pricing: { prompt: '0.0000008', completion: '0.000004', request: '0', image: '0', input_cache_read: '0.00000008', input_cache_write: '0.000001' },
      supported_parameters: PARAMS.anthropic,
      knowledge_cutoff: '2024-07-01',
    },
    {
      id: 'anthropic/claude-sonnet-4',
      canonical_slug: 'anthropic/claude-4-sonnet-20250522',
      name: 'Anthropic: Claude Sonnet 4',
      created: 1747930371,
      description:
        'Claude Sonnet 4 improves on Sonnet 3.7 in coding and reasoning with more precise instruction following, and supports extended thinking with a configurable budget.',
      context_length: 1000000,
      max_completion_tokens: 64000,
      is_moderated: true,
      input: ['image', 'text', 'file'],
      tokenizer: 'Claude',
      pricing: { prompt: '0.000003', completion: '0.000015', request: '0', image: '0.0048', input_cache_read: '0.0000003', input_cache_write: '0.00000375' },
      supported_parameters: PARAMS.anthropicReasoning,
      reasoning: { mandatory: false, default_enabled: false, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: true },
      knowledge_cutoff: '2025-03-01',
    },
    {
      id: 'anthropic/claude-sonnet-4.5',
      canonical_slug: 'anthropic/claude-4.5-sonnet-20250929',
      name: 'Anthropic: Claude Sonnet 4.5',
      created: 1759161676,
      description:
        "Claude Sonnet 4.5 is Anthropic's most capable Sonnet model, tuned for real-world agents and coding, long-running multi-step tasks and computer use, with optional extended thinking.",
      context_length: 1000000,
      max_completion_tokens: 64000,
      is_moderated: true,
      input: ['text', 'image', 'file'],
      tokenizer: 'Claude',
      pricing: { prompt: '0.000003', completion: '0.000015', request: '0', image: '0.0048', input_cache_read: '0.0000003', input_cache_write: '0.00000375' },
      supported_parameters: PARAMS.anthropicReasoning,
      reasoning: { mandatory: false, default_enabled: false, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: true },
      knowledge_cutoff: '2025-01-31',
    },
    {
      id: 'anthropic/claude-opus-4.1',
      canonical_slug: 'anthropic/claude-4.1-opus-20250805',
      name: 'Anthropic: Claude Opus 4.1',
      created: 1754411591,
      description:
        'Claude Opus 4.1 is an update to Anthropic\'s flagship model with better coding, reasoning and agentic performance, reaching 74.5% on SWE-bench Verified.',
      context_length: 200000,
      max_completion_tokens: 32000,
      is_moderated: true,
      input: ['image', 'text', 'file'],
      tokenizer: 'Claude',
      pricing: { prompt: '0.000015', completion: '0.000075', request: '0', image: '0.024', input_cache_read: '0.0000015', input_cache_write: '0.00001875' },
      supported_parameters: PARAMS.anthropicReasoning,
      reasoning: { mandatory: false, default_enabled: false, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: true },
      knowledge_cutoff: '2025-03-01',
    },
    {
      id: 'google/gemini-2.5-flash',
      name: 'Google: Gemini 2.5 Flash',
      created: 1750172488,
      description:
        "Gemini 2.5 Flash is Google's workhorse model for reasoning, coding, mathematics and science, with built-in thinking that can be budgeted or turned off.",
      context_length: 1048576,
      max_completion_tokens: 65535,
      is_moderated: false,
      input: ['file', 'image', 'text', 'audio', 'video'],
      tokenizer: 'Gemini',
      pricing: { prompt: '0.0000003', completion: '0.0000025', request: '0', image: '0.001238', audio: '0.000001', internal_reasoning: '0', input_cache_read: '0.00000003', input_cache_write: '0.0000003833' },
      supported_parameters: PARAMS.google,
      reasoning: { mandatory: false, default_enabled: true, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: true },
      knowledge_cutoff: '2025-01-31',
    },
    {
      id: 'google/gemini-2.5-pro',
      name: 'Google: Gemini 2.5 Pro',
      created: 1750169544,
      description:
        "Gemini 2.5 Pro is Google's state-of-the-art model for advanced reasoning, coding, mathematics and scientific tasks; it always thinks before it answers.",
      context_length: 1048576,
      max_completion_tokens: 65536,
      is_moderated: false,
      input: ['file', 'image', 'text', 'audio'],
      tokenizer: 'Gemini',
      pricing: { prompt: '0.00000125', completion: '0.00001', request: '0', image: '0.00516', internal_reasoning: '0', input_cache_read: '0.00000031', input_cache_write: '0.000001625' },
      supported_parameters: PARAMS.google,
      reasoning: { mandatory: true, default_enabled: true, default_effort: 'medium', supported_efforts: EFFORTS_3, supports_max_tokens: true },
      knowledge_cutoff: '2025-01-31',
    },
    {
      id: 'google/gemma-3-27b-it',
      hugging_face_id: 'google/gemma-3-27b-it',
      name: 'Google: Gemma 3 27B',
      created: 1741756359,
      description:
        "Gemma 3 27B is Google's open multimodal model with vision-language input, a 128k context window, support for over 140 languages and function calling.",
      context_length: 131072,
      max_completion_tokens: 16384,
      is_moderated: false,
      input: ['text', 'image'],
      tokenizer: 'Gemma',
      instruct_type: 'gemma',
      pricing: { prompt: '0.00000009', completion: '0.00000017' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 1, top_p: 0.95, top_k: 64 },
    },
    {
      id: 'meta-llama/llama-3.3-70b-instruct',
      hugging_face_id: 'meta-llama/Llama-3.3-70B-Instruct',
      name: 'Meta: Llama 3.3 70B Instruct',
      created: 1733506137,
      description:
        'Llama 3.3 70B is a multilingual instruction-tuned model optimized for dialogue, outperforming many open and closed chat models on common industry benchmarks.',
      context_length: 131072,
      max_completion_tokens: 16384,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Llama3',
      instruct_type: 'llama3',
      pricing: { prompt: '0.00000013', completion: '0.00000039' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: null, top_p: null, frequency_penalty: null },
      knowledge_cutoff: '2023-12-01',
    },
    {
      id: 'meta-llama/llama-3.1-8b-instruct',
      hugging_face_id: 'meta-llama/Meta-Llama-3.1-8B-Instruct',
      name: 'Meta: Llama 3.1 8B Instruct',
      created: 1721692800,
      description:
        "Llama 3.1 8B Instruct is a fast, efficient member of Meta's Llama 3.1 family, strong in human evaluations against leading closed models of its size.",
      context_length: 131072,
      max_completion_tokens: 8192,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Llama3',
      instruct_type: 'llama3',
      pricing: { prompt: '0.00000002', completion: '0.00000003' },
      supported_parameters: PARAMS.openWeights,
      knowledge_cutoff: '2023-12-01',
    },
    {
      id: 'meta-llama/llama-4-maverick',
      hugging_face_id: 'meta-llama/Llama-4-Maverick-17B-128E-Instruct',
      name: 'Meta: Llama 4 Maverick',
      created: 1743881822,
      description:
        'Llama 4 Maverick 17B Instruct (128E) is a multimodal Mixture-of-Experts model from Meta with 17B active parameters, accepting text and images and answering in text.',
      context_length: 1048576,
      max_completion_tokens: 16384,
      is_moderated: false,
      input: ['text', 'image'],
      tokenizer: 'Llama4',
      pricing: { prompt: '0.00000015', completion: '0.0000006', image: '0.0006684' },
      supported_parameters: PARAMS.openWeights,
      knowledge_cutoff: '2024-08-01',
    },
    {
      id: 'mistralai/mistral-large-2411',
      hugging_face_id: 'mistralai/Mistral-Large-Instruct-2411',
      name: 'Mistral Large 2411',
      created: 1731978415,
      description:
        'Mistral Large 2411 is an update of Mistral Large 2 with better long-context understanding, a new system prompt and more accurate function calling.',
      context_length: 131072,
      max_completion_tokens: null,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Mistral',
      pricing: { prompt: '0.000002', completion: '0.000006' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 0.3 },
    },
    {
      id: 'mistralai/mistral-small-3.2-24b-instruct',
      hugging_face_id: 'mistralai/Mistral-Small-3.2-24B-Instruct-2506',
      name: 'Mistral: Mistral Small 3.2 24B',
      created: 1750443016,
      description:
        'Mistral Small 3.2 24B improves instruction following, repetition and function calling over 3.1, and accepts image and text inputs.',
      context_length: 131072,
      max_completion_tokens: 131072,
      is_moderated: false,
      input: ['image', 'text'],
      tokenizer: 'Mistral',
      pricing: { prompt: '0.00000005', completion: '0.0000001' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 0.15 },
    },
    {
      id: 'mistralai/mistral-nemo',
      hugging_face_id: 'mistralai/Mistral-Nemo-Instruct-2407',
      name: 'Mistral: Mistral Nemo',
      created: 1721347200,
      description:
        'Mistral Nemo is a 12B model with a 128k context window built with NVIDIA, multilingual and with function calling, released under Apache 2.0.',
      context_length: 131072,
      max_completion_tokens: 16384,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Mistral',
      instruct_type: 'mistral',
      pricing: { prompt: '0.00000002', completion: '0.00000004' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 0.3 },
    },
    {
      id: 'deepseek/deepseek-chat-v3-0324',
      hugging_face_id: 'deepseek-ai/DeepSeek-V3-0324',
      name: 'DeepSeek: DeepSeek V3 0324',
      created: 1742824755,
      description:
        'DeepSeek V3 0324 is a 685B-parameter Mixture-of-Experts chat model, the March 2025 update of the flagship DeepSeek V3 family.',
      context_length: 163840,
      max_completion_tokens: 163840,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'DeepSeek',
      pricing: { prompt: '0.00000024', completion: '0.00000084', input_cache_read: '0.00000012' },
      supported_parameters: PARAMS.openWeights,
    },
    {
      id: 'deepseek/deepseek-r1',
      hugging_face_id: 'deepseek-ai/DeepSeek-R1',
      name: 'DeepSeek: R1',
      created: 1737381095,
      description:
        'DeepSeek R1 performs on par with OpenAI o1 on reasoning benchmarks, is fully open-source and shows its reasoning tokens; 671B parameters with 37B active per pass.',
      context_length: 163840,
      max_completion_tokens: 163840,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'DeepSeek',
      instruct_type: 'deepseek-r1',
      pricing: { prompt: '0.0000004', completion: '0.000002' },
      supported_parameters: PARAMS.openWeightsReasoning,
      default_parameters: { temperature: 0.6, top_p: 0.95 },
      reasoning: { mandatory: true, default_enabled: true, default_effort: null, supported_efforts: null, supports_max_tokens: false },
    },
    {
      id: 'qwen/qwen3-235b-a22b',
      canonical_slug: 'qwen/qwen3-235b-a22b-04-28',
      hugging_face_id: 'Qwen/Qwen3-235B-A22B',
      name: 'Qwen: Qwen3 235B A22B',
      created: 1745875757,
      description:
        'Qwen3 235B A22B is a Mixture-of-Experts model from Qwen that activates 22B of its 235B parameters per pass and switches between a thinking mode and a fast chat mode.',
      context_length: 131072,
      max_completion_tokens: 8192,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Qwen3',
      instruct_type: 'qwen3',
      pricing: { prompt: '0.00000013', completion: '0.0000006' },
      supported_parameters: PARAMS.openWeightsReasoning,
      default_parameters: { temperature: 0.6, top_p: 0.95, top_k: 20 },
      reasoning: { mandatory: false, default_enabled: true, default_effort: null, supported_efforts: null, supports_max_tokens: true },
    },
    {
      id: 'qwen/qwen-2.5-72b-instruct',
      hugging_face_id: 'Qwen/Qwen2.5-72B-Instruct',
      name: 'Qwen2.5 72B Instruct',
      created: 1726704000,
      description:
        'Qwen2.5 72B Instruct brings more knowledge and better coding and mathematics than Qwen2, with long-context support up to 128K tokens and output up to 8K tokens.',
      context_length: 32768,
      max_completion_tokens: 16384,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Qwen',
      instruct_type: 'chatml',
      pricing: { prompt: '0.00000007', completion: '0.00000026' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 0.7, top_p: 0.8, top_k: 20, repetition_penalty: 1.05 },
    },
    {
      id: 'x-ai/grok-4',
      canonical_slug: 'x-ai/grok-4-07-09',
      name: 'xAI: Grok 4',
      created: 1752087689,
      description:
        "Grok 4 is xAI's reasoning model with a 256k context window, parallel tool calling, structured outputs and image input. Reasoning is always on and its effort cannot be set.",
      context_length: 256000,
      max_completion_tokens: null,
      is_moderated: false,
      input: ['image', 'text', 'file'],
      tokenizer: 'Grok',
      pricing: { prompt: '0.000003', completion: '0.000015', request: '0', image: '0', web_search: '0', internal_reasoning: '0', input_cache_read: '0.00000075' },
      supported_parameters: PARAMS.xai,
      reasoning: { mandatory: true, default_enabled: true, default_effort: null, supported_efforts: null, supports_max_tokens: false },
      knowledge_cutoff: '2024-11-01',
    },
    {
      id: 'x-ai/grok-3-mini',
      name: 'xAI: Grok 3 Mini',
      created: 1749583245,
      description:
        'Grok 3 Mini is a lightweight thinking model, ideal for reasoning-heavy tasks that need little domain knowledge; its raw thinking traces are accessible.',
      context_length: 131072,
      max_completion_tokens: null,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Grok',
      pricing: { prompt: '0.0000003', completion: '0.0000005', request: '0', image: '0', web_search: '0', internal_reasoning: '0', input_cache_read: '0.000000075' },
      supported_parameters: PARAMS.xai,
      reasoning: { mandatory: false, default_enabled: true, default_effort: 'low', supported_efforts: ['low', 'high'], supports_max_tokens: false },
      knowledge_cutoff: '2024-11-01',
    },
    {
      id: 'cohere/command-r-plus-08-2024',
      name: 'Cohere: Command R+ (08-2024)',
      created: 1724976000,
      description:
        'Command R+ (08-2024) is an update of Command R+ with about 50% higher throughput and 25% lower latency, for retrieval-augmented generation and multi-step tool use.',
      context_length: 128000,
      max_completion_tokens: 4000,
      is_moderated: true,
      input: ['text'],
      tokenizer: 'Cohere',
      pricing: { prompt: '0.0000025', completion: '0.00001' },
      supported_parameters: PARAMS.cohere,
    },
    {
      id: 'moonshotai/kimi-k2',
      hugging_face_id: 'moonshotai/Kimi-K2-Instruct',
      name: 'MoonshotAI: Kimi K2 0711',
      created: 1752263252,
      description:
        'Kimi K2 Instruct is a 1-trillion-parameter Mixture-of-Experts model from Moonshot AI with 32B active parameters, optimized for agentic use, tool calling and coding.',
      context_length: 131072,
      max_completion_tokens: 131072,
      is_moderated: false,
      input: ['text'],
      tokenizer: 'Other',
      pricing: { prompt: '0.00000038', completion: '0.00000152' },
      supported_parameters: PARAMS.openWeights,
      default_parameters: { temperature: 0.6 },
    },
  ];
}

/** Speech models (facts: "Speech models and voices seen on the real gateway"). */
function speechModels(faker: Faker): ModelSpec[] {
  // Release times not known: faker picks a time inside the window in which each model appeared.
  const createdBetween = (from: string, to: string): number => Math.floor(faker.date.between({ from, to }).getTime() / 1000);
  const speech = (id: keyof typeof VOICES): Pick<ModelSpec, 'context_length' | 'max_completion_tokens' | 'input' | 'output' | 'modality' | 'supported_voices'> => ({
    context_length: SPEECH[id].max_input_chars,
    max_completion_tokens: null,
    input: ['text'],
    output: ['speech'],
    modality: 'text->speech',
    supported_voices: [...VOICES[id]],
  });
  return [
    {
      id: 'openai/gpt-4o-mini-tts-2025-12-15',
      name: 'OpenAI: GPT-4o mini TTS (2025-12-15)',
      created: unix('2025-12-15T00:00:00Z'),
      description:
        'GPT-4o mini TTS turns text into natural speech in 13 built-in voices, with steerable tone and delivery and an adjustable speaking speed. Priced per input character.',
      ...speech('openai/gpt-4o-mini-tts-2025-12-15'),
      is_moderated: true,
      tokenizer: 'GPT',
      pricing: { prompt: '0.0000006', completion: '0', request: '0' },
      supported_parameters: ['response_format', 'speed'],
    },
    {
      id: 'mistralai/voxtral-mini-tts-2603',
      name: 'Mistral: Voxtral Mini TTS 2603',
      created: createdBetween('2026-03-02T00:00:00Z', '2026-03-12T00:00:00Z'),
      description:
        "Voxtral Mini TTS is Mistral's compact text-to-speech model with expressive English, British English and French voices in several emotional styles.",
      ...speech('mistralai/voxtral-mini-tts-2603'),
      is_moderated: false,
      tokenizer: 'Mistral',
      pricing: { prompt: '0.000016', completion: '0' },
      supported_parameters: [],
    },
    {
      id: 'google/gemini-3.1-flash-tts-preview',
      name: 'Google: Gemini 3.1 Flash TTS Preview',
      created: createdBetween('2026-02-16T00:00:00Z', '2026-03-06T00:00:00Z'),
      description:
        'Gemini 3.1 Flash TTS (preview) generates controllable single-speaker speech in 30 prebuilt voices. Output is raw 24 kHz 16-bit PCM only.',
      ...speech('google/gemini-3.1-flash-tts-preview'),
      is_moderated: false,
      tokenizer: 'Gemini',
      pricing: { prompt: '0.000016', completion: '0' },
      supported_parameters: [],
    },
    {
      id: 'x-ai/grok-voice-tts-1.0',
      name: 'xAI: Grok Voice TTS 1.0',
      created: createdBetween('2026-01-12T00:00:00Z', '2026-02-10T00:00:00Z'),
      description:
        "Grok Voice TTS is xAI's speech synthesis model behind Grok's voice mode, with five expressive voices and inputs of up to 15,000 characters.",
      ...speech('x-ai/grok-voice-tts-1.0'),
      is_moderated: false,
      tokenizer: 'Grok',
      pricing: { prompt: '0.000015', completion: '0' },
      supported_parameters: [],
    },
    {
      id: 'hexgrad/kokoro-82m',
      hugging_face_id: 'hexgrad/Kokoro-82M',
      name: 'Hexgrad: Kokoro 82M',
      created: createdBetween('2025-11-03T00:00:00Z', '2025-12-19T00:00:00Z'),
      description:
        'Kokoro is an open-weight text-to-speech model with 82 million parameters that rivals much larger models in quality; Apache-licensed, with 54 voices across eight languages.',
      ...speech('hexgrad/kokoro-82m'),
      is_moderated: false,
      tokenizer: 'Other',
      pricing: { prompt: '0.0000008', completion: '0' },
      supported_parameters: ['response_format', 'seed'],
    },
    {
      id: 'canopylabs/orpheus-3b-0.1-ft',
      hugging_face_id: 'canopylabs/orpheus-3b-0.1-ft',
      name: 'Canopy Labs: Orpheus 3B 0.1 FT',
      created: createdBetween('2025-11-03T00:00:00Z', '2025-12-19T00:00:00Z'),
      description:
        'Orpheus 3B is a Llama-based speech model fine-tuned for natural, emotive English speech, with seven voices and inline emotion tags such as <laugh> and <sigh>.',
      ...speech('canopylabs/orpheus-3b-0.1-ft'),
      is_moderated: false,
      tokenizer: 'Llama3',
      pricing: { prompt: '0.0000015', completion: '0' },
      supported_parameters: ['response_format', 'seed'],
    },
  ];
}

/** `text+image->text`: inputs the gateway names in `modality` (text, image) joined by `+`, then `->`, then outputs. */
function modalityOf(spec: ModelSpec): string {
  if (spec.modality) return spec.modality;
  const order = ['text', 'image'];
  const inputs = order.filter((m) => spec.input.includes(m));
  return `${inputs.join('+')}->${(spec.output ?? ['text']).join('+')}`;
}

/** The Model record of a spec, keys in the order the gateway writes them. */
function modelRecord(spec: ModelSpec): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: spec.id,
    canonical_slug: spec.canonical_slug ?? spec.id,
    hugging_face_id: spec.hugging_face_id ?? null,
    name: spec.name,
    created: spec.created,
    description: spec.description,
    context_length: spec.context_length,
    architecture: {
      modality: modalityOf(spec),
      input_modalities: spec.input,
      output_modalities: spec.output ?? ['text'],
      tokenizer: spec.tokenizer,
      instruct_type: spec.instruct_type ?? null,
    },
    pricing: spec.pricing,
    top_provider: {
      context_length: spec.context_length,
      max_completion_tokens: spec.max_completion_tokens,
      is_moderated: spec.is_moderated,
    },
    per_request_limits: null,
    supported_parameters: spec.supported_parameters,
    default_parameters: spec.default_parameters ?? null,
    supported_voices: spec.supported_voices ?? null,
  };
  if (spec.reasoning) record.reasoning = spec.reasoning;
  record.knowledge_cutoff = spec.knowledge_cutoff ?? null;
  record.expiration_date = spec.expiration_date ?? null;
  record.links = { details: `/api/v1/models/${spec.id}/endpoints` };
  return record;
}

// ---------------------------------------------------------------------------------------------------------------
// Generation records

const USER_AGENTS = [
  'speakeasy-sdk/typescript 1.3.19 2.914.0 1.0.0 @openrouter/sdk',
  'OpenAI/JS 6.9.1',
  'OpenAI/Python 2.8.1',
  'python-httpx/0.28.1',
  'node-fetch',
];

interface GenerationInput {
  kind: 'completions' | 'embeddings' | 'tts';
  /** Fixed id; otherwise built from `at` and a faker suffix. */
  id?: string;
  model: string;
  /** Request time: unix seconds; the id carries it, created_at is this second plus `ms`. */
  at: number;
  ms?: number;
  provider: string;
  dataRegion: 'global' | 'europe' | 'us';
  tokensPrompt: number;
  tokensCompletion: number;
  reasoningTokens?: number;
  cachedTokens?: number;
  mediaPrompt?: number | null;
  searchResults?: number | null;
  webSearchEngine?: string | null;
  streamed: boolean;
  cancelled?: boolean;
  finish: string | null;
  nativeFinish?: string | null;
  byok?: boolean;
  upstreamId?: string | null;
  serviceTier?: string | null;
  router?: string | null;
  presetId?: string | null;
  appId?: number | null;
  origin?: string;
  httpReferer?: string | null;
  externalUser?: string | null;
  sessionId?: string | null;
  workspace?: boolean;
  failedAttempts?: { provider: string; status: number }[];
  latency: [number, number];
  generationTime: [number, number];
  moderated?: boolean;
}

/** USD with at most 10 decimals, without float noise. */
function usd(value: number): number {
  return Number(value.toFixed(10));
}

/** Web search with the Exa engine: USD per search result ($4 per 1000 results). */
const EXA_PRICE_PER_RESULT = 0.004;

function isoAt(seconds: number, ms: number): string {
  return new Date(seconds * 1000 + ms).toISOString().replace('Z', '+00:00');
}

function generationRecords(faker: Faker, models: Record<string, unknown>[]): Record<string, unknown>[] {
  const pricingOf = (id: string): Record<string, string> => {
    const base = id.replace(/:[a-z]+$/, '');
    const model = models.find((m) => m.id === base);
    if (!model) throw new Error(`generation refers to unknown model ${id}`);
    const pricing = { ...(model.pricing as Record<string, string>) };
    if (id.endsWith(':free')) for (const key of Object.keys(pricing)) pricing[key] = '0';
    return pricing;
  };
  const price = (pricing: Record<string, string>, key: string): number => Number(pricing[key] ?? '0');
  const alnum = (length: number): string => faker.string.alphanumeric({ length, casing: 'mixed' });
  const between = ([min, max]: [number, number]): number => faker.number.int({ min, max });

  const at0 = 1773480413; // 2026-03-14T09:26:53Z
  const t = (from: string, to: string): number => Math.floor(faker.date.between({ from, to }).getTime() / 1000);

  const inputs: GenerationInput[] = [
    {
      kind: 'completions',
      id: `gen-${at0}-MockrouterFixture001`,
      model: 'openai/gpt-4o-mini',
      at: at0,
      ms: 589,
      provider: 'OpenAI',
      dataRegion: 'global',
      tokensPrompt: 412,
      tokensCompletion: 187,
      streamed: false,
      finish: 'stop',
      upstreamId: `chatcmpl-${alnum(29)}`,
      serviceTier: 'default',
      latency: [380, 520],
      generationTime: [1400, 2100],
      moderated: true,
    },
    {
      kind: 'completions',
      model: 'anthropic/claude-sonnet-4.5',
      at: t('2026-03-02T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'Anthropic',
      dataRegion: 'europe',
      tokensPrompt: 5230,
      tokensCompletion: 2214,
      reasoningTokens: 1536,
      cachedTokens: 4096,
      streamed: true,
      finish: 'stop',
      nativeFinish: 'end_turn',
      upstreamId: `msg_01${alnum(22)}`,
      sessionId: `session-${faker.string.uuid()}`,
      externalUser: 'user-4521',
      latency: [900, 1800],
      generationTime: [18000, 31000],
      moderated: true,
    },
    {
      kind: 'completions',
      model: 'google/gemini-2.5-flash',
      at: t('2026-03-02T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'Google AI Studio',
      dataRegion: 'us',
      tokensPrompt: 1890,
      tokensCompletion: 655,
      reasoningTokens: 402,
      mediaPrompt: 1,
      streamed: true,
      finish: 'stop',
      nativeFinish: 'STOP',
      upstreamId: alnum(23),
      origin: 'https://notes.example.com/',
      httpReferer: 'https://notes.example.com/',
      appId: 482913,
      latency: [600, 1200],
      generationTime: [3500, 6200],
    },
    {
      kind: 'completions',
      model: 'meta-llama/llama-3.3-70b-instruct',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'DeepInfra',
      dataRegion: 'global',
      tokensPrompt: 2960,
      tokensCompletion: 1024,
      streamed: true,
      finish: 'length',
      nativeFinish: 'length',
      upstreamId: `chatcmpl-${alnum(24)}`,
      failedAttempts: [{ provider: 'Together', status: 429 }],
      latency: [700, 1400],
      generationTime: [9000, 14000],
    },
    {
      kind: 'completions',
      model: 'meta-llama/llama-3.3-70b-instruct:free',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'Chutes',
      dataRegion: 'global',
      tokensPrompt: 318,
      tokensCompletion: 96,
      streamed: false,
      finish: 'stop',
      nativeFinish: 'stop',
      upstreamId: `chatcmpl-${alnum(24)}`,
      latency: [1200, 2600],
      generationTime: [2800, 4200],
    },
    {
      kind: 'completions',
      model: 'deepseek/deepseek-r1',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'Fireworks',
      dataRegion: 'global',
      tokensPrompt: 740,
      tokensCompletion: 1310,
      reasoningTokens: 1180,
      streamed: true,
      cancelled: true,
      finish: null,
      nativeFinish: null,
      upstreamId: alnum(32).toLowerCase(),
      latency: [1500, 3000],
      generationTime: [12000, 20000],
    },
    {
      kind: 'completions',
      model: 'openai/gpt-4o',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'OpenAI',
      dataRegion: 'global',
      tokensPrompt: 3405,
      tokensCompletion: 512,
      searchResults: 5,
      webSearchEngine: 'exa',
      streamed: false,
      finish: 'stop',
      upstreamId: `chatcmpl-${alnum(29)}`,
      serviceTier: 'default',
      latency: [1800, 2600],
      generationTime: [5200, 7400],
      moderated: true,
    },
    {
      kind: 'completions',
      model: 'x-ai/grok-4',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'xAI',
      dataRegion: 'us',
      tokensPrompt: 2150,
      tokensCompletion: 860,
      reasoningTokens: 640,
      streamed: true,
      finish: 'tool_calls',
      nativeFinish: 'tool_calls',
      upstreamId: faker.string.uuid(),
      router: 'openrouter/auto',
      presetId: 'support-triage',
      latency: [2500, 5200],
      generationTime: [11000, 19000],
    },
    {
      kind: 'embeddings',
      model: 'openai/text-embedding-3-small',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'OpenAI',
      dataRegion: 'global',
      tokensPrompt: 2048,
      tokensCompletion: 0,
      streamed: false,
      finish: null,
      nativeFinish: null,
      upstreamId: null,
      latency: [90, 180],
      generationTime: [90, 180],
    },
    {
      kind: 'tts',
      id: `gen-tts-${at0 + 59}-MockrouterFixtureTts`,
      model: 'openai/gpt-4o-mini-tts-2025-12-15',
      at: at0 + 59,
      ms: 104,
      provider: 'OpenAI',
      dataRegion: 'global',
      tokensPrompt: 342,
      tokensCompletion: 0,
      streamed: true,
      finish: null,
      upstreamId: null,
      latency: [250, 420],
      generationTime: [2200, 3400],
      moderated: true,
    },
    {
      kind: 'tts',
      model: 'x-ai/grok-voice-tts-1.0',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'xAI',
      dataRegion: 'us',
      tokensPrompt: 1280,
      tokensCompletion: 0,
      streamed: true,
      finish: null,
      upstreamId: null,
      latency: [300, 650],
      generationTime: [6000, 9000],
    },
    {
      kind: 'tts',
      model: 'hexgrad/kokoro-82m',
      at: t('2026-02-20T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'DeepInfra',
      dataRegion: 'global',
      tokensPrompt: 2675,
      tokensCompletion: 0,
      streamed: true,
      finish: null,
      byok: true,
      upstreamId: null,
      latency: [150, 300],
      generationTime: [1800, 2600],
    },
    {
      kind: 'tts',
      model: 'google/gemini-3.1-flash-tts-preview',
      at: t('2026-03-06T08:00:00Z', '2026-03-13T20:00:00Z'),
      provider: 'Google AI Studio',
      dataRegion: 'europe',
      tokensPrompt: 960,
      tokensCompletion: 0,
      streamed: true,
      finish: null,
      upstreamId: null,
      workspace: false,
      latency: [700, 1300],
      generationTime: [4000, 6500],
    },
  ];

  const workspaceId = faker.string.uuid();
  return inputs.map((g) => {
    const pricing = pricingOf(g.model);
    const cached = g.cachedTokens ?? 0;
    const fullCost =
      g.tokensPrompt * price(pricing, 'prompt') +
      g.tokensCompletion * price(pricing, 'completion') +
      (g.searchResults ?? 0) * EXA_PRICE_PER_RESULT;
    const discount = cached > 0 ? cached * (price(pricing, 'prompt') - price(pricing, 'input_cache_read')) : 0;
    const upstreamCost = usd(fullCost - discount);
    // BYOK: the provider bills the user's own key; the gateway charges a 5% fee.
    const charged = g.byok ? usd(upstreamCost * 0.05) : upstreamCost;
    const latency = between(g.latency);
    const generationTime = Math.max(latency, between(g.generationTime));
    const id = g.id ?? (g.kind === 'tts' ? `gen-tts-${g.at}-${alnum(20)}` : `gen-${g.at}-${alnum(20)}`);
    const ms = g.ms ?? faker.number.int({ min: 0, max: 999 });
    const userAgent = faker.helpers.arrayElement(USER_AGENTS);
    const providerResponses = [
      ...(g.failedAttempts ?? []).map((f) => ({
        provider_name: f.provider,
        status: f.status,
        latency: faker.number.int({ min: 120, max: 600 }),
        is_byok: false,
      })),
      {
        id: g.upstreamId ?? undefined,
        provider_name: g.provider,
        status: g.cancelled ? null : 200,
        latency,
        is_byok: g.byok ?? false,
      },
    ];
    const isCompletion = g.kind === 'completions';
    return {
      id,
      upstream_id: g.upstreamId ?? null,
      total_cost: charged,
      cache_discount: cached > 0 ? usd(discount) : null,
      upstream_inference_cost: g.byok ? upstreamCost : null,
      created_at: isoAt(g.at, ms),
      model: g.model,
      app_id: g.appId ?? null,
      streamed: g.streamed,
      cancelled: g.cancelled ?? false,
      provider_name: g.provider,
      latency,
      moderation_latency: g.moderated ? faker.number.int({ min: 40, max: 160 }) : null,
      generation_time: generationTime,
      finish_reason: g.finish,
      service_tier: g.serviceTier ?? null,
      tokens_prompt: g.tokensPrompt,
      tokens_completion: g.tokensCompletion,
      native_tokens_prompt: g.tokensPrompt,
      native_tokens_completion: g.tokensCompletion,
      native_tokens_completion_images: isCompletion ? 0 : null,
      native_tokens_reasoning: isCompletion ? (g.reasoningTokens ?? 0) : null,
      native_tokens_cached: isCompletion ? cached : null,
      num_media_prompt: g.mediaPrompt ?? null,
      num_input_audio_prompt: null,
      num_media_completion: null,
      num_search_results: g.searchResults ?? null,
      num_fetches: null,
      web_search_engine: g.webSearchEngine ?? null,
      origin: g.origin ?? '',
      usage: charged,
      is_byok: g.byok ?? false,
      native_finish_reason: g.nativeFinish === undefined ? g.finish : g.nativeFinish,
      external_user: g.externalUser ?? null,
      api_type: g.kind,
      preset_id: g.presetId ?? null,
      router: g.router ?? null,
      provider_responses: providerResponses.map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>),
      user_agent: userAgent,
      http_referer: g.httpReferer ?? null,
      data_region: g.dataRegion,
      workspace_id: g.workspace === false ? null : workspaceId,
      request_id: `req-${g.at}-${alnum(20)}`,
      session_id: g.sessionId ?? null,
      response_cache_source_id: null,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** The generated file contents. */
export interface GeneratedFixtures {
  /** Text of `fixtures/models.json` (pretty-printed JSON, trailing newline). */
  'models.json': string;
  /** Text of `fixtures/generations.json` (pretty-printed JSON, trailing newline). */
  'generations.json': string;
}

/**
 * Builds the fixture files. Pure and deterministic: the same output on every call (own seeded faker instance).
 *
 * @throws Error when the result does not pass the loader's schemas (a bug in this script).
 */
export function generateFixtures(): GeneratedFixtures {
  const faker = new Faker({ locale: [en, base] });
  faker.seed(SEED);
  faker.setDefaultRefDate(REF_DATE);

  const models = [...chatModels(), ...speechModels(faker)].map(modelRecord);
  const modelsFile = { models, aliases: ALIASES, speech: SPEECH };
  const generationsFile = { generations: generationRecords(faker, models) };

  ModelsFileSchema.parse(modelsFile);
  GenerationsFileSchema.parse(generationsFile);
  return {
    'models.json': `${JSON.stringify(modelsFile, null, 2)}\n`,
    'generations.json': `${JSON.stringify(generationsFile, null, 2)}\n`,
  };
}

/** The repository's `fixtures/` folder. */
export const FIXTURES_DIR = fileURLToPath(new URL('../fixtures/', import.meta.url));

function main(): void {
  const files = generateFixtures();
  mkdirSync(FIXTURES_DIR, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(FIXTURES_DIR, name), text);
  }
  const { models } = JSON.parse(files['models.json']) as { models: { id: string }[] };
  const { generations } = JSON.parse(files['generations.json']) as { generations: { id: string; api_type: string; model: string }[] };
  console.log(`wrote ${join(FIXTURES_DIR, 'models.json')} (${models.length} models)`);
  console.log(`wrote ${join(FIXTURES_DIR, 'generations.json')} (${generations.length} generations):`);
  for (const g of generations) console.log(`  ${g.id}  ${g.api_type}  ${g.model}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main();
}
