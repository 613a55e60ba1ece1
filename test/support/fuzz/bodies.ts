/**
 * Generators of speech request bodies (`createAudioSpeech`): valid requests, valid requests with one thing
 * wrong, random shapes, JSON that is not an object, bytes that are not JSON or not UTF-8, empty bodies, and
 * bodies around the 1 MiB limit (`MAX_BODY_BYTES`, `src/core/http/request.ts`).
 *
 * @module
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { VARIANTS } from '../../../src/core/catalog/variants.js';
import { MAX_BODY_BYTES } from '../../../src/core/http/request.js';
import { ALL_VOICES, aliasIds, baseIds, speechById, speechModels, type SpeechModel } from './fixtures.js';
import { json, utf8 } from './request.js';
import { SHAPE_MUTATIONS, applyShapes, mutateShape, shapeExtras } from './speech-shapes.js';
import { REAL_KEYS, anyChar, anyText, keyArb, longString, maybe, wild } from './values.js';

/** A generated body and the generator branch that made it (`undefined` bytes: no body at all). */
export interface Body {
  kind: string;
  bytes: Uint8Array | undefined;
}

/** The bytes of `parts` in order: strings as UTF-8, byte arrays and number lists as they are. */
const concat = (...parts: (string | Uint8Array | number[])[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(utf8.encode(p)) : Buffer.from(p instanceof Uint8Array ? p : Uint8Array.from(p)))));

/**
 * A short input: cheap to render (at most 10 code points, under a second of audio). Half come from a small pool,
 * so the audio cache answers many successes (the MP3 encoder is the slow part of a 200).
 */
const shortInput = fc.oneof(
  { arbitrary: fc.constantFrom('Hi', 'Hello.', '?', ' ', '\n', '3.14', '日本語', '😀😀', 'a\u0000b', '\ud800', '—', 'Yes, no.'), weight: 5 },
  { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }), weight: 3 },
  { arbitrary: fc.string({ unit: anyChar, minLength: 1, maxLength: 6 }), weight: 2 },
);

/**
 * Valid speech requests to one of `models` (one of its voices; short input; optional extras; for the models that
 * take them, sometimes turns, reference clips or an image, and a data policy one of its providers meets), with what
 * of the newer shapes each carries (`speech-shapes.ts`).
 */
const validSpeechOf = (models: readonly SpeechModel[]): fc.Arbitrary<{ body: Record<string, unknown>; tags: string[] }> => fc
  .record({
    model: fc.constantFrom(...models),
    variant: fc.oneof({ arbitrary: fc.constant(''), weight: 12 }, { arbitrary: fc.constantFrom(...VARIANTS).map((v) => `:${v}`), weight: 2 }),
    voiceIndex: fc.nat(),
    format: fc.oneof(fc.constant(undefined), fc.constantFrom('mp3', 'pcm')),
    input: shortInput,
    speed: maybe(fc.oneof({ arbitrary: fc.constantFrom(0.25, 4, 1, 2), weight: 3 }, { arbitrary: fc.double({ min: 0.25, max: 4, noNaN: true }), weight: 1 }), 30),
    otherSpeed: maybe(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), 15),
    sessionId: maybe(anyText(16), 25),
    user: maybe(anyText(16), 25),
    provider: maybe(fc.oneof(fc.constant({}), fc.constant({ options: {} }), fc.dictionary(anyText(8), wild, { maxKeys: 2 }).map((options) => ({ options }))), 20),
    junk: fc.dictionary(fc.oneof(fc.constantFrom('trace', 'stream', 'x', '😀', '\ud800'), anyText(6)).filter((k) => !(REAL_KEYS as readonly string[]).includes(k) && k !== '__proto__'), wild, { maxKeys: 2 }),
    extras: shapeExtras(shortInput),
  })
  .map(({ model, variant, voiceIndex, format, input, speed, otherSpeed, sessionId, user, provider, junk, extras }) => {
    const body: Record<string, unknown> = { ...junk, model: model.id + variant, input, voice: model.voices === null ? `any-voice-${voiceIndex % 7}` : model.voices[voiceIndex % model.voices.length] };
    if (format !== undefined && model.formats.includes(format)) body.response_format = format;
    // In its range where the model has one; any number where it ignores speed; only 1 where it refuses the others.
    if (model.speed && speed !== null) body.speed = Math.min(model.speed.max, Math.max(model.speed.min, speed));
    if (!model.speed && otherSpeed !== null) body.speed = model.speedRefusal ? 1 : otherSpeed;
    if (sessionId !== null) body.session_id = sessionId;
    if (user !== null) body.user = user;
    if (provider !== null) body.provider = provider;
    return { body, tags: applyShapes(body, model, extras) };
  });

