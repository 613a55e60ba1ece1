/**
 * The bounds a YAML file of the user's is held to before its value is built (`read-config-file.ts` reads it): the
 * `yaml` package, loaded on first use; the most tokens, anchors and aliases, and nodes behind aliases a file may
 * hold; one pass of the package's lexer that stops at the first bound passed ({@link scanYaml}), and the depth and
 * aliased nodes of the parsed document, its aliases followed ({@link measureYaml}). These are simulator choices,
 * stated in docs/options.md ("Files and folders").
 *
 * @module
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { FOLDER_LIMITS } from '../core/formats/folder-limits.js';

let yamlModule: typeof Yaml | undefined;

/** The `yaml` package, loaded on first use (it costs ~35 ms of start-up, and most runs read no YAML). */
export function yaml(): typeof Yaml {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return yamlModule;
}

/** The problem of a file nesting past `FOLDER_LIMITS.depth`. */
export const TOO_DEEP = `arrays and objects nest deeper than ${FOLDER_LIMITS.depth} levels; expected at most ${FOLDER_LIMITS.depth}`;

/**
 * How many nodes aliases may stand for, counted as the `yaml` package does (each use of an anchor times the aliases
 * inside it): its default, which refuses an alias bomb ("billion laughs") before it expands.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

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
/** Where a YAML text is at fault, as an offset, and why. */
export interface YamlProblem {
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
export function scanYaml(text: string): YamlProblem | undefined {
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
export function measureYaml(doc: Yaml.Document.Parsed): YamlProblem | undefined {
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
