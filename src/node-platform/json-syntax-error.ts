/**
 * Where and why a JSON text is not JSON (RFC 8259), or nests too deep: one pass over the text, no value built and
 * no recursion, so that any text of any size or depth is located in linear time and constant memory (beside a
 * stack of at most `maxDepth` brackets). The reader of option files (`src/node-platform/read-config-file.ts`) calls it once
 * `JSON.parse` has refused a text or `jsonDepthOf` has found it too deep, to name the line and column: V8's own
 * messages give no position for some errors, and quote the text around the error, which a message must not.
 *
 * The problems it names say what was expected there and never quote the text.
 *
 * @module
 */

/** The first problem of a JSON text: the offset (UTF-16 code units) of the character at fault, and what was expected. */
export interface JsonSyntaxError {
  /** Offset of the character at fault; the text's length when the text ended too soon. */
  offset: number;
  /** What is wrong and what was expected there (`expected ',' or ']' after an array element`). */
  problem: string;
  /** Whether the problem is nesting deeper than `maxDepth` (the text may be valid JSON), not a syntax error. */
  tooDeep: boolean;
}

const VALUE = 'expected a value (an object, array, string, number, true, false or null)';

/** What {@link findJsonSyntaxError}'s value scan answers when the value opens an array or object. */
const OPENED = Symbol('opened');

/** Whitespace JSON allows between tokens: space, tab, line feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHex(code: number): boolean {
  return isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * The first problem of `text` as JSON, scanning from its start: a syntax error, or a bracket that opens an array or
 * object past `maxDepth` levels (`tooDeep`); undefined when the text is JSON of at most `maxDepth` levels.
 *
 * @param maxDepth the deepest nesting of arrays and objects taken (`FOLDER_LIMITS.depth`).
 */
export function findJsonSyntaxError(text: string, maxDepth: number): JsonSyntaxError | undefined {
  const fail = (offset: number, problem: string, tooDeep = false): JsonSyntaxError => ({ offset, problem, tooDeep });
  /** The brackets of the open arrays and objects, innermost last: `[` (0x5b) or `{` (0x7b). */
  const open: number[] = [];
  const end = text.length;
  let i = 0;
  const skipSpace = () => {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
  };
  if (text.charCodeAt(0) === 0xfeff) return fail(0, 'a byte order mark (U+FEFF) at the start; expected JSON without one');

  /** Scans a string from its opening quote at `i`; leaves `i` past the closing quote. */
  const scanString = (): JsonSyntaxError | undefined => {
    const start = i;
    i++;
    for (;;) {
      if (i >= end) return fail(start, 'a string that is never closed; expected a closing double quote');
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        i++;
        return undefined;
      }
      if (code < 0x20) return fail(i, 'a control character (U+0000 to U+001F) in a string; expected it escaped, as \\n, \\t or \\u0000');
      if (code === 0x5c) {
        const escaped = text.charCodeAt(i + 1);
        if (escaped === 0x75) {
          for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return fail(i, 'a \\u escape without four hex digits; expected \\u and four hex digits');
          i += 6;
        } else if ('"\\/bfnrt'.includes(text[i + 1] ?? 'x')) i += 2;
        else return fail(i, 'an escape JSON does not have; expected \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits');
      } else i++;
    }
  };

  /** Scans a number starting at `i` (a `-` or a digit); leaves `i` past it. */
  const scanNumber = (): JsonSyntaxError | undefined => {
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) {
      i++;
      if (isDigit(text.charCodeAt(i))) return fail(i - 1, 'a number with a leading zero; expected no leading zeros');
    } else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return fail(i, 'a number without digits; expected a digit');
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return fail(i, 'a number without digits after its decimal point; expected a digit');
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) return fail(i, 'a number without digits in its exponent; expected a digit');
      while (isDigit(text.charCodeAt(i))) i++;
    }
    return undefined;
  };

  /** Scans a value at `i` (after spaces): `OPENED` when it opens an array or object (pushed, `i` past the bracket). */
  const scanValue = (): JsonSyntaxError | typeof OPENED | undefined => {
    skipSpace();
    if (i >= end) return fail(end, `the file ends too soon; ${VALUE}`);
    const code = text.charCodeAt(i);
    if (code === 0x5b || code === 0x7b) {
      if (open.length >= maxDepth) return fail(i, `arrays and objects nest deeper than ${maxDepth} levels; expected at most ${maxDepth}`, true);
      open.push(code);
      i++;
      return OPENED;
    }
    if (code === 0x22) return scanString();
    if (code === 0x2d || isDigit(code)) return scanNumber();
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return undefined;
      }
    }
    return fail(i, VALUE);
  };

  // After each value: close containers, or take a comma and the next member or element.
  let scanned = scanValue();
  for (;;) {
    if (scanned !== undefined && scanned !== OPENED) return scanned;
    /** Whether the container just opened awaits its first member or element (none yet). */
    const empty = scanned === OPENED;
    skipSpace();
    const container = open[open.length - 1];
    if (container === undefined) return i < end ? fail(i, 'expected the end of the file after the value') : undefined;
    const inArray = container === 0x5b;
    const after = inArray ? "expected ',' or ']' after an array element" : "expected ',' or '}' after an object member";
    if (i >= end) return fail(end, `the file ends too soon; ${empty ? (inArray ? VALUE : "expected a double-quoted name or '}'") : after}`);
    const code = text.charCodeAt(i);
    if (code === (inArray ? 0x5d : 0x7d)) {
      open.pop();
      i++;
      scanned = undefined;
      continue;
    }
    if (!empty) {
      if (code !== 0x2c) return fail(i, after);
      i++;
    }
    if (!inArray) {
      skipSpace();
      if (i >= end) return fail(end, 'the file ends too soon; expected a double-quoted name');
      if (text.charCodeAt(i) !== 0x22) return fail(i, empty ? "expected a double-quoted name or '}'" : 'expected a double-quoted name');
      const name = scanString();
      if (name) return name;
      skipSpace();
      if (i >= end) return fail(end, "the file ends too soon; expected ':' after a name");
      if (text.charCodeAt(i) !== 0x3a) return fail(i, "expected ':' after a name");
      i++;
    }
    scanned = scanValue();
  }
}
