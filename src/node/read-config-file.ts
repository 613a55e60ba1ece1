/**
 * Reading a user-supplied JSON or YAML file (fixtures, scenarios, keys) and validating it with zod
 * (`validateConfig` of `src/core/config/validate-config.ts`), with one-line errors that name the file, the path inside it and what
 * was expected. Node.js only: browsers take the same data as objects.
 *
 * @module
 */
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as z from 'zod';
import { ConfigFileError, validateConfig, type ConfigErrorClass } from '../core/config/validate-config.js';
import { readUserFile } from './read-user-file.js';

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

/**
 * How many nodes aliases may stand for, counted as the `yaml` package does (each use of an anchor times the aliases
 * inside it): its default, which refuses an alias bomb ("billion laughs") before it expands.
 */
const MAX_YAML_ALIAS_COUNT = 100;

/** `line L, column C` of an offset of the text. */
function lineAndColumn(lines: Yaml.LineCounter, offset: number): string {
  const pos = lines.linePos(offset);
  return `line ${pos.line}, column ${pos.col}`;
}

/**
 * The value of a YAML text, or where and why it does not parse (`line L, column C`): a syntax error, or an alias
 * that expands past {@link MAX_YAML_ALIAS_COUNT} or names no anchor (which the `yaml` package reports only when
 * building the value, without a position).
 */
function parseYaml(text: string): { value: unknown } | { location: string; problem: string } {
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const [error] = doc.errors;
  if (error) return { location: lineAndColumn(lines, error.pos[0]), problem: errorText(error.message) };
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown };
  } catch (err) {
    // The yaml package throws a ReferenceError for an alias (too many uses, no anchor); anything else has no place.
    const alias = err instanceof ReferenceError ? failingAlias(doc) : undefined;
    return { location: alias?.range ? lineAndColumn(lines, alias.range[0]) : '', problem: errorText(err) };
  }
}

/**
 * The alias at which building the value of `doc` throws: builds it again with each alias node recording itself
 * when it is resolved (an own `toJSON` that calls the class's), and returns the last one recorded. Only called
 * once building has failed, so a valid document is built once and untouched.
 */
function failingAlias(doc: Yaml.Document.Parsed): Yaml.Alias | undefined {
  const { Alias, visit } = yaml();
  let last: Yaml.Alias | undefined;
  visit(doc, {
    Alias(_key, node) {
      node.toJSON = function (this: Yaml.Alias, ...args: Parameters<Yaml.Alias['toJSON']>) {
        last = node;
        return Alias.prototype.toJSON.apply(this, args) as unknown;
      };
    },
  });
  try {
    doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch {
    return last;
  }
  return undefined;
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
 * Reads (through `readUserFile` of `./read-user-file.ts`: a regular file of at most 10 MiB, read within a time
 * limit) and parses a file (JSON or YAML by extension), without validating it.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing, unreadable, not a regular file, too
 *   large or too slow to read, or has a syntax error or an alias that expands too far (YAML).
 */
export function readConfigValue(file: string, ErrorClass: ConfigErrorClass = ConfigFileError): unknown {
  const expected = extname(file).toLowerCase() === '.json' ? 'a JSON file' : 'a JSON or YAML file';
  return parseConfigText(file, readUserFile(file, ErrorClass, { expected }), ErrorClass);
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
