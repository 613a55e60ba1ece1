/**
 * The transcription figures (section 11): `POST /api/v1/audio/transcriptions` against the standalone server
 * (`node bin/mockrouter.js`), each case beside its baseline in the same run:
 *
 * 1. answer time of a 60 s clip, as base64 JSON and as a multipart upload: audio this simulator said (PCM and MP3 of a
 *    ~900-character input, tones) and foreign audio (a WAV of seeded noise, and seeded bytes named `webm`, whose
 *    length is estimated by size). Baseline: the bare `node:http` server (bench/bare-server.ts), which reads the same
 *    request body to its end and replays the mock's recorded answer; requests alternate between the two over
 *    keep-alive connections. The mock's own work is its time minus the baseline's (the upload and the client's
 *    share), median and p95;
 * 2. resident memory of a fresh server: once it has said `distinct` distinct ~10-word sentences (PCM), the
 *    baseline, then after transcribing each of them and `distinct` distinct foreign WAV clips (2 s of seeded noise),
 *    JSON and multipart alternating: the growth is the transcriptions' (the said index, the heard clips, the journal's
 *    entries and records), not the speech's.
 *
 * Goals (bench/README.md): each case answered in ≤ 20 ms plus the upload (the baseline); RSS growth ≤ 50 MB after
 * 1,000 distinct transcriptions. Report: transcription-report.ts.
 *
 * @module
 */
import { Agent, request } from 'node:http';
import { procMemory } from './lifecycle.js';
import { startBare, startMock, stopChild, type Recorded } from './targets.js';

/** One case's timings, ms. */
export interface CaseTimes {
  readonly name: string;
  /** Request body, bytes. */
  readonly bytes: number;
  readonly mock: { readonly median: number; readonly p95: number };
  readonly bare: { readonly median: number; readonly p95: number };
}

/** The section's result. */
export interface TranscriptionResult {
  readonly runs: number;
  readonly cases: readonly CaseTimes[];
  /**
   * Resident memory of a fresh server, bytes: when ready, once it has said the `distinct` clips (before any
   * transcription), and after the `distinct` transcriptions of them and `distinct` of foreign clips.
   */
  readonly memory: { readonly distinct: number; readonly startRss: number; readonly saidRss: number; readonly afterRss: number } | null;
}

const KEY = 'Bearer sk-bench';
const TTS = 'openai/gpt-4o-mini-tts-2025-12-15';
const STT = 'openai/whisper-1';

/** A response read whole: status, raw headers, body. */
interface Answer {
  readonly status: number;
  readonly rawHeaders: string[];
  readonly body: Buffer;
  readonly ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** POSTs `body` to `url` and reads the answer whole: the time from the request's start to the body's end, ms. */
function post(url: string, headers: Record<string, string>, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(body.byteLength) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks), ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The answer as the bare server replays it: framing headers dropped, sent with a `Content-Length`. */
function recorded(answer: Answer): Recorded {
  const headers: string[] = [];
  for (let i = 0; i < answer.rawHeaders.length; i += 2) {
    const name = answer.rawHeaders[i]!;
    if (!/^(content-length|transfer-encoding|connection|keep-alive|date)$/i.test(name)) headers.push(name, answer.rawHeaders[i + 1]!);
  }
  return { status: answer.status, headers, body: answer.body, chunkSize: null };
}

/** Seeded bytes (xorshift32): the same for the same seed and length. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** 16-bit 24 kHz mono PCM with a 44-byte WAV header. */
function wav(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.byteLength, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.byteLength, 40);
  return Buffer.concat([header, pcm]);
}

/** A request body of `audio` named `format`: base64 JSON, or a multipart upload (with its content type). */
async function bodyOf(shape: 'json' | 'multipart', audio: Buffer, format: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  if (shape === 'json') {
    return { headers: { Authorization: KEY, 'Content-Type': 'application/json' }, body: Buffer.from(JSON.stringify({ model: STT, input_audio: { data: audio.toString('base64'), format } })) };
  }
  const form = new FormData();
  form.append('model', STT);
  form.append('file', new Blob([new Uint8Array(audio)]), `clip.${format}`);
  const made = new Request('http://bench/', { method: 'POST', body: form });
  return { headers: { Authorization: KEY, 'Content-Type': made.headers.get('content-type')! }, body: Buffer.from(await made.arrayBuffer()) };
}

