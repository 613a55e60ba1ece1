/**
 * Reading a user-supplied JSON or YAML file (fixtures, scenarios, keys) and validating it with zod
 * (`validateConfig` of `src/core/config.ts`), with one-line errors that name the file, the path inside it and what
 * was expected. Node.js only: browsers take the same data as objects.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as z from 'zod';
import { ConfigFileError, validateConfig, type ConfigErrorClass } from '../core/config.js';

let yamlModule: typeof Yaml | undefined;

/** The `yaml` package, loaded on first use (it costs ~35 ms of start-up, and most runs read no YAML). */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
}

/** Line and column of a `JSON.parse` error, when the engine reports a position. */
function jsonErrorLocation(text: string, err: unknown): string {
  const match = /position (\d+)/.exec(errorText(err));
  if (!match?.[1]) return '';
  const position = Number(match[1]);
  const before = text.slice(0, position);
  return `line ${before.split('\n').length}, column ${position - before.lastIndexOf('\n')}`;
}

/** The value of a YAML text, or where and why it does not parse (`line L, column C`). */
function parseYaml(text: string): { value: unknown } | { location: string; problem: string } {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const [error] = doc.errors;
  if (!error) return { value: doc.toJS() as unknown };
  const pos = lines.linePos(error.pos[0]);
  return { location: `line ${pos.line}, column ${pos.col}`, problem: errorText(error.message) };
}

/**
 * Parses `text` as JSON (files ending `.json`) or YAML (anything else; YAML 1.2 is a superset of JSON).
 *
 * @throws {ConfigFileError} with the line and column of a syntax error.
 */
function parseConfigText(file: string, text: string, ErrorClass: ConfigErrorClass = ConfigFileError): unknown {
  if (extname(file).toLowerCase() !== '.json') {
    const parsed = parseYaml(text);
    if ('value' in parsed) return parsed.value;
    throw new ErrorClass(file, parsed.location, `invalid YAML: ${parsed.problem}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // V8 gives a position for some syntax errors only; YAML (a superset of JSON) locates the others.
    let location = jsonErrorLocation(text, err);
    if (!location) {
      const asYaml = parseYaml(text);
      location = 'location' in asYaml ? asYaml.location : '';
    }
    throw new ErrorClass(file, location, `invalid JSON: ${errorText(err)}`);
  }
}

/**
 * Reads and parses a file (JSON or YAML by extension), without validating it.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing or unreadable or has a syntax error.
 */
export function readConfigValue(file: string, ErrorClass: ConfigErrorClass = ConfigFileError): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ErrorClass(file, '', code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? String(err)})`);
  }
  return parseConfigText(file, text, ErrorClass);
}

/**
 * Reads, parses (JSON or YAML by extension) and validates a file.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing or unreadable, has a syntax error,
 *   or does not match `schema`.
 */
export function readConfigFile<S extends z.ZodType>(file: string, schema: S, ErrorClass: ConfigErrorClass = ConfigFileError): z.output<S> {
  return validateConfig(file, readConfigValue(file, ErrorClass), schema, ErrorClass);
}
