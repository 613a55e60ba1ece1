/**
 * The transcription call of `mockrouter verify --spend` (`createAudioTranscriptions`, `POST
 * /api/v1/audio/transcriptions`): half a second of a 440 Hz tone as a 16 kHz mono WAV, sent as JSON with
 * `input_audio: {data: <base64>, format: "wav"}` to both sides with the first transcription model the simulator
 * answers 200 for; the answers' shapes are compared as every probe's (`shape.ts`). The text itself differs (the
 * simulator invents one for audio it did not say), so only its type is compared.
 *
 * @module
 */
import type { Answer, ProbeRequest, Side } from './sides.js';
import type { ProbeName } from './types.js';

/** The models tried, in order: the simulator's first that answers 200 is sent to the upstream. */
export const TRANSCRIPTION_MODELS = ['openai/whisper-1'] as const;

/** Sample rate of the probe's WAV, Hz. */
const RATE = 16_000;

/**
 * A 16-bit mono PCM WAV (RIFF `WAVE`, `fmt ` chunk of 16 bytes, `data` chunk) of `seconds` of a sine tone at `hz`, at
 * `rate` samples a second, amplitude a quarter of full scale.
 */
export function toneWav(seconds: number, hz = 440, rate = RATE): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * rate);
  const bytes = new Uint8Array(44 + samples * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) view.setInt16(44 + i * 2, Math.round(8191 * Math.sin((2 * Math.PI * hz * i) / rate)), true);
  return bytes;
}

/** Base64 of `bytes` (`btoa`, present in Node.js 16 and later). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The request of the transcription probe for `model`. */
export function transcriptionRequest(model: string): ProbeRequest {
  return { method: 'POST', path: '/audio/transcriptions', query: '', json: { model, input_audio: { data: base64(toneWav(0.5)), format: 'wav' } } };
}

/** What the probe needs of the comparison: adding a pair of answers, or a request not sent. */
export interface TranscriptionComparison {
  add(probe: ProbeName, request: string, upstream: Answer, mockrouter: Answer): void;
  skip(probe: ProbeName, request: string, upstream: number | null, mockrouter: number | null, note: string): void;
}

/**
 * Sends the transcription probe: to the simulator first with each of {@link TRANSCRIPTION_MODELS}, then, for the
 * first it answers 200, to the upstream; or notes that none could be sent.
 */
export async function transcribeOnBoth(upstream: Side, mockrouter: Side, comparison: TranscriptionComparison): Promise<void> {
  for (const model of TRANSCRIPTION_MODELS) {
    const request = transcriptionRequest(model);
    const m = await mockrouter(request);
    if (m.status !== 200) continue;
    const described = `POST /api/v1/audio/transcriptions (${model}, 0.5 s WAV as base64 JSON)`;
    comparison.add('transcription', described, await upstream(request), m);
    return;
  }
  comparison.skip('transcription', 'POST /api/v1/audio/transcriptions', null, null, `mockrouter answers none of ${TRANSCRIPTION_MODELS.join(', ')} with 200: not sent`);
}
