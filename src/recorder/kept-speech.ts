/**
 * What the `speech` entries of the recorded folder's `models.json` derive from besides the model records
 * (`speech-entries.ts`, `SpeechEvidence`): the folder's own entries, the response formats of the speech calls
 * recorded ({@link KeptSpeech.noteFormat}), and what the speech model discovery answers recorded say each model
 * takes ({@link KeptSpeech.keepDiscovered}). Held with the models `kept-models.ts` keeps.
 *
 * @module
 */
import type { SpeechModelInfo } from '../core/formats/fixture-schema.js';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { splitVariant } from '../core/catalog/variants.js';
import type { SpeechModelResponse } from '../core/catalog/speech-models.js';
import { MeasuredEntries } from './file-budget.js';
import { FILE_BYTES, NOT_JSON, measured, type Outcome, type StoppedKinds } from './refusals.js';
import { discoveryOf, type SpeechDiscovery } from './speech-entries.js';

/** The speech facts the folder holds, by model id. */
export class KeptSpeech {
  /** The folder's own speech entries (from the `models.json` it held). */
  readonly own = new Map<string, SpeechModelInfo>();
  /** The response formats of the speech calls recorded. */
  readonly formats = new Map<string, Set<'mp3' | 'pcm'>>();
  /** What the speech model discovery answers recorded say (measured: a voice list may be long). */
  readonly discovery = new MeasuredEntries<string, SpeechDiscovery>();
  /** The bytes of the `speech` entries as they stand, once measured (forgotten when what they derive from changes). */
  bytesNow: number | undefined;

  /** The response format of a recorded speech key, noted for its model's `response_formats`; returns the model. */
  noteFormat(key: string): string | undefined {
    const body = JSON.parse(key) as { model?: unknown; response_format?: unknown };
    if (typeof body.model !== 'string' || (body.response_format !== 'mp3' && body.response_format !== 'pcm')) return undefined;
    const id = splitVariant(body.model)?.name ?? body.model;
    const formats = this.formats.get(id) ?? new Set();
    if (!formats.has(body.response_format)) this.bytesNow = undefined;
    formats.add(body.response_format);
    this.formats.set(id, formats);
    return id;
  }

  /**
   * Keeps what speech model discovery answers (`GET /audio/speech/models`, `.../{author}/{slug}`) say each model
   * takes ({@link discoveryOf}), replacing what an earlier answer said of it; counted in the bytes of `models.json`
   * and applied, on writing, to the model's record (`supported_voices`) and `speech` entry once its record is
   * recorded.
   *
   * @param modelsBytes the bytes of `models.json` as it stands (`KeptModels.modelsBytes`).
   * @param isKnown whether a record of a model id is kept.
   * @returns the outcome of each answer, in order, and whether one kept names a model already known.
   */
  keepDiscovered(answers: readonly SpeechModelResponse[], stopped: StoppedKinds, modelsBytes: () => number, isKnown: (id: string) => boolean): { outcomes: Outcome[]; known: boolean } {
    let known = false;
    const outcomes = answers.map((answer): Outcome => {
      const refused = stopped.refusalOf('models');
      if (refused !== undefined) return refused;
      const id = splitVariant(answer.id)?.name ?? answer.id;
      const discovery = discoveryOf(answer);
      const bytes = measured(discovery.voices, 2, 'supported_voices');
      if (bytes === undefined) return NOT_JSON;
      if (!this.discovery.has(id) && this.discovery.size >= FOLDER_LIMITS.models) return stopped.stop('models', `more than ${FOLDER_LIMITS.models} speech models were listed`);
      const before = this.discovery.get(id);
      this.discovery.set(id, discovery, bytes);
      this.bytesNow = undefined;
      if (modelsBytes() > FILE_BYTES) {
        if (before === undefined) this.discovery.delete(id);
        else this.discovery.set(id, before, measured(before.voices, 2, 'supported_voices') ?? 0);
        this.bytesNow = undefined;
        return stopped.stop('models', `models.json would pass ${FILE_BYTES} bytes`);
      }
      known ||= isKnown(id);
      return 'recorded';
    });
    return { outcomes, known };
  }
}
