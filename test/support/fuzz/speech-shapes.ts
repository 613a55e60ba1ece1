/**
 * Generators of the speech request's newer shapes (`bodies.ts` uses them): multi-speaker `input` (a list of turns)
 * for the models that take it, `input_references` (1 to 3 reference clips, each maybe followed by its transcript
 * and named in the input as `@AudioN`, or one image) for the models that take them, `provider.zdr` and
 * `provider.data_collection`, and the mutations that break each of their rules (or, for some, keep them).
 *
 * @module
 */
import fc from 'fast-check';
import { ALL_VOICES, speechModels, type SpeechModel } from './fixtures.js';
import { anyText, maybe } from './values.js';

/** The raw material of a valid body's newer shapes, chosen before the model is known (see {@link applyShapes}). */
export interface ShapeExtras {
  /** Turns to say instead of the string input (used only for a model with multi-speaker input). */
  turns: { text: string; voice: number | null; instructions: string | null }[] | null;
  /** References (used only for a model that takes them): how many clips, which have a transcript, or an image. */
  references: { image: boolean; clips: number; transcripts: boolean[]; data: number; format: string | null; mention: number | null } | null;
  /** Which data policy to ask for, among those the model meets. */
  policy: number | null;
  /** A top-level `instructions`. */
  instructions: string | null;
}

/** Reference clip data: base64 (bare or as a data URI) or any non-empty text (the gateway checks only its length). */
const CLIP_DATA = ['UklGRiQAAABXQVZF', Buffer.from('RIFF clip').toString('base64'), 'data:audio/wav;base64,UklGRg==', 'x', '=', '😀'];
/** Images as data URLs (the scheme and the base64 marker in any case). */
const IMAGES = ['data:image/png;base64,iVBORw0KGgo=', 'data:image/jpeg;base64,', 'DATA:IMAGE/SVG+XML;BASE64,PHN2Zz4=', 'data:image/x-icon;base64,AAAB'];

/** A clip part. */
export const clip = (n: number, format: string | null = 'wav'): Record<string, unknown> => ({ type: 'input_audio', input_audio: { data: CLIP_DATA[n % CLIP_DATA.length], ...(format === null ? {} : { format }) } });
/** A transcript part. */
const transcript = (text: string) => ({ type: 'text', text });
/** An image part. */
const image = (n: number) => ({ type: 'image_url', image_url: { url: IMAGES[n % IMAGES.length] } });

/** {@link ShapeExtras}, each part present in a fraction of the runs. */
export function shapeExtras(text: fc.Arbitrary<string>): fc.Arbitrary<ShapeExtras> {
  return fc.record({
    turns: maybe(fc.array(fc.record({ text, voice: maybe(fc.nat(), 60), instructions: maybe(anyText(8), 20) }), { minLength: 1, maxLength: 4 }), 45),
    references: maybe(
      fc.record({
        image: fc.boolean(),
        clips: fc.integer({ min: 0, max: 3 }),
        transcripts: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        data: fc.nat(),
        format: maybe(fc.constantFrom('wav', 'mp3', 'pcm', '', 'anything'), 70),
        mention: maybe(fc.nat(), 50),
      }),
      60,
    ),
    policy: maybe(fc.nat(), 30),
    instructions: maybe(anyText(16), 15),
  });
}

/** The `provider` data policies `model` meets: the defaults always, `zdr`/`deny` where a provider of it meets them. */
function policiesMet(model: SpeechModel): Record<string, unknown>[] {
  const met: Record<string, unknown>[] = [{ zdr: null }, { data_collection: 'allow' }, { zdr: false, data_collection: null }];
  if (model.policies.some((p) => p.zdr)) met.push({ zdr: true });
  if (model.policies.some((p) => !p.training)) met.push({ data_collection: 'deny' });
  if (model.policies.some((p) => p.zdr && !p.training)) met.push({ zdr: true, data_collection: 'deny' });
  return met;
}

/** A voice of `model` for a turn: one of its list, else any id. */
const turnVoice = (model: SpeechModel, n: number) => (model.voices === null ? `speaker-${n % 5}` : model.voices[n % model.voices.length]!);

/**
 * Applies `extras` to a valid `body` for `model` where the model takes them, keeping it valid.
 *
 * @returns what was added, for the generator branch's name (`turns`, `clips`, `image`, `policy`).
 */
