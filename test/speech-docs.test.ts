/**
 * `docs/speech.md`, "Voices": its table is the one `scripts/speaker-table.ts` makes from `SPEAKER_TABLE`
 * (`src/core/audio/words/speakers.ts`) and the catalog. When either changes, print the table again with
 * `npx tsx scripts/speaker-table.ts` and paste it over the page's.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { speakerTable } from '../scripts/speaker-table.js';

it('docs/speech.md shows the voice table scripts/speaker-table.ts makes', () => {
  const lines = readFileSync(new URL('../docs/speech.md', import.meta.url), 'utf8').split('\n');
  const start = lines.indexOf('| model | voice | Flite voice | mean pitch |');
  expect(start, 'the table\'s header line').toBeGreaterThan(0);
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  expect(lines.slice(start, end).map((line) => `${line}\n`).join('')).toBe(speakerTable());
});
