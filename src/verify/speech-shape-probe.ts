/**
 * The speech calls of `mockrouter verify --spend` that send the request's newer shapes (`docs/behaviour.md`,
 * "Multi-speaker input (turns)", "Reference clips and images", "Data policy", "Speed on a model without speed
 * control"), so that a gateway that answers them otherwise is seen: a list of two turns, a reference clip with its
 * transcript named as `@Audio1`, one reference image, `provider.zdr: true`, `provider.data_collection: "deny"`, and a
 * `speed` of 1.5 on a model without speed control. Each is sent to the simulator first, with the speech models both
 * sides list; the first model it answers as the shape asks (200, or for the data policy and speed whatever it
 * answers) is then sent to the upstream, and the two answers are compared as every probe's (probe `speech-shapes`).
 *
 * @module
 */
import type { Answer, ProbeRequest, Side } from './sides.js';
import { toneWav, type TranscriptionComparison } from './transcription-probe.js';

/** A 1×1 PNG (a transparent pixel), the reference image of the voice design call. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Base64 of `bytes`. */
function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** One shape sent: its name in the report, the body's fields besides model and voice, and what the simulator must answer to send it on. */
interface ShapeCall {
  readonly name: string;
  readonly fields: Readonly<Record<string, unknown>>;
  /** Whether a simulator answer of this status lets the call go to the upstream (`ok`: 200 only; `any`: every status). */
  readonly sendOn: 'ok' | 'any';
}

/** The shapes, in the order they are sent. */
export const SHAPE_CALLS: readonly ShapeCall[] = [
  { name: 'two turns', fields: { input: [{ text: 'Hi.' }, { text: 'Bye.' }] }, sendOn: 'ok' },
  {
    name: 'a reference clip named @Audio1',
    fields: { input: '@Audio1 says hi.', input_references: [{ type: 'input_audio', input_audio: { data: base64(toneWav(0.5)), format: 'wav' } }, { type: 'text', text: 'A tone.' }] },
    sendOn: 'ok',
  },
  { name: 'a reference image', fields: { input: 'Hi.', input_references: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL_PNG}` } }] }, sendOn: 'ok' },
  { name: 'provider.zdr true', fields: { input: 'Hi.', provider: { zdr: true } }, sendOn: 'any' },
  { name: 'provider.data_collection deny', fields: { input: 'Hi.', provider: { data_collection: 'deny' } }, sendOn: 'any' },
  { name: 'speed 1.5 on a model without speed control', fields: { input: 'Hi.', speed: 1.5 }, sendOn: 'any' },
];

/**
 * The voice sent to a model whose record lists none (`supported_voices: null`: any id of its provider's library):
 * a gateway whose provider has no voice of that id answers otherwise, and the report names the model.
 */
export const ANY_VOICE = 'default';

/** A speech model both sides list, with a voice to send it (one both records list, else the simulator's first, else {@link ANY_VOICE}). */
export interface ShapeModel {
  readonly id: string;
  readonly voice: string;
  /** Whether the simulator's discovery entry lists a `speed` range (the speed call goes to a model that lists none). */
  readonly speedRange: boolean;
}

/**
 * Sends each of {@link SHAPE_CALLS} to the simulator with each of `models` in turn, and the first it may send on to
 * the upstream; notes each shape no model could send.
 */
export async function sendSpeechShapes(models: readonly ShapeModel[], upstream: (described: string) => Side, mockrouter: Side, comparison: TranscriptionComparison): Promise<void> {
  for (const call of SHAPE_CALLS) {
    const candidates = call.name.startsWith('speed') ? models.filter((model) => !model.speedRange) : models;
    let sent = false;
    for (const model of candidates) {
      const request: ProbeRequest = { method: 'POST', path: '/audio/speech', query: '', json: { model: model.id, voice: model.voice, response_format: 'pcm', ...call.fields } };
      const m: Answer = await mockrouter(request);
      if (call.sendOn === 'ok' && m.status !== 200) continue;
      const described = `POST /api/v1/audio/speech (${model.id}, ${call.name})`;
      comparison.add('speech-shapes', described, await upstream(described)(request), m);
      sent = true;
      break;
    }
    if (!sent) comparison.skip('speech-shapes', `POST /api/v1/audio/speech (${call.name})`, null, null, `no speech model both sides list takes ${call.name} on mockrouter: not sent`);
  }
}
