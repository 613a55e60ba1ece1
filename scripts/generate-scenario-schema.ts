/**
 * Writes `scenarios/schema.json`, the JSON Schema of scenario files, generated from the same zod schema the
 * loader validates with (`src/core/scenarios/schema.ts`), so editors complete and check scenario files.
 *
 * Run: `npm run scenarios:schema`. A test checks the committed file matches.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ScenarioSchema } from '../src/core/scenarios/schema.js';

/** The schema document as text (pretty-printed, trailing newline). */
export function scenarioJsonSchema(): string {
  const schema = z.toJSONSchema(ScenarioSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ title: 'mockrouter scenario', ...schema }, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = fileURLToPath(new URL('../scenarios/schema.json', import.meta.url));
  writeFileSync(target, scenarioJsonSchema());
  process.stdout.write(`wrote ${target}\n`);
}
