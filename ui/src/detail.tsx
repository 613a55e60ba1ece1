/** One request in full: summary, error envelope, the speech answer (player and waveform), request and response. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ADMIN, api, errorMessage, reportUnauthorized, type JournalEntry, type SpeechModelDetail } from './api.js';
import { loadAudio, peaks, type LoadedAudio } from './audio.js';
import { bytes, millis, pathWithQuery, responseBytes, statusView } from './format.js';
import { Section } from './section.js';
import { TranscriptView } from './transcript.js';

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  const names = Object.keys(headers).sort();
  if (names.length === 0) return <p class="muted">No headers.</p>;
  return (
    <table class="kv">
      <caption class="sr-only">{label}</caption>
      <tbody>
        {names.map((name) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td>{headers[name]}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A button that copies `text`, saying so for a moment. */
function CopyButton({ text, label }: { text: string; label: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone(true);
      setTimeout(() => setDone(false), 1500);
    } catch {
      window.prompt('Copy:', text);
    }
  };
  return (
    <button type="button" class="small" aria-label={label} onClick={() => void copy()}>
      {done ? 'Copied' : 'Copy'}
    </button>
  );
}

/**
 * The waveform of `audio`, with the played part shaded; a click seeks the player. `cut` (0 to 1 of the whole
 * answer) marks where a cut answer stopped: a line there, and what the client never got drawn faint.
 */
function Waveform({ audio, player, cut }: { audio: LoadedAudio; player: HTMLAudioElement | null; cut: number | undefined }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [position, setPosition] = useState(0);

  useEffect(() => {
    if (!player) return;
    let frame = 0;
    const update = () => {
      setPosition(player.duration > 0 ? player.currentTime / player.duration : 0);
      if (!player.paused) frame = requestAnimationFrame(update);
    };
    const events = ['play', 'pause', 'seeked', 'timeupdate', 'ended'] as const;
    for (const name of events) player.addEventListener(name, update);
    return () => {
      cancelAnimationFrame(frame);
      for (const name of events) player.removeEventListener(name, update);
    };
  }, [player]);

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    const draw = () => {
      const ratio = window.devicePixelRatio || 1;
      const width = Math.max(1, Math.round(element.clientWidth * ratio));
      const height = Math.max(1, Math.round(element.clientHeight * ratio));
      if (element.width !== width) element.width = width;
      if (element.height !== height) element.height = height;
      const context = element.getContext('2d');
      if (!context) return;
      const style = getComputedStyle(element);
      const played = style.getPropertyValue('--wave-played').trim() || '#4f46e5';
      const rest = style.getPropertyValue('--wave').trim() || '#94a3b8';
      const lost = style.getPropertyValue('--wave-lost').trim() || '#dde1e6';
      context.clearRect(0, 0, width, height);
      const columns = Math.max(1, Math.floor(width / ratio));
      const bars = peaks(audio.samples, columns);
      const mid = height / 2;
      const column = width / columns;
      for (let c = 0; c < columns; c++) {
        const min = bars[c * 2]!;
        const max = bars[c * 2 + 1]!;
        const top = mid - Math.max(max, 0.004) * mid;
        const bottom = mid - Math.min(min, -0.004) * mid;
        context.fillStyle = cut !== undefined && c / columns >= cut ? lost : c / columns < position ? played : rest;
        context.fillRect(c * column, top, Math.max(1, column - (column > 2 ? 1 : 0)), bottom - top);
      }
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(element);
    return () => observer.disconnect();
  }, [audio, position, cut]);

  const seek = (event: MouseEvent) => {
    const element = canvas.current;
    if (!player || !element || !(player.duration > 0)) return;
    const box = element.getBoundingClientRect();
    player.currentTime = ((event.clientX - box.left) / box.width) * player.duration;
  };

  const label = `Waveform of ${audio.duration.toFixed(2)} s of audio${cut === undefined ? '' : `, cut after ${(cut * audio.duration).toFixed(2)} s`}`;
  return (
    <div class="wave">
      <canvas ref={canvas} class="waveform" role="img" aria-label={label} onClick={seek} />
      {cut !== undefined && (
        <span class="cut-mark" data-testid="cut-mark" data-fraction={cut} style={{ left: `${(cut * 100).toFixed(3)}%` }} aria-hidden="true">
          <span class={`cut-label${cut > 0.9 ? ' before' : ''}`}>cut</span>
        </span>
      )}
    </div>
  );
}

/**
 * Where a cut answer stopped, as a fraction (0 to 1) of the whole answer's bytes (`response_bytes` of
 * `byteLength`; PCM is linear in bytes, and MP3 at a constant bit rate nearly so); `undefined` for an answer that
 * was not cut.
 */
