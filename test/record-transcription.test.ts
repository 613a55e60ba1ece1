/**
 * `mockrouter record` of transcriptions: JSON (base64) and multipart requests go through to the upstream (a bigger body
 * than the recorder's answer limit included), each 200 answer is kept in `transcripts.json` keyed by the SHA-256 of
 * the audio with its text, language, duration and words, errors become rules of the `recorded` scenario, and the
 * folder replayed with `--fixtures` (another seed, no upstream) answers the same audio with the recorded text.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { TranscriptsFileSchema } from '../src/core/formats/transcript-schema.js';
import { loadFixtures } from '../src/node-platform/fixtures.js';
import { startRecorder, type RunningRecorder } from '../src/recorder/index.js';
import { transcriptOfExchange } from '../src/recorder/transcript-answers.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { toneWav } from '../src/verify/transcription-probe.js';
import { sha256Hex } from './support/sha256.js';
import { STT, TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';
import { tempFolders } from './support/temp-folders.js';

const KEY = 'sk-live-secret-transcribe-123';
const AUTH = { Authorization: `Bearer ${KEY}` };
const newFolder = tempFolders('mockrouter-record-stt-');

interface Verbose {
  text: string;
  language?: string;
  duration?: number;
  words?: { word: string; start: number; end: number }[];
}

/** `POST {baseUrl}/audio/transcriptions` with `bytes` as base64 JSON; the answer's status and JSON. */
async function transcribeJson(baseUrl: string, bytes: Uint8Array, format: string, extra: Record<string, unknown> = {}): Promise<{ status: number; body: Verbose }> {
  const response = await fetch(`${baseUrl}/audio/transcriptions`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: STT, input_audio: { data: Buffer.from(bytes).toString('base64'), format }, ...extra }),
  });
  return { status: response.status, body: (await response.json()) as Verbose };
}

/** The same as a multipart upload of `bytes` as `clip.wav`. */
async function transcribeMultipart(baseUrl: string, bytes: Uint8Array<ArrayBuffer>): Promise<{ status: number; body: Verbose }> {
  const form = new FormData();
  form.append('model', STT);
  form.append('response_format', 'verbose_json');
  form.append('file', new File([bytes], 'clip.wav', { type: 'audio/wav' }));
  const response = await fetch(`${baseUrl}/audio/transcriptions`, { method: 'POST', headers: AUTH, body: form });
  return { status: response.status, body: (await response.json()) as Verbose };
}

