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
 *   refused past {@link MAX_YAML_TOKENS} tokens, {@link MAX_YAML_ANCHORS} anchors and aliases, or a depth past the
 *   limit (flow brackets, block indentation and compact `- - -` items); after parsing, the depth is measured again
 *   on the document with its aliases followed (an alias inside its own anchor nests without end), and aliases may
 *   stand for {@link MAX_YAML_ALIASED_NODES} nodes in all, before the value is built.
 *
 * These are simulator choices, stated in docs/options.md ("Files and folders").
 *
 * @module
 */
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type * as z from 'zod';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';
import { ConfigFileError, type ConfigErrorClass } from '../core/base/errors.js';
import { validateConfig } from '../core/base/validate-config.js';
import { jsonDepthOf } from '../core/base/json-depth.js';
import { findJsonSyntaxError } from './json-syntax-error.js';
import { readUserFile, type UserFileLimits } from './read-user-file.js';

let yamlModule: typeof Yaml | undefined;

/** The `yaml` package, loaded on first use (it costs ~35 ms of start-up, and most runs read no YAML). */
function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim();
}

/** The problem of a file nesting past `FOLDER_LIMITS.depth`. */
const TOO_DEEP = `arrays and objects nest deeper than ${FOLDER_LIMITS.depth} levels; expected at most ${FOLDER_LIMITS.depth}`;

/**
 * How many nodes aliases may stand for, counted as the `yaml` package does (each use of an anchor times the aliases
 * inside it): its default, which refuses an alias bomb ("billion laughs") before it expands.
 */
const MAX_YAML_ALIAS_COUNT = 100;

/**
 * The most tokens a YAML file may hold, as the `yaml` package's lexer splits it (each indicator such as `-`, `:`,
 * `,` or `[`, run of spaces, line break and comment counts one; a scalar two): about 50,000 lines of `key: value`.
 * The package takes about 1 KB of memory per node, so a 10 MiB file of tiny nodes (`[0,0,0,...]`) would take
 * gigabytes; this bound keeps the parse of any YAML file to about 150 MB and a second.
 */
export const MAX_YAML_TOKENS = 400_000;

/**
 * The most anchors (`&a`) and aliases (`*a`) together in a YAML file: the `yaml` package finds the anchor of each
 * alias by a walk over the anchors and aliases before it, so their cost grows with the square of their count.
 */
export const MAX_YAML_ANCHORS = 1_000;

/**
 * The most nodes a YAML file's aliases may stand for in all, each use of an anchor counting the nodes under it
 * again (the value shares them, but validation and answers walk each use).
 */
export const MAX_YAML_ALIASED_NODES = 100_000;

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

/** Where a YAML text is at fault, as an offset, and why. */
interface YamlProblem {
  offset: number | undefined;
  problem: string;
}

/**
 * One pass of the `yaml` package's lexer over `text`, before it is parsed: the first bound it passes
 * ({@link MAX_YAML_TOKENS}, {@link MAX_YAML_ANCHORS}, or `FOLDER_LIMITS.depth`), or undefined.
 *
 * The depth counted here is at most the document's own (plus one: a scalar alone on a more indented line), so no
 * valid document is refused for it: open flow collections (`[`, `{`), the block levels of the indentation (a line
 * indented past the one above opens one), and the compact items of one line (`- - x`: two).
 */