export function applyShapes(body: Record<string, unknown>, model: SpeechModel, extras: ShapeExtras): string[] {
  const tags: string[] = [];
  if (extras.turns && model.multiSpeaker) {
    body.input = extras.turns.map((turn) => ({ text: turn.text, ...(turn.voice === null ? {} : { voice: turnVoice(model, turn.voice) }), ...(turn.instructions === null ? {} : { instructions: turn.instructions }) }));
    tags.push('turns');
  }
  const refs = extras.references;
  if (refs && refs.image && model.inputs.includes('image')) {
    body.input_references = [image(refs.data)];
    tags.push('image');
  } else if (refs && model.inputs.includes('audio')) {
    const parts: Record<string, unknown>[] = [];
    for (let i = 0; i < refs.clips; i++) {
      parts.push(clip(refs.data + i, refs.format));
      if (refs.transcripts[i]) parts.push(transcript(`Clip ${i + 1}.`));
    }
    body.input_references = parts;
    if (refs.clips > 0 && refs.mention !== null) mention(body, 1 + (refs.mention % refs.clips));
    tags.push(refs.clips === 0 ? 'no-references' : 'clips');
  }
  if (extras.policy !== null) {
    const policies = policiesMet(model);
    body.provider = { ...(body.provider as Record<string, unknown> | undefined), ...policies[extras.policy % policies.length] };
    tags.push('policy');
  }
  if (extras.instructions !== null) body.instructions = extras.instructions;
  return tags;
}

/** Adds `@Audio<n>` to the input: to the string, or to the first turn's text. */
function mention(body: Record<string, unknown>, n: number | string): void {
  if (typeof body.input === 'string') body.input = `${body.input} @Audio${n}`;
  else if (Array.isArray(body.input) && body.input.length > 0) body.input = [{ ...(body.input[0] as object), text: `@Audio${n} ${(body.input[0] as { text: string }).text}` }, ...body.input.slice(1)];
  else body.input = `@Audio${n}`;
}

/** The mutations of the newer shapes {@link mutateShape} makes. */
export const SHAPE_MUTATIONS = ['turns-not-multi', 'turn-voice', 'turn-shape', 'turns-too-long', 'reference-shape', 'reference-order', 'audio-mention', 'reference-modality', 'speed-refusal', 'data-policy', 'policy-shape', 'policy-after-400'] as const;
/** One of {@link SHAPE_MUTATIONS}. */
export type ShapeMutation = (typeof SHAPE_MUTATIONS)[number];

const multiModels = speechModels.filter((m) => m.multiSpeaker);
const singleModels = speechModels.filter((m) => !m.multiSpeaker);
const referenceModels = speechModels.filter((m) => m.inputs.length > 0);
const refusingSpeed = speechModels.filter((m) => m.speedRefusal && !m.speed);

/** `b` switched to `model`, with a voice it takes and a format it has. */
function onModel(b: Record<string, unknown>, model: SpeechModel): void {
  b.model = model.id;
  b.voice = model.voices?.[0] ?? 'any-voice';
  delete b.response_format;
  delete b.speed;
}

const INVALID_TURNS: unknown[] = [[], [{}], [{ text: '' }], [{ text: 1 }], ['Hi'], [null], [[{ text: 'Hi' }]], [{ text: 'Hi', voice: '' }], [{ text: 'Hi', voice: 3 }], [{ text: 'Hi', voice: null }], [{ text: 'Hi', instructions: 5 }], [{ text: 'Hi', instructions: null }], [{ text: 'Hi' }, {}], [{ text: null }], [{ voice: 'x' }]];
const VALID_TURNS: unknown[] = [[{ text: ' ' }], [{ text: '\n' }, { text: '\u0000' }], [{ text: 'Hi', instructions: '' }], [{ text: 'Hi', extra: [1] }], [{ text: 'Hi', instructions: 'Warmly.' }, { text: 'Yes.' }]];

const INVALID_PARTS: unknown[] = [
  { type: 'input_audio' },
  { type: 'input_audio', input_audio: { data: '' } },
  { type: 'input_audio', input_audio: { data: 'AAAA', format: 1 } },
  { type: 'input_audio', input_audio: { data: 'AAAA', format: null } },
  { type: 'input_audio', input_audio: { data: 7 } },
  { type: 'input_audio', input_audio: 'AAAA' },
  { type: 'input_audio', input_audio: ['AAAA'] },
  { type: 'text' },
  { type: 'text', text: 5 },
  { type: 'text', text: 'a'.repeat(10_001) },
  { type: 'image_url' },
  { type: 'image_url', image_url: { url: 'https://example.com/face.png' } },
  { type: 'image_url', image_url: { url: 'data:text/plain;base64,AA' } },
  { type: 'image_url', image_url: { url: 'data:image/png,AA' } },
  { type: 'image_url', image_url: 'data:image/png;base64,AA' },
  { type: 'audio', input_audio: { data: 'AAAA' } },
  { type: 'INPUT_AUDIO', input_audio: { data: 'AAAA' } },
  { input_audio: { data: 'AAAA' } },
  'clip',
  null,
  [],
];
/** Reference lists of valid parts, some in a valid order. */
const ORDERS: unknown[][] = [
  [clip(0), clip(1), clip(2), clip(3)],
  [transcript('Orphan.'), clip(0)],
  [clip(0), transcript('One.'), transcript('Again.')],
  [image(0), clip(0)],
  [clip(0), image(1)],
  [image(0), image(1)],
  [image(0), transcript('A face.')],
  [transcript('Alone.')],
  [clip(0), transcript('One.'), clip(1), transcript('Two.'), clip(2), transcript('a'.repeat(10_000))],
  [clip(0, null), clip(1, ''), clip(2)],
  [image(2)],
  [],
];