/** About 60 s of speech at 15 characters a second: sentences numbered so the input is its own. */
function minuteOfText(): string {
  const sentence = (n: number) => `Sentence number ${n} of the minute-long bench clip is said here. `;
  let text = '';
  for (let n = 1; text.length < 900; n++) text += sentence(n);
  return text.trim();
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

/**
 * Runs the section.
 *
 * @param runs requests per case and server (alternating).
 * @param distinct transcriptions of each kind for the memory figure (0: none).
 */
export async function measureTranscription(options: { runs: number; distinct: number; progress: (line: string) => void }): Promise<TranscriptionResult> {
  const { runs, distinct, progress } = options;
  const mock = await startMock();
  const bare = await startBare();
  try {
    const api = `${mock.origin}/api/v1`;
    const speak = async (input: string, format: 'pcm' | 'mp3') => {
      const answer = await post(`${api}/audio/speech`, { Authorization: KEY, 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ model: TTS, input, voice: 'alloy', response_format: format })));
      if (answer.status !== 200) throw new Error(`speech answered ${answer.status}: ${answer.body.toString()}`);
      return answer.body;
    };
    const text = minuteOfText();
    const clips: Array<[string, Buffer, string]> = [
      ['said, PCM', await speak(text, 'pcm'), 'pcm'],
      ['said, MP3', await speak(text, 'mp3'), 'mp3'],
      ['foreign, WAV', wav(noise(60 * 48_000, 7)), 'wav'],
      ['foreign, webm (by size)', noise(60 * 16_000, 11), 'webm'],
    ];
    const cases: CaseTimes[] = [];
    for (const [name, audio, format] of clips) {
      for (const shape of ['json', 'multipart'] as const) {
        const { headers, body } = await bodyOf(shape, audio, format);
        const first = await post(`${api}/audio/transcriptions`, headers, body);
        if (first.status !== 200) throw new Error(`${name} (${shape}) answered ${first.status}: ${first.body.toString()}`);
        if (name.startsWith('said') && (JSON.parse(first.body.toString()) as { text: string }).text !== text) throw new Error(`${name} (${shape}) did not transcribe to its input`);
        await bare.serve(recorded(first));
        progress(`transcription: ${name}, ${shape} (${(body.byteLength / 1e6).toFixed(2)} MB), ${runs} requests to each server…`);
        const mockMs: number[] = [];
        const bareMs: number[] = [];
        for (let i = 0; i < runs; i++) {
          for (const [into, url] of i % 2 === 0 ? ([[mockMs, api], [bareMs, bare.origin]] as const) : ([[bareMs, bare.origin], [mockMs, api]] as const)) {
            const answer = await post(`${url}/audio/transcriptions`, headers, body);
            if (answer.status !== 200) throw new Error(`${name} (${shape}): ${answer.status}`);
            into.push(answer.ms);
          }
        }
        cases.push({ name: `${name}, ${shape}`, bytes: body.byteLength, mock: { median: quantile(mockMs, 0.5), p95: quantile(mockMs, 0.95) }, bare: { median: quantile(bareMs, 0.5), p95: quantile(bareMs, 0.95) } });
      }
    }
    let memory: TranscriptionResult['memory'] = null;
    if (distinct > 0) {
      const fresh = await startMock();
      try {
        const freshApi = `${fresh.origin}/api/v1`;
        const startRss = procMemory(fresh.child.pid)?.rss ?? 0;
        progress(`transcription: memory, ${distinct} distinct clips said, then transcribed, and ${distinct} distinct foreign ones…`);
        const inputOf = (i: number) => `Clip ${i} of the memory run says these few words, and ${i * 7} more.`;
        const said: Buffer[] = [];
        for (let i = 0; i < distinct; i++) {
          said.push((await post(`${freshApi}/audio/speech`, { Authorization: KEY, 'Content-Type': 'application/json' }, Buffer.from(JSON.stringify({ model: TTS, input: inputOf(i), voice: 'alloy', response_format: 'pcm' })))).body);
        }
        const saidRss = procMemory(fresh.child.pid)?.rss ?? 0;
        for (let i = 0; i < distinct; i++) {
          const heard = await bodyOf(i % 2 === 0 ? 'json' : 'multipart', said[i]!, 'pcm');
          const answer = await post(`${freshApi}/audio/transcriptions`, heard.headers, heard.body);
          if ((JSON.parse(answer.body.toString()) as { text?: string }).text !== inputOf(i)) throw new Error(`memory run: clip ${i} did not transcribe to its input`);
          const foreign = await bodyOf(i % 2 === 0 ? 'multipart' : 'json', wav(noise(2 * 48_000, 1000 + i)), 'wav');
          if ((await post(`${freshApi}/audio/transcriptions`, foreign.headers, foreign.body)).status !== 200) throw new Error(`memory run: foreign clip ${i} failed`);
        }
        memory = { distinct, startRss, saidRss, afterRss: procMemory(fresh.child.pid)?.rss ?? 0 };
      } finally {
        await stopChild(fresh.child);
      }
    }
    return { runs, cases, memory };
  } finally {
    agent.destroy();
    await Promise.all([stopChild(mock.child), stopChild(bare.child)]);
  }
}
