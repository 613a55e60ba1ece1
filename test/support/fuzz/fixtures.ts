/**
 * What the fixtures say, as the reference model and the generators need it: the speech models (voices, formats,
 * input limits), every model id the lookup knows, and the generation records there are. Read once at import
 * with the project's own loader (`loadFixtures` of `src/node-platform/fixtures.ts`).
 *
 * @module
 */
import { loadFixtures } from '../../../src/node-platform/fixtures.js';
import { VARIANTS } from '../../../src/core/catalog/variants.js';

const fixtures = loadFixtures();

/** A speech model as the reference model sees it (docs/api.md "Speech, `POST /api/v1/audio/speech`"). */
export interface SpeechModel {
  id: string;
  /** The voices it lists, or `null` when it takes any voice id. */
  voices: readonly string[] | null;
  /** `response_format` values it accepts (`mp3`, `pcm`). */
  formats: readonly string[];
  /** Longest `input` it accepts, in code points. */
  maxChars: number;
  /** The `speed` range it honors, or `null` when it ignores `speed`. */
  speed: { min: number; max: number } | null;
  /** Whether a non-default `speed` is refused where it has no range (`speed_refusal`: Gemini TTS), rather than ignored. */
  speedRefusal: boolean;
  /** Whether `input` may be a list of turns (`multi_speaker`). */
  multiSpeaker: boolean;
  /** What `input_references` may carry: `audio` (reference clips), `image` (voice design); its speech entry's `input_modalities`. */
  inputs: readonly string[];
  /**
   * The data policy of each provider serving it (`providers` of models.json; a provider that states none, or a model
   * without an entry, counts as retaining and training).
   */
  policies: readonly { zdr: boolean; training: boolean }[];
}

/** Every model with a speech fixture and the `speech` output modality. */
export const speechModels: SpeechModel[] = fixtures.models
  .filter((m) => fixtures.speech[m.id] && m.architecture.output_modalities.includes('speech'))
  .map((m) => ({
    id: m.id,
    voices: m.supported_voices,
    formats: fixtures.speech[m.id]!.response_formats,
    maxChars: fixtures.speech[m.id]!.max_input_chars,
    speed: fixtures.speech[m.id]!.speed_range ?? (fixtures.speech[m.id]!.supports_speed === true ? { min: 0.25, max: 4 } : null),
    speedRefusal: fixtures.speech[m.id]!.speed_refusal === true,
    multiSpeaker: fixtures.speech[m.id]!.multi_speaker === true,
    inputs: fixtures.speech[m.id]!.input_modalities ?? [],
    policies: (Object.hasOwn(fixtures.providers ?? {}, m.id) ? fixtures.providers![m.id]! : [{}]).map((p) => ('data_policy' in p && p.data_policy ? p.data_policy : { zdr: false, training: true })),
  }));
/** {@link speechModels} by id. */
export const speechById = new Map(speechModels.map((m) => [m.id, m]));
/** The ids of every model record. */
export const baseIds = fixtures.models.map((m) => m.id);
/** A base model as the discovery reads (`getModels`, `listModelsCount`) filter it. */
export interface CatalogModel {
  id: string;
  /** `architecture.output_modalities`. */
  outputs: readonly string[];
  /** `context_length` (tokens), or `null`. */
  context: number | null;
  /** `pricing.prompt`, USD per million tokens. */
  promptPerMillion: number;
}

/** Every base model record (no variant, no alias), in the fixtures' order. */
export const catalogModels: CatalogModel[] = fixtures.models.map((m) => ({
  id: m.id,
  outputs: m.architecture.output_modalities,
  context: m.context_length,
  promptPerMillion: Number(m.pricing.prompt) * 1_000_000,
}));
/** The aliases (`anthropic/claude-3-5-sonnet`, `~openai/gpt-latest`...). */
export const aliasIds = fixtures.aliases.map((a) => a.alias);
/** Longest `max_input_chars` of any speech model, code points: an input longer than this is refused by every model. */
export const LONGEST_INPUT = Math.max(...speechModels.map((m) => m.maxChars));
/** Every voice of any speech model. */
export const ALL_VOICES = [...new Set(speechModels.flatMap((m) => m.voices ?? []))];

/** Every model id the lookup knows (`getModel`): base ids and aliases, bare or with one variant suffix. */
export const knownModelIds = new Set<string>();
for (const id of [...baseIds, ...aliasIds]) {
  knownModelIds.add(id);
  for (const variant of VARIANTS) knownModelIds.add(`${id}:${variant}`);
}

/**
 * The `data.id` of a model lookup's answer (`getModel`; docs/api.md "Model lookup"): the id asked for, except that a
 * plain alias answers with its target's record (`anthropic/claude-3-5-sonnet` → `anthropic/claude-3.5-sonnet`,
 * suffix kept); a `~` alias keeps its own id.
 */
export function answeredModelId(id: string): string {
  const colon = id.lastIndexOf(':');
  const suffixed = colon >= 0 && (VARIANTS as readonly string[]).includes(id.slice(colon + 1));
  const [name, suffix] = suffixed ? [id.slice(0, colon), id.slice(colon)] : [id, ''];
  const alias = fixtures.aliases.find((a) => a.alias === name);
  return alias && !alias.alias_target ? alias.target + suffix : id;
}

/**
 * The speech model of a (possibly suffixed) id and its variant (`createAudioSpeech` takes any known id).
 *
 * @returns `undefined` when the id is unknown, `'not-speech'` when it is known but not a speech model.
 */
export function speechModelOf(id: string): { model: SpeechModel; variant: string | null } | undefined | 'not-speech' {
  if (!knownModelIds.has(id)) return undefined;
  const colon = id.lastIndexOf(':');
  const variant = colon >= 0 && (VARIANTS as readonly string[]).includes(id.slice(colon + 1)) ? id.slice(colon + 1) : null;
  const base = variant === null ? id : id.slice(0, colon);
  const model = speechById.get(base);
  return model ? { model, variant } : 'not-speech';
}

/**
 * Ids of generation records the mock has (`getGeneration`): the fixtures' and every `X-Generation-Id` a speech
 * call returned (add them with {@link GenerationIds.add}).
 */
export class GenerationIds {
  readonly ids = new Set<string>(fixtures.generations.map((g) => g.id));
  readonly created: string[] = [];
  /** Records the id of a generation a speech call made. */
  add(id: string): void {
    if (!this.ids.has(id)) this.created.push(id);
    this.ids.add(id);
  }
  /** The id of record `n` (modulo the count) of the fixtures' records followed by the created ones. */
  pick(n: number): string {
    const all = [...fixtures.generations.map((g) => g.id), ...this.created];
    return all[n % all.length]!;
  }
}
