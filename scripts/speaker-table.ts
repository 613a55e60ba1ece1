/**
 * The voice table of `docs/speech.md` ("Voices"): every voice of the package's catalog (`fixtures/models.json`, each
 * speech model's `supported_voices`, in catalog order) with the Flite speaker that says its words
 * (`SPEAKER_TABLE` of `src/core/audio/words/speakers.ts`), as a Markdown table.
 *
 * Run: `npx tsx scripts/speaker-table.ts` prints it, to paste into the page. `test/speech-docs.test.ts` checks the
 * page holds exactly this table.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { normalizeVoice } from '../src/core/audio/voice.js';
import { SPEAKER_TABLE } from '../src/core/audio/words/speakers.js';

interface CatalogModel {
  id: string;
  supported_voices?: string[] | null;
}

/** The table as Markdown lines (header included), each ending in a newline. */
export function speakerTable(): string {
  const { models } = JSON.parse(readFileSync(new URL('../fixtures/models.json', import.meta.url), 'utf8')) as { models: CatalogModel[] };
  const rows = ['| model | voice | Flite voice | mean pitch |', '|---|---|---|---|'];
  for (const model of models) {
    (model.supported_voices ?? []).forEach((voice, i) => {
      const speaker = SPEAKER_TABLE.get(normalizeVoice(voice));
      if (!speaker) throw new Error(`${model.id} voice ${voice} is not in SPEAKER_TABLE`);
      const name = i === 0 ? `\`${model.id}\`` : ''; // the model on its first voice's row only
      rows.push(`| ${name} | \`${voice}\` | \`${speaker.voice}\` | ${speaker.pitchHz === null ? 'its own' : `${speaker.pitchHz} Hz`} |`);
    });
  }
  return rows.map((row) => `${row}\n`).join('');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.stdout.write(speakerTable());
