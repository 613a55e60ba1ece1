/**
 * Writes the generated files of `scenarios/`:
 *
 * - `scenarios/schema.json`, the JSON Schema of scenario files, generated from the same zod schema the loader
 *   validates with (`src/core/scenarios/schema.ts`), so editors complete and check scenario files;
 * - `scenarios/builtins.json`, every built-in scenario of `scenarios/*.yaml` as JSON data, in name order: what the
 *   package loads at run time, in Node.js and in browsers alike (no YAML parser in either).
 *
 * Run: `npm run scenarios:generate`. A test checks the committed files match.
 *
 * @module
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ScenarioSchema } from '../src/core/scenarios/schema.js';

const SCENARIOS_DIR = new URL('../scenarios/', import.meta.url);

/** The schema document as text (pretty-printed, trailing newline). */
export function scenarioJsonSchema(): string {
  const schema = z.toJSONSchema(ScenarioSchema, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify({ title: 'mockrouter scenario', ...schema }, null, 2)}\n`;
}

/**
 * `scenarios/builtins.json` as text: `{"scenarios": [{"source": "scenarios/<file>", "scenario": <definition>}]}`,
 * each definition the YAML file's value, checked against the scenario schema.
 *
 * @throws Error naming the file when a built-in does not match the schema.
 */
export function builtinScenariosJson(): string {
  const files = readdirSync(SCENARIOS_DIR).filter((f) => /\.ya?ml$/.test(f)).sort();
  const scenarios = files.map((file) => {
    const scenario = parseYaml(readFileSync(new URL(file, SCENARIOS_DIR), 'utf8')) as unknown;
    const checked = ScenarioSchema.safeParse(scenario);
    if (!checked.success) throw new Error(`scenarios/${file}: ${checked.error.message}`);
    return { source: `scenarios/${file}`, scenario };
  });
  return `${JSON.stringify({ scenarios }, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [name, text] of [
    ['schema.json', scenarioJsonSchema()],
    ['builtins.json', builtinScenariosJson()],
  ] as const) {
    const target = fileURLToPath(new URL(name, SCENARIOS_DIR));
    writeFileSync(target, text);
    process.stdout.write(`wrote ${target}\n`);
  }
}