function cutFraction(entry: JournalEntry, byteLength: number): number | undefined {
  if (entry.body_end !== 'cut' || entry.response_bytes === null || !(byteLength > 0)) return undefined;
  return Math.min(1, Math.max(0, entry.response_bytes / byteLength));
}

/** The speech answer of `entry` (or the audio a transcription heard): fetched from `GET /__mock/requests/<seq>/audio`, played and drawn. */
function AudioView({ entry }: { entry: JournalEntry }) {
  const [audio, setAudio] = useState<LoadedAudio>();
  const [problem, setProblem] = useState('');
  const [player, setPlayer] = useState<HTMLAudioElement | null>(null);
  const described = entry.audio;

  useEffect(() => {
    const controller = new AbortController();
    let loaded: LoadedAudio | undefined;
    setAudio(undefined);
    setProblem('');
    (async () => {
      const response = await fetch(`${ADMIN}/requests/${entry.seq}/audio`, { credentials: 'same-origin', signal: controller.signal });
      if (response.status === 401) reportUnauthorized();
      if (!response.ok) throw new Error(await errorMessage(response));
      const contentType = response.headers.get('Content-Type') ?? described?.content_type ?? 'audio/mpeg';
      loaded = await loadAudio(await response.arrayBuffer(), contentType);
      if (controller.signal.aborted) URL.revokeObjectURL(loaded.url);
      else setAudio(loaded);
    })().catch((error: unknown) => {
      if (!controller.signal.aborted) setProblem(`The audio could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
    });
    return () => {
      controller.abort();
      if (loaded) URL.revokeObjectURL(loaded.url);
    };
  }, [entry.seq, described?.content_type]);

  return (
    <Section title="Audio">
      {described && (
        <dl class="facts">
          <dt>Speech</dt>
          <dd data-testid="audio-speech">{described.speech ?? 'tones'}</dd>
          <dt>Audio length</dt>
          <dd data-testid="audio-duration-ms">
            {described.duration_ms !== null ? millis(described.duration_ms) : audio ? `${audio.duration.toFixed(2)} s` : 'known once said'}
          </dd>
          <dt>Format</dt>
          <dd>
            {described.format} <span class="muted">({described.content_type})</span>
          </dd>
          <dt>Voice</dt>
          <dd>{described.voice}</dd>
          <dt>Speed</dt>
          <dd>{described.speed}</dd>
        </dl>
      )}
      {entry.body_end === 'cut' && (
        <p class="muted">
          The client got only {bytes(entry.response_bytes)} before the cut (the line on the waveform); this is the whole answer, rendered again.
        </p>
      )}
      {audio ? (
        <div class="player" data-decoded-duration={audio.duration}>
          <Waveform audio={audio} player={player} cut={cutFraction(entry, audio.byteLength)} />
          <audio ref={setPlayer} controls preload="auto" src={audio.url} aria-label={`${entry.operation === 'transcription' ? 'Audio transcribed by' : 'Speech answer of'} request ${entry.seq}`} />
        </div>
      ) : problem ? (
        <p class="problem">{problem}</p>
      ) : (
        <p class="muted">Loading the audio…</p>
      )}
    </Section>
  );
}

/**
 * What the model of a speech request takes, beside what the request asked for (`GET /__mock/speech-models/<id>`): its
 * voices (the request's marked, or a note when it is not among them) and formats, so a rejected voice is obvious.
 */
function SpeechModelView({ entry }: { entry: JournalEntry }) {
  const body = entry.body !== null && typeof entry.body === 'object' ? (entry.body as { model?: unknown; voice?: unknown; response_format?: unknown }) : {};
  const model = typeof body.model === 'string' ? body.model : undefined;
  const [found, setFound] = useState<SpeechModelDetail['data'] | null>();
  useEffect(() => {
    if (model === undefined) return;
    const controller = new AbortController();
    setFound(undefined);
    api<SpeechModelDetail>(`/speech-models/${model.split('/').map(encodeURIComponent).join('/')}`, { signal: controller.signal }).then(
      (answer) => setFound(answer.data),
      () => controller.signal.aborted || setFound(null),
    );
    return () => controller.abort();
  }, [model]);
  if (model === undefined || found === undefined) return null;
  if (found === null) return <Section title="Model">{<p class="muted">{model} is no speech model of this catalog.</p>}</Section>;
  const parameters = found.output_modalities[0]?.supported_parameters ?? {};
  const asked = typeof body.voice === 'string' ? body.voice : undefined;
  const voices = parameters.voice?.type === 'enum' ? parameters.voice.values : null;
  const format = typeof body.response_format === 'string' ? body.response_format : 'pcm';
  return (
    <Section title="Model">
      <dl class="facts" data-testid="speech-model">
        <dt>Model</dt>
        <dd>{found.name}</dd>
        <dt>Voices</dt>
        <dd data-testid="model-voices">
          {voices === null ? (
            'any voice id'
          ) : (
            <>
              {asked !== undefined && !voices.includes(asked) && <p class="problem">The request's voice "{asked}" is not one of these:</p>}
              {voices.map((voice, i) => (
                <span key={voice}>
                  {i > 0 && ', '}
                  {voice === asked ? <mark>{voice}</mark> : voice}
                </span>
              ))}
            </>
          )}
        </dd>
        <dt>Formats</dt>
        <dd data-testid="model-formats">
          {(parameters.response_format?.values ?? []).map((value, i) => (
            <span key={value}>
              {i > 0 && ', '}
              {value === format ? <mark>{value}</mark> : value}
            </span>
          ))}
        </dd>
        {parameters.speed && (
          <>
            <dt>Speed</dt>
            <dd>
              {parameters.speed.min} to {parameters.speed.max}
            </dd>
          </>
        )}
      </dl>
    </Section>
  );
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The detail panel of `entry`. Escape or the close button closes it (focus goes back to the row). */
export function Detail({ entry, onClose }: { entry: JournalEntry; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [entry.seq]);
  const status = statusView(entry);
  const error = entry.error;
  const isSpeech = entry.operation === 'speech';
  const heard = entry.operation === 'transcription' && entry.status === 200 ? entry.transcription : undefined;
  const hasAudio = entry.audio != null || (isSpeech && entry.status === 200 && entry.audio === undefined) || typeof heard?.audio_sha256 === 'string';
  const size = responseBytes(entry);
  return (
    <aside class="detail" aria-labelledby="detail-title">
      <header class="detail-head">
        <h2 id="detail-title" tabIndex={-1} ref={heading}>
          <span class="seq">#{entry.seq}</span> {entry.method} <span class="path">{pathWithQuery(entry)}</span>
        </h2>
        <button type="button" class="close" onClick={onClose} aria-label="Close the detail (Escape)">
          ×
        </button>
      </header>
      <div class="detail-body">
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <span class={`status ${status.tone}`} title={status.title}>
              {status.label}
            </span>{' '}
            <span class="muted">{status.title.replace(/^\d+ /, '')}</span>
          </dd>
          <dt>Time</dt>
          <dd>{entry.time_iso}</dd>
          <dt>Operation</dt>
          <dd>{entry.operation ?? <span class="muted">none (unknown path)</span>}</dd>
          <dt>Scenario</dt>
          <dd>{entry.scenario ? `${entry.scenario}${entry.rule && entry.rule !== entry.scenario ? ` / ${entry.rule}` : ''}` : <span class="muted">none</span>}</dd>
          <dt>Session</dt>
          <dd>{entry.session}</dd>
          <dt>Replica</dt>
          <dd data-testid="replica">{entry.replica}</dd>
          <dt>Duration</dt>
          <dd>{entry.duration_ms === null ? 'still streaming' : millis(entry.duration_ms)}</dd>
          {size !== null && (
            <>
              <dt>Bytes</dt>
              <dd>{bytes(size)}</dd>
            </>
          )}
          {entry.generation_id && (
            <>
              <dt>Generation</dt>
              <dd class="generation">
                <code data-testid="generation-id">{entry.generation_id}</code> <CopyButton text={entry.generation_id} label="Copy the generation id" />
                <span class="hint">
                  Its record: <code>GET /api/v1/generation?id=…</code> with any key.
                </span>
              </dd>
            </>
          )}
        </dl>
        {error && (
          <Section title="Error">
            <p class="error-message">
              <strong>{error.error.code}</strong> {error.error.message}
            </p>
            {error.user_id && <p class="muted">user_id: {error.user_id}</p>}
            {error.error.metadata && <pre>{json(error.error.metadata)}</pre>}
          </Section>
        )}
        {heard && <TranscriptView heard={heard} />}
        {hasAudio && <AudioView entry={entry} />}
        {isSpeech && <SpeechModelView entry={entry} />}
        <Section title="Request">
          <h4>Headers</h4>
          <Headers headers={entry.headers} label="Request headers" />
          <h4>Body</h4>
          {entry.body === null || entry.body === undefined ? <p class="muted">No JSON body.</p> : <pre>{json(entry.body)}</pre>}
        </Section>
        <Section title="Response">
          <h4>Headers</h4>
          <Headers headers={entry.response_headers} label="Response headers" />
        </Section>
      </div>
    </aside>
  );
}
