import type { JournalEntry } from './api.js';
import { Section } from './section.js';

/** Where a transcript came from, in words (`docs/transcription.md`, "Where a transcript comes from"). */
const SOURCES: Readonly<Record<string, string>> = {
  said: 'audio this simulator said: the speech request’s input',
  fixture: 'the fixtures folder’s transcripts.json',
  invented: 'invented from the seed and the audio (not audio this simulator said)',
};

/** What a transcription heard: the audio's format, size and length, where the transcript came from, and the transcript. */
export function TranscriptView({ heard }: { heard: NonNullable<JournalEntry['transcription']> }) {
  return (
    <Section title="Transcript">
      <dl class="facts">
        <dt>Source</dt>
        <dd data-testid="transcript-source">{SOURCES[heard.source] ?? heard.source}</dd>
        <dt>Audio</dt>
        <dd>
          {heard.format ?? 'unknown format'}
          {heard.audio_bytes !== null && <span class="muted"> ({heard.audio_bytes.toLocaleString('en-US')} bytes)</span>}, {heard.duration_s.toFixed(2)} s
          <span class="muted"> · {heard.shape === 'multipart' ? 'multipart upload' : 'JSON'}</span>
        </dd>
        <dt>Format</dt>
        <dd>{heard.response_format}</dd>
      </dl>
      <blockquote class="transcript" data-testid="transcript-text">
        {heard.text === '' ? <span class="muted">(no words)</span> : heard.text}
      </blockquote>
    </Section>
  );
}