/**
 * A valid `b` with one of the newer shapes' rules broken (or, for some picks, kept: a turn of one space, an image
 * alone, a transcript after its clip, `@audio1` in lower case), on a model that brings the rule into play.
 */
export function mutateShape(b: Record<string, unknown>, mutation: ShapeMutation, n: number): void {
  const pick = <T>(list: readonly T[]) => list[n % list.length]!;
  switch (mutation) {
    case 'turns-not-multi':
      onModel(b, pick(singleModels));
      b.input = [{ text: 'Hello.' }, { text: 'Hi.' }].slice(0, 1 + (n % 2));
      return;
    case 'turn-voice': {
      const model = pick(multiModels);
      onModel(b, model);
      b.input = [{ text: 'One.' }, { text: 'Two.', voice: pick([...ALL_VOICES, 'puck', 'Puck ', '', 'speaker-9']) }];
      return;
    }
    case 'turn-shape':
      onModel(b, pick(multiModels));
      b.input = n % 3 === 0 ? pick(VALID_TURNS) : pick(INVALID_TURNS);
      return;
    case 'turns-too-long': {
      const model = pick(multiModels);
      const count = 2 + (n % 3);
      onModel(b, model);
      b.input = Array.from({ length: count }, () => ({ text: 'a'.repeat(Math.ceil((model.maxChars + 1) / count)) }));
      return;
    }
    case 'reference-shape':
      b.input_references = n % 4 === 0 ? pick([{}, 'x', 1, null, [[]]]) : [clip(n), pick(INVALID_PARTS)].slice(n % 2);
      return;
    case 'reference-order':
      onModel(b, pick(referenceModels));
      b.input_references = pick(ORDERS);
      return;
    case 'audio-mention': {
      const clips = Array.isArray(b.input_references) ? b.input_references.filter((p: { type?: unknown }) => p?.type === 'input_audio').length : 0;
      mention(b, pick([0, clips + 1, clips, 1, '01', '99999999999999999999', ''].map(String)));
      if (n % 5 === 0) b.input = `${typeof b.input === 'string' ? b.input : 'Hi'} @audio1`;
      return;
    }
    case 'reference-modality': {
      const wantsImage = n % 2 === 0;
      onModel(b, pick(speechModels.filter((m) => !m.inputs.includes(wantsImage ? 'image' : 'audio'))));
      b.input = 'Hello.';
      b.input_references = wantsImage ? [image(n)] : [clip(n), transcript('One.')];
      return;
    }
    case 'speed-refusal':
      onModel(b, pick(refusingSpeed));
      b.speed = pick([0.5, 2, 0, -0, 1.0000001, 0.9999999, 1, 1e308, -1]);
      return;
    case 'data-policy':
      b.provider = { ...pick([{}, { options: {} }]), ...pick([{ zdr: true }, { data_collection: 'deny' }, { zdr: true, data_collection: 'deny' }, { zdr: false, data_collection: 'allow' }, { zdr: null, data_collection: null }]) };
      return;
    case 'policy-shape':
      b.provider = pick([{ zdr: 'yes' }, { zdr: 1 }, { zdr: 'true' }, { zdr: [] }, { data_collection: 'never' }, { data_collection: 'DENY' }, { data_collection: true }, { data_collection: 0 }, { data_collection: '' }, { zdr: true, options: [] }]);
      return;
    case 'policy-after-400':
      // A refusal of the model comes before the data policy's 404.
      b.provider = { zdr: true, data_collection: 'deny' };
      if (n % 4 === 0) delete b.voice;
      else if (n % 4 === 1) b.voice = '';
      else if (n % 4 === 2) b.input = 'a'.repeat(15_001);
      else b.speed = 1e6;
      return;
  }
}
