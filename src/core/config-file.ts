/**
 * Reading a user-supplied JSON or YAML file (fixtures, scenarios, keys) and validating it with zod, with
 * one-line errors that name the file, the path inside it and what was expected.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as z from 'zod';
import { describeIssue, formatPath } from './zod-issues.js';

let yamlModule: typeof Yaml | undefined;

/** The `yaml` package, loaded on first use (it costs ~35 ms of start-up, and most runs read no YAML). */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/**
 * A file given by the user is missing, unreadable, not JSON/YAML, or does not match its schema.
 *
 * The message is one line: `<file>: <path inside it>: <what was expected>`, for example
 * `/srv/fixtures/models.json: models[3].pricing.prompt: expected string, received number`.
 * For a syntax error the path is `line L, column C`. When several problems exist, the first is named and the
 * count of the others is appended.
 */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
  /** Path of the file at fault, as it was opened. */
  readonly file: string;
  /** Location inside the file (`models[3].pricing.prompt`, `line 4, column 7`), or `''` for the whole file. */
  readonly location: string;

  constructor(file: string, location: string, problem: string) {
    super(location ? `${file}: ${location}: ${problem}` : `${file}: ${problem}`);
    this.file = file;
    this.location = location;
  }
}

/** A constructor of a {@link ConfigFileError} subclass, so each kind of file raises its own error class. */
export type ConfigErrorClass = new (file: string, location: string, problem: string) => ConfigFileError;

/**
 * Validates `value` against `schema`.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) naming the first issue's path, plus the count of the others.
 */
export function validateConfig<S extends z.ZodType>(file: string, value: unknown, schema: S, ErrorClass: ConfigErrorClass = ConfigFileError): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues;
  if (first === undefined) throw new ErrorClass(file, '', 'does not match its schema');
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : '';
  throw new ErrorClass(file, formatPath(first.path), describeIssue(first) + more);
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
 * Reads, parses (JSON or YAML by extension) and validates a file.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing or unreadable, has a syntax error,
 *   or does not match `schema`.
 */
export function readConfigFile<S extends z.ZodType>(file: string, schema: S, ErrorClass: ConfigErrorClass = ConfigFileError): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ErrorClass(file, '', code === 'ENOENT' ? 'file not found' : `cannot read file (${code ?? String(err)})`);
  }
  return validateConfig(file, parseConfigText(file, text, ErrorClass), schema, ErrorClass);
}