/** A valid speech request to any speech model, and what of the newer shapes it carries. */
const taggedValidSpeech = validSpeechOf(speechModels);
/** A valid speech request (see {@link validSpeechOf}). */
export const validSpeech: fc.Arbitrary<Record<string, unknown>> = taggedValidSpeech.map(({ body }) => body);
/** A valid speech request to a model that takes turns or references, as a body named `valid+<shapes>`. */
const shapedValidSpeech: fc.Arbitrary<Body> = validSpeechOf(speechModels.filter((m) => m.multiSpeaker || m.inputs.length > 0)).map(({ body, tags }) => ({ kind: ['valid', ...tags].join('+'), bytes: json(body) }));

/** A valid request with one thing wrong (or, for some mutations, still right: e.g. BOM, whitespace). */
const nearlyValidSpeech: fc.Arbitrary<Body> = fc
  .tuple(
    validSpeech,
    fc.constantFrom(
      'drop-model',
      'drop-input',
      'drop-voice',
      'wrong-type',
      'empty-string',
      'wrong-voice',
      'wrong-format',
      'speed-range',
      'speed-literal',
      'too-long',
      'not-speech-model',
      'unknown-model',
      'null-optional',
      'provider-shape',
      'bom',
      'whitespace',
      'invalid-utf8',
      'truncated',
      'trailing-garbage',
      'utf16',
      'gzip',
      'duplicate-keys',
      ...SHAPE_MUTATIONS,
    ),
    fc.nat(),
    wild,
  )
  .map(([body, mutation, n, value]): Body => {
    const b = { ...body };
    const pick = <T>(list: readonly T[]) => list[n % list.length]!;
    const text = () => JSON.stringify(b);
    switch (mutation) {
      case 'drop-model':
      case 'drop-input':
      case 'drop-voice':
        delete b[mutation.slice(5)];
        return { kind: mutation, bytes: json(b) };
      case 'wrong-type':
        b[pick(REAL_KEYS)] = typeof value === 'string' ? n : value;
        return { kind: mutation, bytes: json(b) };
      case 'empty-string':
        b[pick(['model', 'input', 'voice', 'response_format', 'session_id', 'user', 'instructions'])] = '';
        return { kind: mutation, bytes: json(b) };
      case 'wrong-voice':
        b.voice = pick([...ALL_VOICES, 'ALLOY', 'alloy ', ' alloy', 'nobody', '']);
        return { kind: mutation, bytes: json(b) };
      case 'wrong-format':
        b.response_format = pick(['wav', 'MP3', 'mp3 ', 'opus', 'flac', 'aac', 'pcm16', 'mp3', 'pcm']);
        return { kind: mutation, bytes: json(b) };
      case 'speed-range':
        b.speed = pick([0, 0.2499, 4.0001, -1, 100, 1e308, -1e308, 5e-324, -0]);
        return { kind: mutation, bytes: json(b) };
      case 'speed-literal': {
        const literal = pick(['1e999', '-1e999', '1e-400', '-0', '0.25', '4', '4.0000001', '0.2499999', '1E0', '25e-2', '1.0e+0', '2.', '.5', '0x1', '+1', 'NaN', 'Infinity', '"1"', '[1]', 'null', 'true']);
        delete b.speed;
        return { kind: mutation, bytes: utf8.encode(`${text().slice(0, -1)}${Object.keys(b).length ? ',' : ''}"speed":${literal}}`) };
      }
      case 'too-long': {
        const model = speechModels[n % speechModels.length]!;
        b.model = model.id;
        b.voice = model.voices?.[0] ?? 'any-voice';
        b.input = pick(['a', '😀', ' ']).repeat(model.maxChars + 1 + (n % 3));
        delete b.response_format;
        return { kind: mutation, bytes: json(b) };
      }
      case 'not-speech-model':
        b.model = pick([...baseIds.filter((id) => !speechById.has(id)), ...aliasIds]);
        return { kind: mutation, bytes: json(b) };
      case 'unknown-model':
        b.model = pick(['openai/gpt-4o-mini-tts', 'OPENAI/gpt-4o-mini-tts-2025-12-15', ' openai/gpt-4o-mini-tts-2025-12-15', 'openai/gpt-4o-mini-tts-2025-12-15:bogus', 'openai/gpt-4o-mini-tts-2025-12-15:free:nitro', 'openai%2Fgpt-4o-mini-tts-2025-12-15', '~openai/gpt-latest', 'x', '/', ':free']);
        return { kind: mutation, bytes: json(b) };
      case 'null-optional':
        b[pick(['response_format', 'speed', 'provider', 'session_id', 'user', 'instructions', 'input_references', 'voice'])] = null;
        return { kind: mutation, bytes: json(b) };
      case 'provider-shape':
        b.provider = pick([[], 'openai', 1, { options: [] }, { options: 'x' }, { options: null }, { options: { openai: null } }, { order: ['openai'] }, { options: [1, 2] }]);
        return { kind: mutation, bytes: json(b) };
      case 'bom':
        return { kind: mutation, bytes: concat([0xef, 0xbb, 0xbf], text()) };
      case 'whitespace':
        return { kind: mutation, bytes: utf8.encode(` \n\t${JSON.stringify(b, null, n % 4)}\r\n `) };
      case 'invalid-utf8': {
        const bad = pick([[0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf], [0xe2, 0x82], [0x80], [0xf4, 0x90, 0x80, 0x80], [0xfe, 0xff]]);
        const [before, after] = [text().slice(0, 1), text().slice(1)];
        return { kind: mutation, bytes: n % 2 ? concat(before, bad, after) : concat(`{"model":${JSON.stringify(b.model)},"voice":${JSON.stringify(b.voice)},"input":"`, bad, '"}') };
      }
      case 'truncated': {
        const full = text();
        return { kind: mutation, bytes: utf8.encode(full.slice(0, n % full.length)) };
      }
      case 'trailing-garbage':
        return { kind: mutation, bytes: utf8.encode(text() + pick(['x', '}', ',', '{}', '\u0000', ' //c', '\n{"a":1}'])) };
      case 'utf16':
        return { kind: mutation, bytes: Buffer.from(text(), n % 2 ? 'utf16le' : 'ucs2') };
      case 'gzip':
        return { kind: mutation, bytes: gzipSync(text()) };
      case 'duplicate-keys':
        return { kind: mutation, bytes: utf8.encode(`{"model":1,"voice":null,"input":[],${text().slice(1)}`) };
      default:
        mutateShape(b, mutation, n);
        return { kind: mutation, bytes: json(b) };
    }
  });

