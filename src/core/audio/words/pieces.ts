/**
 * The text of a speech request cut into the pieces that are synthesized one at a time for speech with words: sentences
 * (`Intl.Segmenter`, sentence granularity, English rules), each cut further into what Flite can say and what it
 * cannot (`docs/behaviour.md`, "Speech with words").
 *
 * - What Flite reads: the text after Unicode NFKD with combining marks removed (`café` → `cafe`, `…` → `...`),
 *   typographic quotes and dashes as their ASCII forms, control characters as spaces: printable ASCII.
 * - What it cannot: any other character (other scripts, emoji, symbols such as `€`). A run of them, with the spaces
 *   inside it, is a `tones` piece: the simulator's tones for that text.
 * - A `words` piece is at most {@link MAX_PIECE_CHARS} × speed characters (from {@link MIN_PIECE_CHARS} to
 *   {@link MAX_PIECE_CHARS} × 2), a digit counting {@link DIGIT_WEIGHT} (Flite reads `1234` as "one thousand two
 *   hundred thirty four"), cut at the last clause mark or space before the bound; a run of more than
 *   {@link MAX_TOKEN_CHARS} characters without a space (a URL, a number, `aaaa…`, which Flite spells or reads digit by
 *   digit) is cut into parts of that many. So one synthesis says at most about 5 s of speech, and never holds the
 *   event loop for long.
 *
 * @module
 */

/** Longest `words` piece at speed 1, in characters (about 5 s of speech, about 100 ms of synthesis warm). */
export const MAX_PIECE_CHARS = 80;
/** Lower bound of the piece length at slow speeds, in characters. */
export const MIN_PIECE_CHARS = 20;
/** Longest run of characters without a space that is said as one token. */
export const MAX_TOKEN_CHARS = 12;
/** How many characters a digit counts for in a piece's length. */
export const DIGIT_WEIGHT = 3;

/** A piece to synthesize: `words` (printable ASCII for Flite) or `tones` (the original text of a span Flite cannot say). */
export interface SpeechPiece {
  readonly kind: 'words' | 'tones';
  readonly text: string;
}

/** Characters NFKD leaves that have an ASCII form Flite reads. */
const ASCII_FORMS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': ' - ',
  '\u2212': '-',
  '\u00a0': ' ',
};

let segmenter: Intl.Segmenter | undefined;

/** The sentences of `text`, in order, each with its trailing spaces (`Intl.Segmenter('en', { granularity: 'sentence' })`). */
export function sentencesOf(text: string): string[] {
  segmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

/** `text` as Flite reads it: see the module's comment. Characters left outside printable ASCII are not changed. */
function asciiForms(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKD')) {
    if (/\p{M}/u.test(char)) continue;
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || char === '\u2028' || char === '\u2029') out += ' ';
    else out += ASCII_FORMS[char] ?? char;
  }
  return out;
}

const isSpeakable = (char: string): boolean => char >= ' ' && char <= '~';
const isSpace = (char: string): boolean => /\s/u.test(char);

/**
 * The pieces of `input` in order: see the module's comment. Whitespace-only input gives one `words` piece of spaces
 * (Flite's silence, which the renderer then turns into tones' silence).
 *
 * @param input any string.
 * @param speed the request's speed (0.25–4), which scales the piece length bound.
 */
export function speechPieces(input: string, speed: number): SpeechPiece[] {
  const bound = Math.min(2 * MAX_PIECE_CHARS, Math.max(MIN_PIECE_CHARS, Math.floor(MAX_PIECE_CHARS * speed)));
  const pieces: SpeechPiece[] = [];
  for (const sentence of sentencesOf(input)) {
    for (const run of runsOf(sentence)) {
      if (run.kind === 'tones') pieces.push(run);
      else for (const text of cut(run.text, bound)) pieces.push({ kind: 'words', text });
    }
  }
  return pieces.length > 0 ? pieces : [{ kind: 'words', text: ' ' }];
}

/** One voice's share of speech with words: the voice, and the pieces of its text it says, in order. */
export interface SpokenPart {
  readonly voice: string;
  readonly pieces: readonly SpeechPiece[];
}

/**
 * What speech with words says, in order: for a string input, its pieces in the request's voice; for multi-speaker
 * turns, each turn's own pieces (its text cut as if sent alone) in the turn's voice. Both the renderer and the word
 * times of a transcription read the audio through this, so they agree on which samples belong to which turn.
 *
 * @param req `input` and `voice` (for a string input), `speed`, and `turns` when the input was a list of them.
 */
export function spokenParts(req: { readonly input: string; readonly voice: string; readonly speed: number; readonly turns?: readonly { readonly text: string; readonly voice: string }[] | undefined }): SpokenPart[] {
  if (!req.turns || req.turns.length === 0) return [{ voice: req.voice, pieces: speechPieces(req.input, req.speed) }];
  return req.turns.map((turn) => ({ voice: turn.voice, pieces: speechPieces(turn.text, req.speed) }));
}

/** `sentence` as alternating runs of what Flite can say and what it cannot; spaces join the run they are in. */
function runsOf(sentence: string): SpeechPiece[] {
  const runs: SpeechPiece[] = [];
  let kind: SpeechPiece['kind'] | undefined;
  let text = '';
  const flush = () => {
    if (text && kind) runs.push({ kind, text });
    text = '';
  };
  // Each original character decides its kind by its ASCII form; tones keep the original characters.
  for (const char of sentence) {
    const form = asciiForms(char);
    if (isSpace(char) || form.trim() === '') {
      text += kind === 'tones' ? char : ' ';
      continue;
    }
    const next = [...form].every(isSpeakable) ? 'words' : 'tones';
    if (next !== kind) {
      flush();
      kind = next;
    }
    text += next === 'words' ? form : char;
  }
  flush();
  return runs;
}

/** `text` with every run of more than {@link MAX_TOKEN_CHARS} characters without a space cut by spaces. */
function shortTokens(text: string): string {
  return text.replace(new RegExp(`\\S{${MAX_TOKEN_CHARS + 1},}`, 'g'), (token) => token.match(new RegExp(`.{1,${MAX_TOKEN_CHARS}}`, 'g'))!.join(' '));
}

/** How long `text` counts for against a piece's bound: its characters, a digit {@link DIGIT_WEIGHT}. */
function weight(text: string): number {
  let total = 0;
  for (const char of text) total += char >= '0' && char <= '9' ? DIGIT_WEIGHT : 1;
  return total;
}

/** The longest prefix of `text` whose weight is at most `bound`, in characters (at least 1). */
function fitting(text: string, bound: number): number {
  let total = 0;
  let at = 0;
  while (at < text.length) {
    total += weight(text[at]!);
    if (total > bound) break;
    at++;
  }
  return Math.max(1, at);
}

/** `text` in pieces of at most `bound` (by {@link weight}), cut after the last clause mark, else space, before it. */
function cut(text: string, bound: number): string[] {
  const out: string[] = [];
  let rest = shortTokens(text);
  while (weight(rest) > bound) {
    const head = rest.slice(0, fitting(rest, bound));
    const clause = Math.max(head.lastIndexOf(', '), head.lastIndexOf('; '), head.lastIndexOf(': '));
    const space = head.lastIndexOf(' ');
    const at = clause > 0 ? clause + 1 : space > 0 ? space : head.length;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) out.push(rest);
  return out;
}