function scanYaml(text: string): YamlProblem | undefined {
  const { CST, Lexer } = yaml();
  const maxDepth = FOLDER_LIMITS.depth;
  let tokens = 0;
  let anchors = 0;
  /** Offset of the current token (the control tokens of the lexer take no room). */
  let offset = 0;
  let nextIsScalar = false;
  let flow = 0;
  let lineStart = true;
  let indent = 0;
  /** Block items (`-`, `?`) of the current line, in block context. */
  let items = 0;
  /** The indentations of the open block levels, increasing. */
  const levels: number[] = [];
  for (const token of new Lexer().lex(text)) {
    if (++tokens > MAX_YAML_TOKENS) return { offset, problem: `more than ${MAX_YAML_TOKENS} YAML tokens; expected at most ${MAX_YAML_TOKENS} (about 50,000 lines)` };
    const at = offset;
    const type: string | null = nextIsScalar ? 'scalar-source' : CST.tokenType(token);
    nextIsScalar = type === 'scalar';
    if (type !== 'scalar' && type !== 'doc-mode' && type !== 'flow-error-end') offset += token.length;
    switch (type) {
      case 'newline':
        lineStart = true;
        indent = 0;
        items = 0;
        continue;
      case 'space':
        if (lineStart) indent = token.length;
        continue;
      case 'comment':
      case 'scalar':
      case 'doc-mode':
      case 'byte-order-mark':
      case 'directive-line':
        continue;
      case 'doc-start':
      case 'doc-end':
        levels.length = 0;
        lineStart = false;
        continue;
    }
    if (lineStart && flow === 0) {
      while (levels.length > 0 && levels[levels.length - 1]! > indent) levels.pop();
      if (levels.length === 0 || levels[levels.length - 1]! < indent) levels.push(indent);
    }
    lineStart = false;
    if (type === 'anchor' || type === 'alias') {
      if (++anchors > MAX_YAML_ANCHORS) return { offset: at, problem: `more than ${MAX_YAML_ANCHORS} anchors and aliases; expected at most ${MAX_YAML_ANCHORS}` };
    } else if ((type === 'seq-item-ind' || type === 'explicit-key-ind') && flow === 0) items++;
    else if (type === 'flow-seq-start' || type === 'flow-map-start') flow++;
    else if ((type === 'flow-seq-end' || type === 'flow-map-end') && flow > 0) flow--;
    else if (type === 'scalar-source' && token.endsWith('\n')) {
      // A block scalar's text ends with its last line break: what follows starts a line.
      lineStart = true;
      indent = 0;
      items = 0;
    }
    if (levels.length + Math.max(0, items - 1) + flow > maxDepth + 1) return { offset: at, problem: TOO_DEEP };
  }
  return undefined;
}

/**
 * The depth of `doc` with its aliases followed, and the nodes its aliases stand for: the first node past
 * `FOLDER_LIMITS.depth` or past {@link MAX_YAML_ALIASED_NODES} (located at the alias that led there, if any), or
 * undefined. Without recursion: a document whose aliases nest without end (an alias inside its own anchor) is
 * refused at the depth limit. An alias that names no anchor is left to the value's build, which names it.
 */
function measureYaml(doc: Yaml.Document.Parsed): YamlProblem | undefined {
  const { isAlias, isCollection, isPair, isScalar } = yaml();
  const maxDepth = FOLDER_LIMITS.depth;
  // Each alias stands for the last node before it with its anchor: found in one walk in document order.
  const targets = new Map<Yaml.Alias, Yaml.Node>();
  const anchored = new Map<string, Yaml.Node>();
  const written: unknown[] = [doc.contents];
  while (written.length > 0) {
    const node = written.pop();
    if (isAlias(node)) {
      const target = anchored.get(node.source);
      if (target) targets.set(node, target);
      continue;
    }
    if (!isCollection(node) && !isScalar(node)) continue;
    if (node.anchor) anchored.set(node.anchor, node);
    if (!isCollection(node)) continue;
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item = node.items[i];
      if (isPair(item)) written.push(item.value, item.key);
      else written.push(item);
    }
  }
  const rangeOf = (node: Yaml.Node) => node.range?.[0];
  let aliased = 0;
  const stack: [node: unknown, depth: number, via: Yaml.Alias | undefined][] = [[doc.contents, 1, undefined]];
  while (stack.length > 0) {
    const [node, depth, via] = stack.pop()!;
    if (isAlias(node)) {
      const target = targets.get(node);
      if (target) stack.push([target, depth, node]);
      continue;
    }
    if (via && ++aliased > MAX_YAML_ALIASED_NODES) {
      return { offset: rangeOf(via), problem: `aliases stand for more than ${MAX_YAML_ALIASED_NODES} nodes in all; expected at most ${MAX_YAML_ALIASED_NODES} (each use of an anchor counts the nodes under it)` };
    }
    if (!isCollection(node)) continue;
    if (depth > maxDepth) return { offset: rangeOf(via ?? node), problem: TOO_DEEP };
    // Pushed last first, so that nodes are met in document order and the first at fault is named.
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item = node.items[i];
      if (isPair(item)) stack.push([item.value, depth + 1, via], [item.key, depth + 1, via]);
      else stack.push([item, depth + 1, via]);
    }
  }
  return undefined;
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