/** Objects mixing the real keys with junk keys, every value of any type. */
const randomShapeSpeech: fc.Arbitrary<Body> = fc
  .record({
    real: fc.dictionary(fc.constantFrom(...REAL_KEYS), wild, { maxKeys: 8 }),
    junk: fc.dictionary(keyArb, wild, { maxKeys: 4 }),
    long: maybe(fc.tuple(fc.constantFrom('input', 'model', 'voice', 'user', 'junk', '😀'), longString), 2.5),
  })
  .map(({ real, junk, long }) => {
    const body: Record<string, unknown> = { ...junk, ...real };
    // An input of up to LONGEST_INPUT characters to a speech model would be rendered (slow); longString is always
    // longer than every model's limit, so a long input is refused before any audio is made.
    if (long) body[long[0]] = long[1];
    return { kind: long ? 'random-shape-long' : 'random-shape', bytes: json(body) };
  });

/** JSON texts whose value is not an object: scalars, arrays (of valid requests too). */
const nonObjectJson: fc.Arbitrary<Body> = fc
  .oneof(fc.jsonValue({ maxDepth: 3 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)), fc.array(validSpeech, { minLength: 1, maxLength: 2 }), fc.constantFrom(null, 0, -0, 1e308, '', 'model', true, []))
  .map((value) => ({ kind: 'non-object', bytes: json(value) }));

