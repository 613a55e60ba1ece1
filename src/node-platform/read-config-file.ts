/**
 * Reading a user-supplied JSON or YAML file (fixtures, scenarios, keys) and validating it with zod
 * (`validateConfig` of `src/core/base/validate-config.ts`), with one-line errors that name the file, the path inside it and what
 * was expected. Node.js only: browsers take the same data as objects.
 *
 * Whatever a file holds, reading it takes time and memory in proportion to its size (at most
 * `FOLDER_LIMITS.fileBytes`, 10 MiB), and nothing in it reaches a recursive step (`JSON.parse`'s consumers, zod,
 * `structuredClone`) nested deeper than `FOLDER_LIMITS.depth` (64) arrays and objects (YAML lists and maps):
 *
 * - JSON: the depth is measured on the text before it is parsed (`jsonDepthOf`); a text that does not parse, or
 *   nests too deep, is located by one scan (`findJsonSyntaxError`), never parsed a second time. Messages never
 *   quote the file (V8's do: `Unexpected token 'P', "PATH=/usr/..." is not valid JSON`).
 * - YAML (the `yaml` package, whose parse costs about 1 KB of memory per node): the text is first lexed once and
 *   refused past `MAX_YAML_TOKENS` tokens, `MAX_YAML_ANCHORS` anchors and aliases, or a depth past the
 *   limit (flow brackets, block indentation and compact `- - -` items); after parsing, the depth is measured again
 *   on the document with its aliases followed (an alias inside its own anchor nests without end), and aliases may
 *   stand for `MAX_YAML_ALIASED_NODES` nodes in all, before the value is built (`yaml-limits.ts`).
 *
 * These are simulator choices, stated in docs/options.md ("Files and folders").
 *
 * @module
 */
import { extname } from 'node:path';
import type * as Yaml from 'yaml';
import type * as z from 'zod';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { ConfigFileError, type ConfigErrorClass } from '../core/base/errors.js';
import { validateConfig } from '../core/base/validate-config.js';
import { jsonDepthOf } from '../core/base/json-depth.js';
import { findJsonSyntaxError } from './json-syntax-error.js';
import { readUserFile, type UserFileLimits } from './read-user-file.js';
import { MAX_YAML_ALIAS_COUNT, TOO_DEEP, measureYaml, scanYaml, yaml, type YamlProblem } from './yaml-limits.js';

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
}

/** `line L, column C` (both from 1) of an offset of `text`, in one pass over the text before it. */
function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
    lineStart = at + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * The value of a YAML text, or where and why it does not parse (`line L, column C`): a bound of {@link scanYaml} or
 * {@link measureYaml}, a syntax error, or an alias that expands past {@link MAX_YAML_ALIAS_COUNT} or names no
 * anchor (which the `yaml` package reports only when building the value, without a position).
 */
function parseYaml(text: string): { value: unknown } | { location: string; problem: string } {
  const located = ({ offset, problem }: YamlProblem) => ({ location: offset === undefined ? '' : lineAndColumn(text, offset), problem });
  const scanned = scanYaml(text);
  if (scanned) return located(scanned);
  const { LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  // The package makes an Error for each syntax error: without stack traces, thousands of them cost little.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let doc: Yaml.Document.Parsed;
  try {
    doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  const [error] = doc.errors;
  if (error) {
    // The package stops a nesting too deep for its own recursion with this error.
    const deep = /call stack/i.test(error.message);
    return { location: lineAndColumn(text, error.pos[0]), problem: deep ? TOO_DEEP : `invalid YAML: ${errorText(error.message)}` };
  }
  const measured = measureYaml(doc);
  if (measured) return located(measured);
  try {
    return { value: doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT }) as unknown };
  } catch (err) {
    // The yaml package throws a ReferenceError for an alias (too many uses, no anchor); anything else has no place.
    const alias = err instanceof ReferenceError ? failingAlias(doc) : undefined;
    return { location: alias?.range ? lineAndColumn(text, alias.range[0]) : '', problem: `invalid YAML: ${errorText(err)}` };
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
 * The value of a JSON text, refused when it nests deeper than `FOLDER_LIMITS.depth` or does not parse, with the
 * line and column of the first problem and what was expected there.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`), never quoting the text.
 */
function parseJson(file: string, text: string, ErrorClass: ConfigErrorClass): unknown {
  const maxDepth = FOLDER_LIMITS.depth;
  if (jsonDepthOf(text, maxDepth) <= maxDepth) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Located below, by one scan: V8's message has no position for some errors, and quotes the text.
    }
  }
  const error = findJsonSyntaxError(text, maxDepth);
  if (error) throw new ErrorClass(file, lineAndColumn(text, error.offset), error.tooDeep ? error.problem : `invalid JSON: ${error.problem}`);
  // The scan found the text valid and shallow enough (a bracket count that disagreed): parse it after all.
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ErrorClass(file, '', 'invalid JSON');
  }
}

/**
 * Parses `text` as JSON (files ending `.json`) or YAML (anything else; YAML 1.2 is a superset of JSON).
 *
 * @throws {ConfigFileError} with the line and column of a syntax error or of nesting too deep.
 */
function parseConfigText(file: string, text: string, ErrorClass: ConfigErrorClass = ConfigFileError): unknown {
  if (extname(file).toLowerCase() === '.json') return parseJson(file, text, ErrorClass);
  const parsed = parseYaml(text);
  if ('value' in parsed) return parsed.value;
  throw new ErrorClass(file, parsed.location, parsed.problem);
}

/** Options of {@link readConfigValue}. */
export interface ConfigFileOptions {
  /**
   * The folder the file belongs to (`--fixtures`, `--scenarios`): the file is read only if, links resolved, it is a
   * regular file inside that folder (`UserFileLimits.within` of `src/node-platform/read-user-file.ts`).
   */
  within?: UserFileLimits['within'];
}

/**
 * Reads (through `readUserFile` of `./read-user-file.ts`: a regular file of at most 10 MiB, read within a time
 * limit, inside `options.within` when given) and parses a file (JSON or YAML by extension), without validating it.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing, unreadable, not a regular file, outside
 *   its folder, too large or too slow to read, has a syntax error, nests deeper than `FOLDER_LIMITS.depth` (64), or
 *   (YAML) passes a bound of its tokens, anchors or aliases.
 */
export function readConfigValue(file: string, ErrorClass: ConfigErrorClass = ConfigFileError, options: ConfigFileOptions = {}): unknown {
  const expected = extname(file).toLowerCase() === '.json' ? 'a JSON file' : 'a JSON or YAML file';
  return parseConfigText(file, readUserFile(file, ErrorClass, { expected, ...(options.within === undefined ? {} : { within: options.within }) }), ErrorClass);
}

/**
 * Reads, parses (JSON or YAML by extension) and validates a file.
 *
 * @throws {ConfigFileError} (of class `ErrorClass`) when the file is missing or unreadable, has a syntax error,
 *   or does not match `schema` (see {@link readConfigValue}).
 */
export function readConfigFile<S extends z.ZodType>(file: string, schema: S, ErrorClass: ConfigErrorClass = ConfigFileError, options: ConfigFileOptions = {}): z.output<S> {
  return validateConfig(file, readConfigValue(file, ErrorClass, options), schema, ErrorClass);
}
