/**
 * What the recorded folder's files besides `models.json` hold, and which answers they keep: generation records
 * (`generations.json`), speech answers (`audio/index.json` and the audio it names), error answers (the scenario
 * `recorded`, `recorded-errors.ts`) and transcripts (`transcripts.json`, `recorded-transcripts.ts`); each refused
 * alone when it would make its file unloadable ({@link Refused}). How the files are written is
 * `folder-writes.ts`'s.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { GenerationRecordSchema, type GenerationRecord } from '../core/formats/fixture-schema.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { AudioIndexSchema, type AudioRecording } from '../core/formats/recording-schema.js';
import { validateConfig } from '../core/base/validate-config.js';
import { FixtureError } from '../core/base/errors.js';
import { parseFixtures } from '../core/formats/validate-fixtures.js';
import { jsonDepthOf, valueDepthOf } from '../core/base/json-depth.js';
import type { FixtureTranscript } from '../core/formats/transcript-schema.js';
import { readConfigValue } from '../node-platform/read-config-file.js';
import { MeasuredEntries, prettyBytesAt } from './file-budget.js';
import { RecordedErrors, type RecordedError } from './recorded-errors.js';
import { RecordedTranscripts } from './recorded-transcripts.js';
import { FILE_BYTES, NOT_JSON, RECORD_DEPTH, TOO_DEEP, measured, type Outcome, type Refused, type StoppedKinds } from './refusals.js';

/** The generation records, speech answers, error answers and transcripts the folder holds, each measured. */
export class KeptRecords {
  readonly generations = new MeasuredEntries<string, GenerationRecord>();
  readonly audio = new MeasuredEntries<string, AudioRecording>();
  /** The bytes of the audio files the index names (or will, once written). */
  private audioBytes = 0;
  readonly errors: RecordedErrors;
  readonly transcripts = new RecordedTranscripts();

  /**
   * @param upstream the upstream's origin and path (no credentials), named in the scenario's description.
   * @param stopped the kinds no longer recorded, shared with `models.json`'s.
   */
  constructor(
    upstream: string,
    private readonly stopped: StoppedKinds,
  ) {
    this.errors = new RecordedErrors(upstream);
  }

  /** Reads the generation records of `file` (inside `dir`), when it exists. */
  loadGenerations(file: string, dir: string): void {
    if (!existsSync(file)) return;
    const parsed = parseFixtures({ models: [], aliases: [], speech: {} }, readConfigValue(file, FixtureError, { within: dir }), 'models.json', file);
    for (const record of parsed.generations) this.generations.set(record.id, record, prettyBytesAt(record, 2));
  }

  /** Reads the audio index `file` (inside `dir`), when it exists; `onEntry` is told each entry's key. */
  loadAudio(file: string, dir: string, onEntry: (key: string) => void): void {
    if (!existsSync(file)) return;
    const index = validateConfig(file, readConfigValue(file, FixtureError, { within: dir }), AudioIndexSchema, FixtureError);
    for (const entry of index.recordings) {
      this.setAudio(entry, prettyBytesAt(entry, 2));
      onEntry(entry.key);
    }
  }

  /** Reads the scenario `file` (inside `dir`), when it exists. */
  loadScenario(file: string, dir: string): void {
    if (existsSync(file)) this.errors.load(file, dir);
  }

  /**
   * Keeps a generation record, replacing one with the same id, unless it nests too deep or `generations.json`
   * would pass its bytes or records.
   */
  keepGeneration(value: unknown): Outcome {
    const stopped = this.stopped.refusalOf('generations');
    if (stopped !== undefined) return stopped;
    if (valueDepthOf(value, RECORD_DEPTH) > RECORD_DEPTH) return TOO_DEEP;
    const parsed = GenerationRecordSchema.safeParse(value);
    if (!parsed.success) return `invalid: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`.trimEnd() as Outcome;
    const record = parsed.data;
    const bytes = measured(record, 2);
    if (bytes === undefined) return NOT_JSON;
    if (!this.generations.has(record.id) && this.generations.size >= FOLDER_LIMITS.generations) {
      return this.stopped.stop('generations', `generations.json would hold more than ${FOLDER_LIMITS.generations} records`);
    }
    if (this.generations.totalWith(record.id, bytes) > FILE_BYTES) return this.stopped.stop('generations', `generations.json would pass ${FILE_BYTES} bytes`);
    this.generations.set(record.id, record, bytes);
    return 'recorded';
  }

