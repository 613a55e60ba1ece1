/**
 * The requests `mockrouter verify` sends to both sides, and the comparison of each pair of answers (issue 22).
 *
 * Read requests, always: the speech model list (`getModels`, `output_modalities=speech`), its count
 * (`listModelsCount`), the lookup (`getModel`) and the endpoints (`listEndpoints`) of each speech model both lists
 * hold, the key (`getCurrentKey`) and the credits (`getCredits`; compared only when the upstream answers 200, since
 * only a management key may read them: docs/behaviour.md, "Keys and credits"). With `spend`, also one short speech
 * call (`createAudioSpeech`) in `mp3` and one in `pcm`, and each call's generation lookup (`getGeneration`, asked
 * again until it answers 200: the record is not ready at once, docs/behaviour.md, "Generation lookup").
 *
 * @module
 */
import { compareHeaders } from './headers.js';
import { addToShape, compareShapes, emptyShape, type Shape } from './shape.js';
import type { Answer, ProbeRequest, Side } from './sides.js';
import type { Difference, ProbeName, ProbeResult } from './types.js';

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

/** What {@link runProbes} found: every request sent and every difference. */
export interface ProbeOutcome {
  readonly probes: ProbeResult[];
  readonly differences: Difference[];
}

const decoder = new TextDecoder();

/** The body as JSON, or `undefined` when it is empty or no JSON. */
function jsonOf(answer: Answer): unknown {
  if (answer.body.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(answer.body)) as unknown;
  } catch {
    return undefined;
  }
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

/** Collects the answers of both sides: probe lines, status and header differences, and each probe's body shapes. */
class Comparison {
  readonly probes: ProbeResult[] = [];
  readonly differences: Difference[] = [];
  private readonly shapes = new Map<ProbeName, { upstream: Shape; mockrouter: Shape }>();

  /** Adds a pair of answers to one request: compares status and headers and, when the statuses agree, the JSON bodies. */
  add(probe: ProbeName, request: string, upstream: Answer, mockrouter: Answer, json: boolean, note?: string): void {
    this.probes.push({ probe, request, upstream: upstream.status, mockrouter: mockrouter.status, compared: true, ...(note ? { note } : {}) });
    if (upstream.status !== mockrouter.status) {
      this.differences.push({ probe, request, path: 'status', kind: 'status', upstream: String(upstream.status), mockrouter: String(mockrouter.status) });
      return;
    }
    for (const header of compareHeaders(upstream.headers, mockrouter.headers)) {
      this.differences.push({ probe, request, path: `header ${header.name}`, kind: 'header', upstream: header.upstream, mockrouter: header.mockrouter });
    }
    // A speech call's 200 is audio; its errors are the JSON envelope.
    if (!json && upstream.status === 200) return;
    const u = jsonOf(upstream);
    const m = jsonOf(mockrouter);
    if (u === undefined || m === undefined) {
      if (u !== m) this.differences.push({ probe, request, path: '', kind: 'body', upstream: u === undefined ? 'no JSON' : 'JSON', mockrouter: m === undefined ? 'no JSON' : 'JSON' });
      return;
    }
    let shapes = this.shapes.get(probe);
    if (!shapes) this.shapes.set(probe, (shapes = { upstream: emptyShape(), mockrouter: emptyShape() }));
    addToShape(shapes.upstream, u);
    addToShape(shapes.mockrouter, m);
  }

  /** Adds a request that was not compared, with why. */
  skip(probe: ProbeName, request: string, upstream: number | null, mockrouter: number | null, note: string): void {
    this.probes.push({ probe, request, upstream, mockrouter, compared: false, note });
  }

  /** The shape differences of each probe, over all of its answers (a probe's requests compare as one list). */
  finish(): ProbeOutcome {
    for (const [probe, { upstream, mockrouter }] of this.shapes) {
      for (const difference of compareShapes(upstream, mockrouter)) this.differences.push({ probe, ...difference });
    }
    return { probes: this.probes, differences: this.differences };
  }
}

/**
 * Sends every probe to both sides, one request at a time (the upstream's first), and compares the answers. The
 * rules of the comparison are {@link compareShapes}' and {@link compareHeaders}'.
 *
 * @throws {VerifyError} as the upstream side throws it (unreachable, 401): the check cannot run.
 */
