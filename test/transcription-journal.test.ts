/**
 * A transcription's journal entry: `operation: 'transcription'`, its facts (`transcription.source` `said` for audio
 * the mock said, `invented` for other audio; the text; the audio's SHA-256), and a body holding the audio's size in
 * place of its base64 data.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mswMode, type RunningMode } from './support/modes.js';
import { STT, TTS } from './support/speech-model.js';

const KEY = 'sk-journal-stt';
const INPUT = 'The journal keeps the words, not the audio.';

describe('a transcription in the journal', () => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mswMode.start({ seed: 5, keys: [KEY] });
  });
  afterAll(() => mock.stop());

  /** POSTs `body` as JSON to `path` under the mock; the answer. */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${mock.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  /** Transcribes `pcm` as base64 JSON; the answer's text and the journal entry of the transcription. */
  async function heard(pcm: Uint8Array): Promise<{ text: string; entry: Record<string, unknown>; data: string }> {
    const data = Buffer.from(pcm).toString('base64');
    const response = await post('/audio/transcriptions', { model: STT, input_audio: { data, format: 'pcm' } });
    expect(response.status).toBe(200);
    const { text } = (await response.json()) as { text: string };
    const entries = await mock.gateway.sharedJournal.list();
    const entry = entries.filter((e) => e.operation === 'transcription').at(-1) as unknown as Record<string, unknown>;
    return { text, entry, data };
  }

  it("names the said audio's source, text and SHA-256, and keeps no base64 data", async () => {
    const speech = await post('/audio/speech', { model: TTS, input: INPUT, voice: 'alloy', response_format: 'pcm' });
    expect(speech.status).toBe(200);
    const pcm = new Uint8Array(await speech.arrayBuffer());
    const { text, entry, data } = await heard(pcm);
    expect(text).toBe(INPUT);
    expect(entry).toMatchObject({
      operation: 'transcription',
      transcription: { source: 'said', text: INPUT, audio_sha256: createHash('sha256').update(pcm).digest('hex') },
    });
    expect(JSON.stringify(entry.body)).toContain(`<${pcm.byteLength} bytes>`);
    expect(JSON.stringify(entry)).not.toContain(data.slice(0, 64));
  });

  it('names foreign audio invented, with the text answered', async () => {
    const pcm = new Uint8Array(48_000).map((_, i) => (i * 7919) & 0xff);
    const { text, entry, data } = await heard(pcm);
    expect(text.length).toBeGreaterThan(0);
    expect(entry).toMatchObject({
      operation: 'transcription',
      transcription: { source: 'invented', text, audio_sha256: createHash('sha256').update(pcm).digest('hex') },
    });
    expect(JSON.stringify(entry)).not.toContain(data.slice(0, 64));
  });
});