  /**
   * Keeps a speech answer's index entry (replacing the entry of the same key), unless the request nests too deep,
   * the file would pass `FOLDER_LIMITS.audioFileBytes`, or the audio, the recordings or the index would pass theirs.
   */
  keepAudio(entry: AudioRecording, bytes: Uint8Array): Outcome {
    const stopped = this.stopped.refusalOf('audio');
    if (stopped !== undefined) return stopped;
    if (jsonDepthOf(entry.key, FOLDER_LIMITS.depth) > FOLDER_LIMITS.depth) return { refused: `its request nests deeper than the ${FOLDER_LIMITS.depth} levels a file may hold`, warn: true };
    if (bytes.length > FOLDER_LIMITS.audioFileBytes) return { refused: `${bytes.length} bytes of audio, more than the ${FOLDER_LIMITS.audioFileBytes} bytes a recorded file may hold`, warn: true };
    const indexBytes = measured(entry, 2);
    if (indexBytes === undefined) return NOT_JSON;
    const known = this.audio.get(entry.key);
    if (known === undefined && this.audio.size >= FOLDER_LIMITS.recordings) return this.stopped.stop('audio', `audio/index.json would hold more than ${FOLDER_LIMITS.recordings} recordings`);
    if (this.audioBytes - (known?.bytes ?? 0) + bytes.length > FOLDER_LIMITS.audioTotalBytes) return this.stopped.stop('audio', `the audio would pass ${FOLDER_LIMITS.audioTotalBytes} bytes in all`);
    if (this.audio.totalWith(entry.key, indexBytes) > FILE_BYTES) return this.stopped.stop('audio', `audio/index.json would pass ${FILE_BYTES} bytes`);
    this.setAudio(entry, indexBytes);
    return 'recorded';
  }

  private setAudio(entry: AudioRecording, indexBytes: number): void {
    this.audioBytes += entry.bytes - (this.audio.get(entry.key)?.bytes ?? 0);
    this.audio.set(entry.key, entry, indexBytes);
  }

  /** Drops the index entry of `key` (its file was not written, or was deleted). */
  deleteAudio(key: string): void {
    this.audioBytes -= this.audio.get(key)?.bytes ?? 0;
    this.audio.delete(key);
  }

  /**
   * Keeps an error answer as a rule of the `recorded` scenario (`recorded-errors.ts`), unless the rule is not one
   * the scenario format takes or the file would pass its bytes.
   *
   * @returns the rule's name, or why it was not kept.
   */
  keepError(error: RecordedError): { rule: string } | Refused {
    const stopped = this.stopped.refusalOf('errors');
    if (stopped !== undefined) return stopped;
    const outcome = this.errors.add(error, FILE_BYTES);
    if ('problem' in outcome) return outcome.full ? this.stopped.stop('errors', outcome.problem) : { refused: outcome.problem, warn: true };
    return { rule: outcome.name };
  }

  /**
   * Keeps the transcript of the audio whose SHA-256 is `sha256` (`recorded-transcripts.ts`), unless
   * `transcripts.json` would pass its entries or bytes.
   */
  keepTranscript(sha256: string, transcript: FixtureTranscript): Outcome {
    const stopped = this.stopped.refusalOf('transcripts');
    if (stopped !== undefined) return stopped;
    const outcome = this.transcripts.add(sha256, transcript, FILE_BYTES);
    if (outcome !== 'recorded') return outcome.full ? this.stopped.stop('transcripts', outcome.problem) : { refused: outcome.problem, warn: true };
    return 'recorded';
  }
}