describe('mockrouter record of transcriptions', () => {
  let upstream: RunningServer;
  let recorder: RunningRecorder;
  let out: string;
  const notes: string[] = [];
  const logger = { info: (_entry: object, message?: string) => notes.push(message ?? ''), warn: (_entry: object, message?: string) => notes.push(`WARN ${message ?? ''}`) };
  /** What each audio's transcription answered the client through the recorder, by the audio's SHA-256. */
  const heard = new Map<string, Verbose>();
  let speech: Uint8Array;
  const tone = toneWav(1.5, 330);
  // 40 s of 16 kHz WAV: 1.28 MB, 1.7 MB as base64 JSON, past the recorder's answer limit below and the API's 1 MiB.
  const long = toneWav(40, 500);

  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 1, keys: [KEY] });
    out = newFolder();
    // A folder that already names a clip: kept as written.
    writeFileSync(join(out, 'hello.wav'), toneWav(0.5, 440));
    writeFileSync(join(out, 'transcripts.json'), JSON.stringify({ transcripts: [{ clip: 'hello.wav', text: 'Hello from before.' }] }));
    recorder = await startRecorder({ upstream: upstream.url, out, port: 0, logger, maxRecordBytes: 256 * 1024 });
    const said = await postSpeech(upstream.baseUrl, { model: TTS, input: 'Recorded words, heard again.', voice: 'alloy', response_format: 'pcm' }, AUTH);
    expect(said.status).toBe(200);
    speech = new Uint8Array(await said.arrayBuffer());
  });
  afterAll(async () => {
    await recorder?.close();
    await upstream?.close();
  });

  it('forwards JSON and multipart transcriptions and answers as the upstream does', async () => {
    // The model's record, so the replay knows it (with its `transcription` entry).
    const lookup = await fetch(`${recorder.baseUrl}/model/${STT}`, { headers: AUTH });
    expect(lookup.status).toBe(200);
    await lookup.arrayBuffer();

    const said = await transcribeJson(recorder.baseUrl, speech, 'pcm', { response_format: 'verbose_json', timestamp_granularities: ['word'] });
    expect(said.status).toBe(200);
    expect(said.body.text).toBe('Recorded words, heard again.');
    expect(said.body.words?.length).toBe(4);
    heard.set(sha256Hex(speech), said.body);

    const uploaded = await transcribeMultipart(recorder.baseUrl, tone);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toEqual((await transcribeMultipart(upstream.baseUrl, tone)).body);
    heard.set(sha256Hex(tone), uploaded.body);

    const big = await transcribeJson(recorder.baseUrl, long, 'wav');
    expect(big.status).toBe(200);
    heard.set(sha256Hex(long), big.body);

    const unknown = await transcribeJson(recorder.baseUrl, tone, 'wav', { model: 'nobody/nothing' });
    expect(unknown.status).toBe(400);
  });

  it('keeps each 200 answer in transcripts.json by the audio\'s SHA-256, the clip entry before it as written', async () => {
    await recorder.close();
    const file = TranscriptsFileSchema.parse(JSON.parse(readFileSync(join(out, 'transcripts.json'), 'utf8')));
    expect(file.transcripts[0]).toEqual({ clip: 'hello.wav', text: 'Hello from before.' });
    const recorded = new Map(file.transcripts.slice(1).map((entry) => [entry.sha256!, entry]));
    expect([...recorded.keys()].sort()).toEqual([...heard.keys()].sort());
    const said = recorded.get(sha256Hex(speech))!;
    const answer = heard.get(sha256Hex(speech))!;
    expect(said).toEqual({ sha256: sha256Hex(speech), text: answer.text, language: answer.language, duration: answer.duration, words: answer.words });
    expect(recorded.get(sha256Hex(tone))!.text).toBe(heard.get(sha256Hex(tone))!.text);
    expect(recorded.get(sha256Hex(tone))!.duration).toBe(1.5);
    // The json shape has no language, duration or words: only the text is kept.
    expect(recorded.get(sha256Hex(long))).toEqual({ sha256: sha256Hex(long), text: heard.get(sha256Hex(long))!.text });
    expect(notes.filter((note) => /: transcript of [0-9a-f]{12}… \(\d+ characters, openai\/whisper-1\)$/.test(note))).toHaveLength(3);
    expect(readFileSync(join(out, 'transcripts.json'), 'utf8')).not.toContain(KEY);

    const scenario = parseYaml(readFileSync(join(out, 'scenarios', 'recorded.yaml'), 'utf8')) as { rules: { name: string; match: unknown; error: { status: number } }[] };
    expect(scenario.rules).toEqual([expect.objectContaining({ name: 'transcription-400-1', match: { operation: 'transcription', model: 'nobody/nothing' }, error: expect.objectContaining({ status: 400 }) })]);
  });

  it('replays the folder with --fixtures, another seed and no upstream: the same audio answers the recorded text', async () => {
    const fixtures = loadFixtures(out);
    expect(fixtures.transcripts?.size).toBe(4);
    expect(fixtures.transcription?.[STT]).toEqual(loadFixtures().transcription?.[STT]);
    const replay = await startServer({ port: 0, seed: 2, keys: [KEY], fixtures: out });
    try {
      const tone2 = await transcribeMultipart(replay.baseUrl, tone);
      expect(tone2.body.text).toBe(heard.get(sha256Hex(tone))!.text);
      const long2 = await transcribeJson(replay.baseUrl, long, 'wav');
      expect(long2.body.text).toBe(heard.get(sha256Hex(long))!.text);
      const said2 = await transcribeJson(replay.baseUrl, speech, 'pcm', { response_format: 'verbose_json', timestamp_granularities: ['word'] });
      expect(said2.body.words).toEqual(heard.get(sha256Hex(speech))!.words);
      // Audio not recorded: another seed invents another text.
      const other = toneWav(1.5, 331);
      expect((await transcribeJson(replay.baseUrl, other, 'wav')).body.text).not.toBe((await transcribeJson(upstream.baseUrl, other, 'wav')).body.text);
      const hello = await transcribeJson(replay.baseUrl, toneWav(0.5, 440), 'wav');
      expect(hello.body.text).toBe('Hello from before.');
    } finally {
      await replay.close();
    }
  });

  it('adds to the folder in a later session, a new answer for the same audio replacing the earlier in its place', async () => {
    const before = TranscriptsFileSchema.parse(JSON.parse(readFileSync(join(out, 'transcripts.json'), 'utf8'))).transcripts;
    // Another upstream seed: another invented text for the same audio.
    const other = await startServer({ port: 0, seed: 3, keys: [KEY] });
    const again = await startRecorder({ upstream: other.url, out, port: 0 });
    const texts: string[] = [];
    try {
      for (const audio of [tone, toneWav(0.5, 440), toneWav(2, 220)]) {
        const answer = await transcribeJson(again.baseUrl, audio, 'wav');
        expect(answer.status).toBe(200);
        texts.push(answer.body.text);
      }
    } finally {
      await again.close();
      await other.close();
    }
    expect(texts[0]).not.toBe(heard.get(sha256Hex(tone))!.text);
    const after = TranscriptsFileSchema.parse(JSON.parse(readFileSync(join(out, 'transcripts.json'), 'utf8'))).transcripts;
    expect(after.map((entry) => entry.clip ?? entry.sha256)).toEqual([...before.map((entry) => entry.clip ?? entry.sha256), sha256Hex(toneWav(2, 220))]);
    // The clip entry takes the new text and keeps naming its clip.
    expect(after[0]).toEqual({ clip: 'hello.wav', text: texts[1] });
    expect(after.find((entry) => entry.sha256 === sha256Hex(tone))!.text).toBe(texts[0]);
    expect(after.at(-1)!.text).toBe(texts[2]);
  });
});

