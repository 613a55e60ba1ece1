/**
 * `mockrouter record` and `--fixtures` with the speech request's newer shapes (`docs/recording.md`): a list of turns,
 * `instructions` and `input_references` are part of a recording's key (`speechKeyOf`, references as a SHA-256 of their
 * JSON), so each is recorded and replayed for exactly its own request, and a request that differs in one of them is
 * not answered with another's audio. A request without them keeps the key it had before they were keyed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSpeechKey, speechKeyOf } from '../src/core/formats/recording-schema.js';
import { startRecorder, type RunningRecorder } from '../src/recorder/index.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { TTS } from './support/speech-model.js';
import { postSpeech } from './support/speech-request.js';

const KEY = 'sk-live-shapes-123';
const AUTH = { Authorization: `Bearer ${KEY}` };
const clip = (text: string) => ({ type: 'input_audio', input_audio: { data: Buffer.from(text).toString('base64'), format: 'wav' } });

const BODIES = {
  turns: { model: 'google/gemini-3.1-flash-tts-preview', voice: 'Puck', input: [{ text: 'Hello there.' }, { text: 'Hi, Puck.', voice: 'Kore' }] },
  instructions: { model: TTS, voice: 'alloy', input: 'Said warmly.', instructions: 'Speak warmly.' },
  references: { model: 'fish-audio/s2.1-pro', voice: 'any-id', input: '@Audio1 says this.', input_references: [clip('first clip'), { type: 'text', text: 'The first clip.' }] },
};

describe('speechKeyOf with turns, instructions and input_references', () => {
  it('keeps the key of a request without them as it was', () => {
    expect(speechKeyOf({ model: TTS, input: 'Hi', voice: 'alloy' })).toBe(`{"input":"Hi","model":"${TTS}","provider_options":null,"response_format":"pcm","speed":1,"voice":"alloy"}`);
  });

  it('keys each, references by a SHA-256 that does not depend on the order of names, and reads every key back', () => {
    const keys = Object.values(BODIES).map((body) => speechKeyOf(body));
    for (const key of keys) expect(isSpeechKey(key), key).toBe(true);
    expect(JSON.parse(keys[2]!).input_references).toMatch(/^[0-9a-f]{64}$/);
    const reordered = { ...BODIES.references, input_references: [{ input_audio: { format: 'wav', data: Buffer.from('first clip').toString('base64') }, type: 'input_audio' }, { text: 'The first clip.', type: 'text' }] };
    expect(speechKeyOf(reordered)).toBe(keys[2]);
    expect(speechKeyOf({ ...BODIES.references, input_references: [clip('another clip')] })).not.toBe(keys[2]);
    expect(speechKeyOf({ ...BODIES.instructions, instructions: 'Speak coldly.' })).not.toBe(keys[1]);
    expect(isSpeechKey(keys[2]!.replace(/"input_references":"[0-9a-f]{64}"/, '"input_references":"not-hex"'))).toBe(false);
  });
});

describe('recording and replaying the newer speech shapes', () => {
  let upstream: RunningServer;
  let recorder: RunningRecorder;
  let replay: RunningServer;
  let out: string;
  const recorded: Record<string, Buffer> = {};
  const logger = { info: () => {}, warn: () => {} };

  beforeAll(async () => {
    upstream = await startServer({ port: 0, seed: 1, keys: [KEY] });
    out = mkdtempSync(join(tmpdir(), 'mockrouter-record-shapes-'));
    recorder = await startRecorder({ upstream: upstream.url, out, port: 0, logger });
    // The models' lookups, recorded too: the replay then knows them, and renders a request it has no recording of.
    for (const body of Object.values(BODIES)) expect((await fetch(`${recorder.baseUrl}/model/${body.model}`, { headers: AUTH })).status).toBe(200);
    for (const [name, body] of Object.entries(BODIES)) {
      const res = await postSpeech(recorder.baseUrl, body, AUTH);
      expect(res.status, name).toBe(200);
      recorded[name] = Buffer.from(await res.arrayBuffer());
    }
    await recorder.close();
    replay = await startServer({ port: 0, seed: 99, keys: [KEY], fixtures: out });
  });
  afterAll(async () => {
    await replay?.close();
    await recorder?.close();
    await upstream?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it('answers each recorded request with its recorded bytes, under another seed', async () => {
    for (const [name, body] of Object.entries(BODIES)) {
      const res = await postSpeech(replay.baseUrl, body, AUTH);
      expect(res.status, name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(recorded[name]!), name).toBe(true);
    }
  });

  it('renders a request that differs only in its turns, instructions or references (seed 99: other bytes)', async () => {
    const others = {
      turns: { ...BODIES.turns, input: [{ text: 'Hello there.' }, { text: 'Hi, Puck.', voice: 'Zephyr' }] },
      instructions: { ...BODIES.instructions, instructions: 'Speak coldly.' },
      references: { ...BODIES.references, input_references: [clip('another clip')] },
    };
    for (const [name, body] of Object.entries(others)) {
      const res = await postSpeech(replay.baseUrl, body, AUTH);
      expect(res.status, name).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(recorded[name]!), name).toBe(false);
    }
  });
});
