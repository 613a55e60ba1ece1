/**
 * Whether a value the recorder is about to write holds a credential of the request, in any of the forms an upstream
 * could echo it in: as sent, in another case, base64 (standard or URL-safe alphabet, at any of the three byte
 * alignments inside a longer base64 text), hex, percent-encoded (once or more), or escaped (`\u0073`, `\x73`,
 * `&#115;`, `&#x73;`). The recorder asks it of every value it writes (`recorder.ts`); a hit drops that recording.
 *
 * @module
 */

/** Shortest credential searched for: a shorter one (`x`, `test`) would match ordinary text. */
export const MIN_CREDENTIAL_LENGTH = 8;

/** Separates the texts {@link anyHoldsCredential} joins: no form of a credential holds it. */
const SEPARATOR = '\u0000';

/** The forms of one credential that are searched for as substrings. */
interface Forms {
  /** It, lower-cased. */
  lower: string;
  /** Its UTF-8 bytes as Latin-1 characters, lower-cased: what a case-folded, decoded text holds. */
  folded: string;
  /** The characters of its base64 that do not depend on its neighbours, for each alignment, both alphabets. */
  base64: string[];
  /** Its UTF-8 bytes in lower-case hex. */
  hex: string;
}

const formsCache = new Map<string, Forms>();

function formsOf(credential: string): Forms {
  let forms = formsCache.get(credential);
  if (forms !== undefined) return forms;
  const bytes = Buffer.from(credential, 'utf8');
  const base64: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    // With `offset` bytes before it, the credential's bits start at bit 8 × offset: the base64 characters that lie
    // wholly inside its bits are the same whatever surrounds it.
    const text = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const inner = text.slice(Math.ceil((4 * offset) / 3), Math.floor((4 * (offset + bytes.length)) / 3));
    if (inner.length > 0) base64.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  forms = { lower: credential.toLowerCase(), folded: bytes.toString('latin1').toLowerCase(), base64: [...new Set(base64)], hex: bytes.toString('hex') };
  if (formsCache.size > 64) formsCache.clear();
  formsCache.set(credential, forms);
  return forms;
}

/** `text` with `%XX` sequences decoded to the byte they name (as a Latin-1 character), repeated while it changes (3 times at most). */
function percentDecoded(text: string): string {
  let out = text;
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(out); i++) out = out.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return out;
}

/** `text` with `\uXXXX`, `\u{X...}`, `\xXX`, `&#N;` and `&#xX;` escapes decoded. */
function unescaped(text: string): string {
  return text.replace(/\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})|&#x([0-9a-f]{1,6});|&#([0-9]{1,7});/gi, (match, braced?: string, u?: string, x?: string, hexRef?: string, decRef?: string) => {
    const code = decRef !== undefined ? Number(decRef) : parseInt(braced ?? u ?? x ?? hexRef ?? '', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : match;
  });
}

/**
 * Whether `value` holds `credential` in any of the forms of the module's description.
 *
 * @example holdsCredential('token c2stbGl2ZS1zZWNyZXQ=', 'sk-live-secret') // true (base64)
 */
export function holdsCredential(value: string, credential: string): boolean {
  if (credential === '') return false;
  const forms = formsOf(credential);
  const folded = value.toLowerCase();
  if (folded.includes(forms.lower) || folded.includes(forms.folded) || folded.includes(forms.hex)) return true;
  if (/\s/.test(value) ? hasBase64(value.replace(/\s+/g, ''), forms) || hasBase64(value, forms) : hasBase64(value, forms)) return true;
  // Escapes and percent-encoding, in either order (`%5Cu0073`, `\u0025`), decoded as far as they go.
  const decoded = percentDecoded(unescaped(percentDecoded(value)));
  if (decoded !== value && latin1Of(decoded).toLowerCase().includes(forms.folded)) return true;
  return false;
}

function hasBase64(text: string, forms: Forms): boolean {
  return forms.base64.some((form) => text.includes(form));
}

/** `text` with each character past U+00FF as its UTF-8 bytes (Latin-1 characters), so it compares with {@link Forms.folded}. */
function latin1Of(text: string): string {
  return /[\u0100-\uffff]/.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/**
 * Whether any text of `value` (a string, or a JSON-like value: every string of it at any depth, object keys too)
 * holds any of `credentials` ({@link holdsCredential}); credentials shorter than {@link MIN_CREDENTIAL_LENGTH} are
 * not searched for. Walks without recursion, so a value of any depth is safe.
 */
export function anyHoldsCredential(value: unknown, credentials: readonly string[]): boolean {
  const searched = credentials.filter((c) => c.length >= MIN_CREDENTIAL_LENGTH);
  if (searched.length === 0) return false;
  const texts: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') texts.push(current);
    else if (current !== null && typeof current === 'object') {
      if (Array.isArray(current)) for (const child of current as unknown[]) stack.push(child);
      else
        for (const [name, child] of Object.entries(current)) {
          texts.push(name);
          stack.push(child);
        }
    }
  }
  const joined = texts.join(SEPARATOR);
  return searched.some((credential) => holdsCredential(joined, credential));
}
