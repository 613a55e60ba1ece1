/**
 * How the recorded folder writes what it keeps (`kept-models.ts`, `kept-records.ts`): the paths of its files
 * ({@link folderFiles}), and each file written whole from what is kept, atomically (`folder-writer.ts`), in an
 * order that leaves a folder `--fixtures` loads after any crash: `models.json` before any other file, and an audio
 * file before the index entry naming it ({@link FolderWrites}).
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIO_FOLDER, AUDIO_INDEX_FILE, RECORDED_SCENARIO_FILE, type AudioRecording } from '../core/formats/recording-schema.js';
import { TRANSCRIPTS_FILE } from '../core/formats/transcript-schema.js';
import { FolderWriter } from './folder-writer.js';
import type { KeptModels } from './kept-models.js';
import type { KeptRecords } from './kept-records.js';

/** The folder's files, by role. */
export interface FolderFiles {
  models: string;
  generations: string;
  audioDir: string;
  audioIndex: string;
  scenario: string;
  transcripts: string;
}

/** The paths of the files of the recorded folder `dir`. */
export function folderFiles(dir: string): FolderFiles {
  const audioDir = join(dir, AUDIO_FOLDER);
  return {
    models: join(dir, 'models.json'),
    generations: join(dir, 'generations.json'),
    audioDir,
    audioIndex: join(audioDir, AUDIO_INDEX_FILE),
    scenario: join(dir, 'scenarios', RECORDED_SCENARIO_FILE),
    transcripts: join(dir, TRANSCRIPTS_FILE),
  };
}

/** The writes that keep the folder's files in step with what is kept. */
export class FolderWrites {
  readonly files: FolderFiles;
  private readonly writer = new FolderWriter();
  /** Keys of speech answers whose file is being written: not in the index until it is. */
  readonly audioPending = new Set<string>();
  /** The first write of `models.json` (resolved when the folder had one), which every other file waits for. */
  modelsReady: Promise<void> | undefined;
  /** Whether `models.json` is left as the folder had it (it would pass the limit once written again). */
  modelsKept = false;

  constructor(
    dir: string,
    private readonly models: KeptModels,
    private readonly records: KeptRecords,
  ) {
    this.files = folderFiles(dir);
  }

  /**
   * Writes a speech answer kept (`KeptRecords.keepAudio`): `models.json` first when the folder has none, then its
   * bytes in `audio/<entry.file>`, then `models.json` (rewritten when the model is known, since its
   * `response_formats` follow the formats recorded), then its entry in `audio/index.json` (the entry of the same key
   * leaves the index while its file is rewritten): so the index never names a file that is not whole. A file that
   * could not be written leaves the index.
   *
   * @param wasIndexed whether the index named the key before this answer was kept.
   */
  async writeAudio(entry: AudioRecording, bytes: Uint8Array, wasIndexed: boolean): Promise<'recorded'> {
    this.audioPending.add(entry.key);
    const ours = () => this.records.audio.get(entry.key) === entry;
    try {
      await this.ensureModels();
      // The entry of the same key leaves the index before its file changes under it.
      if (wasIndexed) await this.writeIndex();
      await this.writer.write(join(this.files.audioDir, entry.file), () => bytes);
    } catch (error) {
      if (ours()) {
        this.audioPending.delete(entry.key);
        this.records.deleteAudio(entry.key);
      }
      throw error;
    }
    if (ours()) this.audioPending.delete(entry.key);
    const model = this.models.speech.noteFormat(entry.key);
    if (model !== undefined && this.models.has(model)) await this.writeModels();
    await this.writeIndex();
    return 'recorded';
  }

  /** Writes `models.json` (unless it is left as the folder had it). */
  writeModels(): Promise<void> {
    if (this.modelsKept) return Promise.resolve();
    const written = this.writer.write(this.files.models, () => json(this.models.modelsFile()));
    if (this.modelsReady === undefined) {
      this.modelsReady = written;
      written.catch(() => {
        if (this.modelsReady === written) this.modelsReady = undefined;
      });
    }
    return written;
  }

  /**
   * Resolves once `models.json` is on disk, writing it when the folder has none yet, so that a folder holding
   * anything recorded loads with `--fixtures` (which requires it): an empty catalog until a model is recorded.
   */
  ensureModels(): Promise<void> {
    return this.modelsReady ?? this.writeModels();
  }

  writeGenerations(): Promise<void> {
    return this.writer.write(this.files.generations, () => json({ generations: [...this.records.generations.values()] }));
  }

  writeIndex(): Promise<void> {
    return this.writer.write(this.files.audioIndex, () => json({ recordings: [...this.records.audio.entries()].filter(([key]) => !this.audioPending.has(key)).map(([, entry]) => entry) }));
  }

  writeScenario(): Promise<void> {
    return this.writer.write(this.files.scenario, () => this.records.errors.text());
  }

  writeTranscripts(): Promise<void> {
    return this.writer.write(this.files.transcripts, () => this.records.transcripts.text());
  }

  /**
   * Writes every file again from memory (the folder was deleted), `models.json` first, the audio whose file was
   * deleted with it dropped from the index.
   *
   * @returns how many audio recordings were dropped.
   */
  async rewriteAll(): Promise<number> {
    this.modelsReady = undefined;
    // A models.json left as the folder had it is written again as compact as it came.
    if (this.modelsKept) this.modelsReady = this.writer.write(this.files.models, () => JSON.stringify(this.models.modelsFile()));
    await this.ensureModels();
    let lost = 0;
    for (const [key, entry] of [...this.records.audio.entries()]) {
      if (this.audioPending.has(key) || existsSync(join(this.files.audioDir, entry.file))) continue;
      this.records.deleteAudio(key);
      lost++;
    }
    await Promise.all([
      this.records.generations.size > 0 ? this.writeGenerations() : undefined,
      this.records.errors.size > 0 ? this.writeScenario() : undefined,
      this.records.transcripts.size > 0 ? this.writeTranscripts() : undefined,
      this.records.audio.size > 0 || lost > 0 ? this.writeIndex() : undefined,
    ]);
    return lost;
  }

  /** Resolves once every write asked for so far is on disk. */
  idle(): Promise<void> {
    return this.writer.idle();
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
