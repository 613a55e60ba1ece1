/** One request in full: summary, error envelope, the speech answer (player and waveform, `audio-view.tsx`), request and response. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type JournalEntry, type SpeechModelDetail } from './api.js';
import { AudioView } from './audio-view.js';
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
