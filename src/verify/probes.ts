/**
 * The requests `mockrouter verify` sends to both sides, and the comparison of each pair of answers.
 *
 * Read requests, always: the speech model list (`getModels`, `output_modalities=speech`), its count
 * (`listModelsCount`), the lookup (`getModel`) and the endpoints (`listEndpoints`) of each speech model both lists
 * hold, the speech model discovery list (`listSpeechModels`) and each shared model's entry (`getSpeechModel`), the key (`getCurrentKey`) and the credits (`getCredits`; compared only when the upstream answers 200, since
 * only a management key may read them: docs/behaviour.md, "Keys and credits"). With `spend`, also one short speech
 * call (`createAudioSpeech`) in `mp3` and one in `pcm`, each call's generation lookup (`getGeneration`, asked
 * again until it answers 200: the record is not ready at once, docs/behaviour.md, "Generation lookup"), one
 * transcription of half a second of WAV (`createAudioTranscriptions`, `transcription-probe.ts`), and the speech
 * request's newer shapes (`speech-shape-probe.ts`).
 *
 * @module
 */
import { SpeechModelAnswerSchema, SpeechModelsListResponseSchema } from '../core/formats/speech-model-schema.js';
import { Comparison, Stopped, type ProbeOutcome } from './comparison.js';
import { isProbeError } from './errors.js';
import type { Answer, ProbeRequest, Side } from './sides.js';
import { transcribeOnBoth } from './transcription-probe.js';
import { ANY_VOICE, sendSpeechShapes, type ShapeModel } from './speech-shape-probe.js';
import type { ProbeName } from './types.js';

/** The input of each speech call of `--spend`: a few characters, so the call costs next to nothing. */
export const SPEECH_INPUT = 'Hi.';

/** The speech formats `--spend` calls, one call each (docs/behaviour.md, "Speech"). */
const SPEECH_FORMATS = ['mp3', 'pcm'] as const;

/** How {@link runProbes} runs. */
export interface ProbeOptions {
  /** Send the speech calls and generation lookups (they cost credit on the upstream). */
  readonly spend: boolean;
  /** How long to keep asking each side for a speech call's generation record, ms (default 10,000). */
  readonly generationWaitMs?: number;
  /** Pause between two generation lookups of one side, ms (default 500). */
  readonly generationPollMs?: number;
}

function describe(request: ProbeRequest): string {
  return `${request.method} /api/v1${request.path}${request.query === '' ? '' : `?${request.query}`}`;
}

/** `/model/<author>/<slug>` for a model id `<author>/<slug>`, each part percent-encoded. */
function modelPath(id: string): string {
  const slash = id.indexOf('/');
  return `/${encodeURIComponent(id.slice(0, slash))}/${encodeURIComponent(id.slice(slash + 1))}`;
}