describe('mockrouter record of a transcript holding the key', () => {
  it('forwards it and writes nothing of it, with a warning that names neither', async () => {
    // A fake gateway whose transcript echoes the bearer token, base64-encoded.
    const fake = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ text: `Heard ${Buffer.from(token).toString('base64')}.`, usage: { seconds: 1 } }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const out = newFolder();
    const warnings: string[] = [];
    const recorder = await startRecorder({ upstream: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, out, port: 0, logger: { info: () => undefined, warn: (_e, message) => warnings.push(message ?? '') } });
    try {
      const answer = await transcribeJson(recorder.baseUrl, toneWav(0.5), 'wav');
      expect(answer.status).toBe(200);
      expect(answer.body.text).toContain(Buffer.from(KEY).toString('base64'));
    } finally {
      await recorder.close();
      fake.close();
    }
    expect(existsSync(join(out, 'transcripts.json'))).toBe(false);
    expect(warnings).toEqual([expect.stringMatching(/not recorded: the transcript holds a credential of the request \(in some form\)$/)]);
    expect(warnings.join('\n')).not.toContain(KEY);
  });
});

describe('mockrouter record on a folder with an invalid transcripts.json', () => {
  it('refuses to start, naming the file, the entry and what was expected', async () => {
    const bad = newFolder();
    writeFileSync(join(bad, 'transcripts.json'), JSON.stringify({ transcripts: [{ clip: 'missing.wav', text: 'x' }] }));
    await expect(startRecorder({ upstream: 'http://127.0.0.1:9', out: bad, port: 0 })).rejects.toThrow(/transcripts\.json: transcripts\[0\]\.clip: missing\.wav: not found/);
  });
});

describe('what a transcription exchange records', () => {
  const answer = Buffer.from(JSON.stringify({ text: 'Hi.', language: 'en', duration: 0.5, words: [{ word: 'Hi.', start: 0, end: 0.4, speaker: 0, speaker_label: 'A' }], usage: { seconds: 1 } }));
  const json = (body: unknown) => Buffer.from(JSON.stringify(body));

  it('keys base64 audio by its SHA-256 and keeps text, language, duration and words (speaker index, no label)', async () => {
    const wav = toneWav(0.5);
    const heard = await transcriptOfExchange(json({ model: STT, input_audio: { data: Buffer.from(wav).toString('base64'), format: 'wav' } }), 'application/json', answer);
    expect(heard).toEqual({ sha256: sha256Hex(wav), model: STT, transcript: { text: 'Hi.', language: 'en', duration: 0.5, words: [{ word: 'Hi.', start: 0, end: 0.4, speaker: 0 }] }, wordsDropped: undefined });
  });

  it('records nothing for a URL, a body it did not keep, a request the simulator refuses or an answer without text', async () => {
    const wav = Buffer.from(toneWav(0.5)).toString('base64');
    expect(await transcriptOfExchange(json({ model: STT, input_audio: { url: 'https://example.com/a.wav' } }), 'application/json', answer)).toMatch(/URL/);
    expect(await transcriptOfExchange(undefined, 'application/json', answer)).toMatch(/not kept/);
    expect(await transcriptOfExchange(json({ model: STT, input_audio: { data: 'not base64!', format: 'wav' } }), 'application/json', answer)).toMatch(/not a transcription the simulator reads \(400: input_audio\.data/);
    expect(await transcriptOfExchange(json({ model: STT, input_audio: { data: wav, format: 'wav' } }), 'application/json', json({ transcript: 'Hi.' }))).toMatch(/expected a JSON answer/);
  });

  it('leaves out words it cannot hold, keeping the text', async () => {
    const wav = toneWav(0.5);
    const heard = await transcriptOfExchange(json({ model: STT, input_audio: { data: Buffer.from(wav).toString('base64'), format: 'wav' } }), 'application/json', json({ text: 'Hi.', words: [{ word: 'Hi.', start: -1, end: 0.4 }] }));
    expect(heard).toMatchObject({ transcript: { text: 'Hi.' }, wordsDropped: 'words[0] is not {word, start, end} in seconds' });
    expect((heard as { transcript: object }).transcript).not.toHaveProperty('words');
  });
});
