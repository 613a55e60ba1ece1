/**
 * What the dashboard's journal writes on a row (`ui/src/format.ts`), as functions of a journal entry: a speech
 * request's model, voice, format and input, from its body or, when the body was not kept, its answer's audio facts.
 */
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/core/journal/journal.js';
import { speechAsk, speechAskText, transcriptionAsk } from '../../ui/src/format.js';
import { STT, TTS } from '../support/speech-model.js';

/** A journal entry of a speech request answered 200, with `over` replacing its fields. */
function entry(over: Partial<JournalEntry> = {}): JournalEntry {
  return {
    seq: 1,
    time: 0,
    time_iso: '1970-01-01T00:00:00.000+00:00',
    replica: 'unit',
    session: 'key-000000000000',
    method: 'POST',
    path: '/api/v1/audio/speech',
    query: {},
    headers: {},
    body: { model: TTS, input: 'Hello there.', voice: 'alloy', response_format: 'mp3' },
    operation: 'speech',
    scenario: null,
    rule: null,
    status: 200,
    response_headers: {},
    generation_id: null,
    duration_ms: 1,
    response_bytes: 1,
    body_end: 'complete',
    error: null,
    audio: { format: 'mp3', content_type: 'audio/mpeg', duration_ms: 1000, voice: 'alloy', model: TTS, speed: 1, speech: 'tones' },
    ...over,
  };
}

describe("a speech row's text", () => {
  it('names the model, voice, format and input of the body', () => {
    const ask = speechAsk(entry())!;
    expect(ask).toEqual({ model: TTS, voice: 'alloy', format: 'mp3', input: 'Hello there.' });
    expect(speechAskText(ask)).toBe(`${TTS} · alloy · mp3 · “Hello there.”`);
  });

  it("takes the answer's format when the request named none, and the audio facts when the body was not kept", () => {
    const pcm = entry({ body: { model: TTS, input: 'Hi.', voice: 'nova' }, audio: { format: 'pcm', content_type: 'audio/pcm;rate=24000;channels=1', duration_ms: 1, voice: 'nova', speed: 1 } });
    expect(speechAsk(pcm)).toEqual({ model: TTS, voice: 'nova', format: 'pcm', input: 'Hi.' });
    expect(speechAsk(entry({ body: '<70000 bytes, not kept>' }))).toEqual({ model: TTS, voice: 'alloy', format: 'mp3' });
    // A refused request says what it did send.
    expect(speechAsk(entry({ status: 400, audio: null, body: { model: TTS, input: 'Hi.' } }))).toEqual({ model: TTS, input: 'Hi.' });
  });

  it("gives a multi-speaker input as its turns' texts joined by a space", () => {
    const turns = entry({ body: { model: 'google/gemini-3.1-flash-tts-preview', voice: 'Puck', input: [{ text: 'Hello.' }, { text: 'Hi there.', voice: 'Kore' }, { voice: 'Kore' }] } });
    expect(speechAsk(turns)!.input).toBe('Hello. Hi there.');
    expect(speechAsk(entry({ body: { input: [] }, audio: null }))).toBeUndefined();
  });

  it("keeps the input's start: whitespace as single spaces, at most 80 characters then an ellipsis", () => {
    const long = `${'word '.repeat(30)}\n\tend`;
    const input = speechAsk(entry({ body: { model: TTS, voice: 'alloy', input: long } }))!.input!;
    expect(input).toBe(`${'word '.repeat(16)}…`);
    expect([...input]).toHaveLength(81);
    expect(speechAsk(entry({ body: { input: 'a \n\n b' }, audio: null }))).toEqual({ input: 'a b' });
  });

  it('is none for another operation, or a speech request that says nothing of these', () => {
    expect(speechAsk(entry({ operation: 'model', path: '/api/v1/model/openai/gpt-4o', body: null, audio: null }))).toBeUndefined();
    expect(speechAsk(entry({ status: 400, body: null, audio: null }))).toBeUndefined();
    expect(speechAsk(entry({ status: 400, body: [1, 2], audio: null }))).toBeUndefined();
  });
});

describe("a transcription row's text", () => {
  const heard = (over: Partial<JournalEntry> = {}): JournalEntry =>
    entry({
      path: '/api/v1/audio/transcriptions',
      operation: 'transcription',
      audio: null,
      body: { model: STT, input_audio: { data: '<9 bytes>', format: 'wav' } },
      transcription: {
        model: STT,
        shape: 'json',
        format: 'wav',
        audio_bytes: 9,
        audio_sha256: 'a'.repeat(64),
        duration_s: 1,
        source: 'said',
        response_format: 'json',
        text: 'Hello\n  there.',
      },
      ...over,
    });

  it('names the model, the format and the transcript, whitespace collapsed', () => {
    expect(transcriptionAsk(heard())).toEqual({ model: STT, format: 'wav', input: 'Hello there.' });
    expect(speechAsk(heard())).toBeUndefined();
  });

  it("takes the format of a multipart body's file when the answer was an error", () => {
    const refused = heard({ status: 400, transcription: null, body: { model: STT, file: { name: 'a.mp3', bytes: 3, format: 'mp3' } } });
    expect(transcriptionAsk(refused)).toEqual({ model: STT, format: 'mp3' });
  });

  it('is undefined for a speech row', () => {
    expect(transcriptionAsk(entry())).toBeUndefined();
  });
});