/** The `data[].id` strings of a model list answer. */
function idsOf(json: unknown): string[] {
  const data = (json as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return [];
  return data.map((model) => (model as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string' && id.includes('/'));
}

/** The `data.supported_voices` strings of a model lookup answer. */
function voicesOf(json: unknown): string[] {
  const voices = (json as { data?: { supported_voices?: unknown } } | undefined)?.data?.supported_voices;
  return Array.isArray(voices) ? voices.filter((voice): voice is string => typeof voice === 'string') : [];
}

/** Whether a speech model discovery answer lists a `speed` range for the model. */
function hasSpeedRange(json: unknown): boolean {
  const data = (json as { data?: { output_modalities?: { supported_parameters?: { speed?: unknown } }[] } } | undefined)?.data;
  return data?.output_modalities?.[0]?.supported_parameters?.speed !== undefined;
}

/** A model's voices: the simulator's, in its order, and those of them the upstream's record lists too. */
interface Voices {
  readonly both: readonly string[];
  readonly mockrouter: readonly string[];
}

/**
 * Sends every probe to both sides, one request at a time (the upstream's first), and compares the answers. The
 * rules of the comparison are `compareShapes`' and `compareHeaders`' (`comparison.ts`). At the first upstream answer that
 * cannot be read (too big, too deep, broken off, too slow, or past the deadline: `ProbeErrorCode`) it stops sending,
 * and the outcome's `error` names that request; what was compared before is kept.
 *
 * @throws {VerifyError} as the upstream side throws it before any answer (unreachable, 401): the check cannot run.
 */
export async function runProbes(upstream: Side, mockrouter: Side, options: ProbeOptions): Promise<ProbeOutcome> {
  const comparison = new Comparison();
  /** The upstream side, with a request it cannot read noted on `probe` (as `described`) and the check stopped. */
  const upstreamFor =
    (probe: ProbeName, described?: string): Side =>
    async (request) => {
      try {
        return await upstream(request);
      } catch (error) {
        if (!isProbeError(error)) throw error;
        comparison.stop({ probe, request: described ?? describe(request), code: error.code, message: error.message });
        throw new Stopped();
      }
    };
  try {
    await sendProbes(upstreamFor, mockrouter, comparison, options);
  } catch (error) {
    if (!(error instanceof Stopped)) throw error;
  }
  return comparison.finish();
}

/** The probes of {@link runProbes}, in order. */
async function sendProbes(upstreamFor: (probe: ProbeName, described?: string) => Side, mockrouter: Side, comparison: Comparison, options: ProbeOptions): Promise<void> {
  const ask = async (probe: ProbeName, request: ProbeRequest): Promise<[Answer, Answer]> => {
    const u = await upstreamFor(probe)(request);
    const m = await mockrouter(request);
    comparison.add(probe, describe(request), u, m);
    return [u, m];
  };

  const listRequest: ProbeRequest = { method: 'GET', path: '/models', query: 'output_modalities=speech' };
  const [uList, mList] = await ask('models', listRequest);
  await ask('models-count', { method: 'GET', path: '/models/count', query: 'output_modalities=speech' });

  const upstreamIds = new Set(idsOf(uList.json));
  const common = idsOf(mList.json).filter((id) => upstreamIds.has(id));
  if (common.length === 0) comparison.skip('model', describe({ method: 'GET', path: '/model/{author}/{slug}', query: '' }), null, null, 'no speech model is in both lists: no model lookup or endpoints compared');
  const voices = new Map<string, Voices>();
  for (const id of common) {
    const [u, m] = await ask('model', { method: 'GET', path: `/model${modelPath(id)}`, query: '' });
    const mockrouterVoices = voicesOf(m.json);
    const upstreamVoices = new Set(voicesOf(u.json));
    voices.set(id, { both: mockrouterVoices.filter((voice) => upstreamVoices.has(voice)), mockrouter: mockrouterVoices });
  }
  for (const id of common) await ask('endpoints', { method: 'GET', path: `/models${modelPath(id)}/endpoints`, query: '' });
  const speechModels: ProbeRequest = { method: 'GET', path: '/audio/speech/models', query: '' };
  comparison.checkSchema('speech-models', describe(speechModels), SpeechModelsListResponseSchema, ...(await ask('speech-models', speechModels)));
  const shapeModels: ShapeModel[] = [];
  for (const id of common) {
    const request: ProbeRequest = { method: 'GET', path: `/audio/speech/models${modelPath(id)}`, query: '' };
    const answers = await ask('speech-model', request);
    comparison.checkSchema('speech-model', describe(request), SpeechModelAnswerSchema, ...answers);
    shapeModels.push({ id, voice: voices.get(id)?.both[0] ?? voices.get(id)?.mockrouter[0] ?? ANY_VOICE, speedRange: hasSpeedRange(answers[1].json) });
  }
  await ask('key', { method: 'GET', path: '/key', query: '' });

  const creditsRequest: ProbeRequest = { method: 'GET', path: '/credits', query: '' };
  const uCredits = await upstreamFor('credits')(creditsRequest);
  if (uCredits.status === 200) comparison.add('credits', describe(creditsRequest), uCredits, await mockrouter(creditsRequest));
  else comparison.skip('credits', describe(creditsRequest), uCredits.status, null, `upstream ${uCredits.status}: only a management key may read credits; compared only when the upstream answers 200`);

  if (options.spend) {
    for (const format of SPEECH_FORMATS) await speak(format, common, voices, upstreamFor, mockrouter, comparison, options);
    await transcribeOnBoth(upstreamFor('transcription'), mockrouter, comparison);
    await sendSpeechShapes(shapeModels, (described) => upstreamFor('speech-shapes', described), mockrouter, comparison);
  }
}

/**
 * One speech call in `format` on both sides, with the first model of `common` the simulator answers 200 for (a
 * voice both records list, else the simulator's first), then the generation lookup of each side's call.
 */
async function speak(
  format: (typeof SPEECH_FORMATS)[number],
  common: readonly string[],
  voices: ReadonlyMap<string, Voices>,
  upstreamFor: (probe: ProbeName, described?: string) => Side,
  mockrouter: Side,
  comparison: Comparison,
  options: ProbeOptions,
): Promise<void> {
  const probe = format === 'mp3' ? 'speech-mp3' : 'speech-pcm';
  for (const model of common) {
    const known = voices.get(model) ?? { both: [], mockrouter: [] };
    const voice = known.both[0] ?? known.mockrouter[0];
    if (voice === undefined) continue;
    const request: ProbeRequest = { method: 'POST', path: '/audio/speech', query: '', json: { model, input: SPEECH_INPUT, voice, response_format: format } };
    const m = await mockrouter(request);
    if (m.status !== 200) continue;
    const described = `POST /api/v1/audio/speech (${model}, voice ${voice}, ${format})`;
    const u = await upstreamFor(probe, described)(request);
    comparison.add(probe, described, u, m);
    const uId = u.status === 200 ? u.headers['x-generation-id'] : undefined;
    const mId = m.headers['x-generation-id'];
    if (uId === undefined || mId === undefined) {
      comparison.skip('generation', 'GET /api/v1/generation?id=<the speech call\'s X-Generation-Id>', null, null, `the ${format} call gave no generation id on ${uId === undefined ? 'the upstream' : 'mockrouter'}`);
      return;
    }
    const lookup = `GET /api/v1/generation?id=<the ${format} call's X-Generation-Id>`;
    const [uRecord, mRecord] = [await lookUp(upstreamFor('generation', lookup), uId, options), await lookUp(mockrouter, mId, options)];
    comparison.add('generation', lookup, uRecord, mRecord);
    return;
  }
  comparison.skip(probe, `POST /api/v1/audio/speech (${format})`, null, null, `no speech model both sides list answers ${format} on mockrouter: not sent`);
}

/** `getGeneration` of `id`, asked again while it answers 404 (the record is not ready yet), up to the wait. */
async function lookUp(side: Side, id: string, options: ProbeOptions): Promise<Answer> {
  const deadline = Date.now() + (options.generationWaitMs ?? 10_000);
  const request: ProbeRequest = { method: 'GET', path: '/generation', query: `id=${encodeURIComponent(id)}` };
  for (;;) {
    const answer = await side(request);
    if (answer.status !== 404 || Date.now() >= deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, options.generationPollMs ?? 500));
  }
}