export async function runProbes(upstream: Side, mockrouter: Side, options: ProbeOptions): Promise<ProbeOutcome> {
  const comparison = new Comparison();
  const both = async (request: ProbeRequest): Promise<[Answer, Answer]> => [await upstream(request), await mockrouter(request)];
  const ask = async (probe: ProbeName, request: ProbeRequest, json = true): Promise<[Answer, Answer]> => {
    const [u, m] = await both(request);
    comparison.add(probe, describe(request), u, m, json);
    return [u, m];
  };

  const listRequest: ProbeRequest = { method: 'GET', path: '/models', query: 'output_modalities=speech' };
  const [uList, mList] = await ask('models', listRequest);
  await ask('models-count', { method: 'GET', path: '/models/count', query: 'output_modalities=speech' });

  const upstreamIds = new Set(idsOf(jsonOf(uList)));
  const common = idsOf(jsonOf(mList)).filter((id) => upstreamIds.has(id));
  if (common.length === 0) comparison.skip('model', describe({ method: 'GET', path: '/model/{author}/{slug}', query: '' }), null, null, 'no speech model is in both lists: no model lookup or endpoints compared');
  const voices = new Map<string, { upstream: string[]; mockrouter: string[] }>();
  for (const id of common) {
    const [u, m] = await ask('model', { method: 'GET', path: `/model${modelPath(id)}`, query: '' });
    voices.set(id, { upstream: voicesOf(jsonOf(u)), mockrouter: voicesOf(jsonOf(m)) });
  }
  for (const id of common) await ask('endpoints', { method: 'GET', path: `/models${modelPath(id)}/endpoints`, query: '' });
  await ask('key', { method: 'GET', path: '/key', query: '' });

  const creditsRequest: ProbeRequest = { method: 'GET', path: '/credits', query: '' };
  const uCredits = await upstream(creditsRequest);
  if (uCredits.status === 200) comparison.add('credits', describe(creditsRequest), uCredits, await mockrouter(creditsRequest), true);
  else comparison.skip('credits', describe(creditsRequest), uCredits.status, null, `upstream ${uCredits.status}: only a management key may read credits; compared only when the upstream answers 200`);

  if (options.spend) {
    for (const format of SPEECH_FORMATS) await speak(format, common, voices, upstream, mockrouter, comparison, options);
  }
  return comparison.finish();
}

/**
 * One speech call in `format` on both sides, with the first model of `common` the simulator answers 200 for (a
 * voice both records list, else the simulator's first), then the generation lookup of each side's call.
 */
async function speak(
  format: (typeof SPEECH_FORMATS)[number],
  common: readonly string[],
  voices: ReadonlyMap<string, { upstream: string[]; mockrouter: string[] }>,
  upstream: Side,
  mockrouter: Side,
  comparison: Comparison,
  options: ProbeOptions,
): Promise<void> {
  const probe = format === 'mp3' ? 'speech-mp3' : 'speech-pcm';
  for (const model of common) {
    const known = voices.get(model) ?? { upstream: [], mockrouter: [] };
    const voice = known.mockrouter.find((name) => known.upstream.includes(name)) ?? known.mockrouter[0];
    if (voice === undefined) continue;
    const request: ProbeRequest = { method: 'POST', path: '/audio/speech', query: '', json: { model, input: SPEECH_INPUT, voice, response_format: format } };
    const m = await mockrouter(request);
    if (m.status !== 200) continue;
    const u = await upstream(request);
    const described = `POST /api/v1/audio/speech (${model}, voice ${voice}, ${format})`;
    comparison.add(probe, described, u, m, false);
    const uId = u.status === 200 ? u.headers['x-generation-id'] : undefined;
    const mId = m.headers['x-generation-id'];
    if (uId === undefined || mId === undefined) {
      comparison.skip('generation', 'GET /api/v1/generation?id=<the speech call\'s X-Generation-Id>', null, null, `the ${format} call gave no generation id on ${uId === undefined ? 'the upstream' : 'mockrouter'}`);
      return;
    }
    const [uRecord, mRecord] = [await lookUp(upstream, uId, options), await lookUp(mockrouter, mId, options)];
    comparison.add('generation', `GET /api/v1/generation?id=<the ${format} call's X-Generation-Id>`, uRecord, mRecord, true);
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
