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

/** `['models', 3, 'pricing', 'prompt']` → `models[3].pricing.prompt`; odd keys are quoted: `speech["a/b"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** One zod issue as a short phrase: `required key is missing (expected string)`, `expected number, received string`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const message = issue.message.replace(/^Invalid input: /, '');
  if (issue.code !== 'invalid_type') return message;
  const expected = issue.expected === 'int' ? 'integer' : issue.expected;
  const received = /received (\w+)$/.exec(message)?.[1];
  if (received === 'undefined') return `required key is missing (expected ${expected})`;
  return received ? `expected ${expected}, received ${received}` : message;
}

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

/**
 * Parses `text` as JSON (files ending `.json`) or YAML (anything else; YAML 1.2 is a superset of JSON).
 *
 * @throws {ConfigFileError} with the line and column of a syntax error.
 */
export function parseConfigText(file: string, text: string, ErrorClass: ConfigErrorClass = ConfigFileError): unknown {
  if (extname(file).toLowerCase() === '.json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      // V8 gives a position for some syntax errors only; YAML (a superset of JSON) locates the others.
      const location = jsonErrorLocation(text, err) || yamlErrorLocation(text) || '';
      throw new ErrorClass(file, location, `invalid JSON: ${errorText(err)}`);
    }
  }
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const [error] = doc.errors;
  if (error) {
    const pos = lines.linePos(error.pos[0]);
    throw new ErrorClass(file, `line ${pos.line}, column ${pos.col}`, `invalid YAML: ${errorText(error.message)}`);
  }
  return doc.toJS() as unknown;
}

/** Line and column of the first syntax error YAML finds in `text`, or `undefined`. */
function yamlErrorLocation(text: string): string | undefined {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const [error] = parseDocument(text, { prettyErrors: false, lineCounter: lines }).errors;
  if (!error) return undefined;
  const pos = lines.linePos(error.pos[0]);
  return `line ${pos.line}, column ${pos.col}`;
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