/** Bytes that are not JSON: random bytes and text, near-JSON, forms, invalid UTF-8. */
const nonJson: fc.Arbitrary<Body> = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ kind: 'random-bytes', bytes })),
  fc.string({ unit: anyChar, maxLength: 60 }).map((text) => ({ kind: 'random-text', bytes: utf8.encode(text) })),
  fc.constantFrom('{', '}', '{"model":', '{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"hi","voice":"alloy"', '[', 'nul', 'undefined', "{'model':'x'}", '{"a":1,}', '{model:"x"}', 'model=openai&input=hi&voice=alloy', '--x\r\nContent-Disposition: form-data; name="model"\r\n\r\nx\r\n--x--', '\u0000', '{"a":"\\ud800"}', '{"a":"\\u00"}', '{"a":"\t"}', '0x10', '1e999', '"\\x41"', ' ', '\n', '{"__proto__":{"model":"x"}}', '{"constructor":{"prototype":{"model":1}}}').map((text) => ({ kind: 'non-json', bytes: utf8.encode(text) })),
  fc.constantFrom([0xc3, 0x28], [0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00], [0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x7b, 0x7d], [0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d], [0x00, 0x00, 0x00, 0x7b]).map((bytes) => ({ kind: 'invalid-utf8', bytes: Uint8Array.from(bytes) })),
);

/** No body, or an empty one. */
const emptyBody: fc.Arbitrary<Body> = fc.constantFrom<Body>({ kind: 'no-body', bytes: undefined }, { kind: 'empty-body', bytes: new Uint8Array(0) });

/** A JSON text of exactly `size` bytes: a valid speech request padded with a junk field. */
function paddedSpeech(size: number, pad: string): Uint8Array {
  const head = `{"model":"openai/gpt-4o-mini-tts-2025-12-15","input":"Hi.","voice":"alloy","response_format":"pcm","pad":"`;
  const tail = '"}';
  const room = size - utf8.encode(head).byteLength - tail.length;
  const unit = utf8.encode(pad).byteLength;
  const text = head + pad.repeat(Math.floor(room / unit)) + 'a'.repeat(room % unit) + tail;
  return utf8.encode(text);
}

/** Bodies around and past the 1 MiB limit (a few: they are slow). */
const hugeBody: fc.Arbitrary<Body> = fc
  .tuple(fc.constantFrom(MAX_BODY_BYTES - 1, MAX_BODY_BYTES, MAX_BODY_BYTES + 1, MAX_BODY_BYTES + 4096, 2 * MAX_BODY_BYTES), fc.constantFrom('a', 'é', '😀', ' '))
  .map(([size, pad]) => ({ kind: `huge-${size}`, bytes: paddedSpeech(size, pad) }));
/** Any speech body, weighted towards the nearly valid (most of the validation) and the valid (the successes). */
export const speechBody: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: taggedValidSpeech.map(({ body, tags }) => ({ kind: ['valid', ...tags].join('+'), bytes: json(body) })), weight: 45 },
  // The models that take turns or references, more often than one in thirteen.
  { arbitrary: shapedValidSpeech, weight: 15 },
  { arbitrary: nearlyValidSpeech, weight: 400 },
  { arbitrary: randomShapeSpeech, weight: 250 },
  { arbitrary: nonObjectJson, weight: 50 },
  { arbitrary: nonJson, weight: 120 },
  { arbitrary: emptyBody, weight: 30 },
  // ~2 in 1000 runs: each takes ~10 ms through either transport.
  { arbitrary: hugeBody, weight: 2 },
);
