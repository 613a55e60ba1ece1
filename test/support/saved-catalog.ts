/**
 * A generator of large saved catalogs in the real shape: the gateway's answer to
 * `GET /api/v1/models?output_modalities=all` (`{"data": [<Model record>, ...]}`), for the tests of `--fixtures`
 * with a saved catalog (`test/recorded-folder.test.ts`) and for timings. Deterministic: the same count gives the
 * same records. Authors, modalities and prices vary; every 10th model outputs speech and carries
 * `supported_voices`; every 7th record has fields the schema does not know; every 25th base model is followed by
 * its `:free` variant listed as a model of its own, as the real list does.
 *
 * @module
 */
import type { ModelRecord } from '../../src/core/formats/fixture-schema.js';

const AUTHORS = [
  ['openai', 'OpenAI'],
  ['anthropic', 'Anthropic'],
  ['google', 'Google'],
  ['meta-llama', 'Meta'],
  ['mistralai', 'Mistral'],
  ['qwen', 'Qwen'],
  ['deepseek', 'DeepSeek'],
  ['x-ai', 'xAI'],
  ['cohere', 'Cohere'],
  ['nvidia', 'NVIDIA'],
  ['microsoft', 'Microsoft'],
  ['hexgrad', 'Hexgrad'],
] as const;

/** Authors of the speech models, in turn (Google's TTS is PCM only). */
const SPEECH_AUTHORS = [
  ['openai', 'OpenAI'],
  ['google', 'Google'],
  ['mistralai', 'Mistral'],
  ['x-ai', 'xAI'],
  ['hexgrad', 'Hexgrad'],
] as const;

const VOICES = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'Kore', 'Puck', 'af_bella'];

/** `n` priced as a decimal string of USD per token, without exponent (`0.0000025`). */
function price(n: number): string {
  return n === 0 ? '0' : (n / 1e7).toFixed(10).replace(/0+$/, '').replace(/\.$/, '');
}

/** The i-th generated base record. */
function recordAt(i: number): ModelRecord {
  const speech = i % 10 === 3;
  const [author, display] = speech ? SPEECH_AUTHORS[Math.floor(i / 10) % SPEECH_AUTHORS.length]! : AUTHORS[i % AUTHORS.length]!;
  const image = !speech && i % 6 === 1;
  const embeddings = !speech && i % 11 === 5;
  const slug = speech ? `tts-${i}` : embeddings ? `embed-${i}` : `model-${i}`;
  const id = `${author}/${slug}`;
  const input = speech ? ['text'] : i % 4 === 0 ? ['text', 'image'] : i % 9 === 0 ? ['text', 'image', 'file', 'audio'] : ['text'];
  const output = speech ? ['speech'] : embeddings ? ['embeddings'] : image ? ['image', 'text'] : ['text'];
  const context = speech ? null : 4096 * (1 + (i % 64));
  const record: Record<string, unknown> = {
    id,
    canonical_slug: `${id}-20${String(20 + (i % 6))}0101`,
    hugging_face_id: i % 3 === 0 ? `${display}/${slug}` : null,
    name: `${display}: ${speech ? 'Voice' : 'Model'} ${i}`,
    created: 1_700_000_000 + i * 86_400,
    description: `Generated model ${i} for tests.`,
    context_length: context,
    architecture: {
      modality: `${input.join('+')}->${output.join('+')}`,
      input_modalities: input,
      output_modalities: output,
      tokenizer: speech ? 'Other' : 'GPT',
      instruct_type: null,
    },
    pricing: { prompt: price(speech ? 8 + (i % 150) : i % 13 === 0 ? 0 : 1 + ((i * 37) % 600)), completion: price(speech || embeddings ? 0 : (i * 53) % 1500) },
    top_provider: { context_length: context, max_completion_tokens: speech ? null : 1024 * (1 + (i % 16)), is_moderated: i % 5 === 0 },
    per_request_limits: null,
    supported_parameters: speech ? ['response_format'] : ['max_tokens', 'temperature', 'top_p', ...(i % 2 === 0 ? ['tools', 'tool_choice'] : [])],
    default_parameters: speech ? null : { temperature: null, top_p: null, frequency_penalty: null },
    supported_voices: speech ? VOICES.slice(i % 5, (i % 5) + 3 + (i % 4)) : null,
    knowledge_cutoff: null,
    expiration_date: null,
    links: { details: `/api/v1/models/${id}/endpoints` },
  };
  if (i % 8 === 0 && !speech) (record['pricing'] as Record<string, string>)['input_cache_read'] = price(i % 40);
  if (i % 7 === 0) {
    record['newly_added_field'] = { since: '2026-11', values: [i, 'x'] };
    (record['top_provider'] as Record<string, unknown>)['unknown_top_provider_field'] = true;
  }
  return record as ModelRecord;
}

/** The `:free` variant of `base`, as the real list lists it: its own id, prices 0. */
function freeOf(base: ModelRecord): ModelRecord {
  const id = `${base.id}:free`;
  return {
    ...base,
    id,
    name: `${base.name} (free)`,
    pricing: { prompt: '0', completion: '0' },
    links: { details: `/api/v1/models/${id}/endpoints` },
  };
}

/**
 * A saved `getModels` answer of `count` base records (plus the `:free` variants of every 25th), as the file
 * would hold it: `{"data": [...]}`.
 */
export function savedCatalog(count: number): { data: ModelRecord[] } {
  const data: ModelRecord[] = [];
  for (let i = 0; i < count; i++) {
    const record = recordAt(i);
    data.push(record);
    if (i % 25 === 0 && !record.architecture.output_modalities.includes('speech')) data.push(freeOf(record));
  }
  return { data };
}
