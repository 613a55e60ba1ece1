/** The audio of a journal entry: its speech answer (or the audio a transcription heard), played, with its waveform. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ADMIN, errorMessage, reportUnauthorized, type JournalEntry } from './api.js';
import { loadAudio, peaks, type LoadedAudio } from './audio.js';
import { bytes, millis } from './format.js';
import { Section } from './section.js';

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
export function AudioView({ entry }: { entry: JournalEntry }) {
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
