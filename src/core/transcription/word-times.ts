/**
 * When each word of a text is said in audio this simulator made (`docs/transcription.md`, "Word times"):
 *
 * - tones: exactly, from the synthesis plan. Each whitespace-separated token of the input has the syllables the
 *   tokenizer gives it (`src/core/audio/tokenize.ts`), and each syllable is one burst of the plan
 *   (`src/core/audio/plan.ts`): a word starts with its first burst and ends with its last.
 * - words: the pieces Flite said are known to the sample (`src/core/audio/words/pieces.ts`); within a piece, time is
 *   shared among its characters evenly, spaces and punctuation included (Flite gives no word times), so a word's
 *   times are an estimate within its piece.
 * - multi-speaker turns, in either mode: each turn timed as if said alone, offset by the turns before it.
 *
 * Times are seconds from the start of the audio, rounded to the millisecond.
 *
 * @module
 */
import { SAMPLE_RATE } from '../audio/format.js';
import { planSpeech } from '../audio/plan.js';
import { tokenize } from '../audio/tokenize.js';
import { normalizeVoice } from '../audio/voice.js';
import { speechPieces, spokenParts } from '../audio/words/pieces.js';
import type { SaidAudio } from './said-audio.js';

/** One word of a transcript and when it is said, seconds. `from` and `to` are its token's code-unit offsets in the text. */
export interface TimedWord {
  readonly word: string;
  readonly start: number;
  readonly end: number;
  readonly from: number;
  readonly to: number;
  /** For multi-speaker audio, the speaker of the word's turn (0 for the first distinct voice, 1 for the next, …). */
  readonly speaker?: number | undefined;
}

/** A whitespace-separated token of a text: its offsets, and its word (the token without leading and trailing punctuation; `''` for punctuation only). */
interface Token {
  readonly from: number;
  readonly to: number;
  readonly word: string;
}

const EDGE_PUNCTUATION = /^\p{P}+|\p{P}+$/gu;

/** The whitespace-separated tokens of `text`, in order. */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    tokens.push({ from: match.index, to: match.index + match[0].length, word: match[0].replace(EDGE_PUNCTUATION, '') });
  }
  return tokens;
}

/** The words of `text`: its whitespace-separated tokens without leading and trailing punctuation, punctuation-only tokens left out. */
export function wordsOfText(text: string): string[] {
  return tokensOf(text)
    .map((token) => token.word)
    .filter((word) => word !== '');
}

const seconds = (samples: number): number => Math.round((samples / SAMPLE_RATE) * 1000) / 1000;

/**
 * The words of `said.input` with the times at which `said`'s audio says them.
 *
 * @returns one entry per word of {@link wordsOfText}, in order, each `end ≥ start`, within the audio's length.
 */
export function wordTimesOf(said: SaidAudio): TimedWord[] {
  if (said.turns && said.turns.length > 0) return turnTimes(said, said.turns);
  const tokens = tokensOf(said.input);
  return (said.mode === 'tones' ? tonesTimes(said, tokens) : undefined) ?? spreadTimes(said, tokens);
}

/**
 * Multi-speaker audio: each word labelled with its turn's speaker (0 for the first distinct voice, case and
 * surrounding spaces ignored, 1 for the next, …). Each turn is timed as if said alone, offset by the samples of the
 * turns before it, its characters offset into `said.input` (turns joined by one space): in tones from its own plan, in
 * words from its own pieces (`spokenParts` of `src/core/audio/words/pieces.ts`). Words audio whose pieces are not
 * known (or do not match the turns) is timed as one text ({@link spreadTimes}), each word taking the speaker of the
 * turn its characters fall in.
 */
function turnTimes(said: SaidAudio, turns: NonNullable<SaidAudio['turns']>): TimedWord[] {
  const speakers = new Map<string, number>();
  const speakerOf = (voice: string): number => {
    const key = normalizeVoice(voice);
    if (!speakers.has(key)) speakers.set(key, speakers.size);
    return speakers.get(key)!;
  };
  const starts: number[] = [];
  let at = 0;
  for (const turn of turns) {
    starts.push(at);
    at += turn.text.length + 1;
  }
  const parts = turnParts(said, turns);
  if (!parts) {
    return spreadTimes(said, tokensOf(said.input)).map((word) => {
      let i = 0;
      while (i + 1 < starts.length && word.from >= starts[i + 1]!) i++;
      return { ...word, speaker: speakerOf(turns[i]!.voice) };
    });
  }
  const words: TimedWord[] = [];
  let samples = 0;
  parts.forEach((part, i) => {
    const offset = seconds(samples);
    for (const word of wordTimesOf(part)) {
      words.push({ ...word, start: Math.round((word.start + offset) * 1000) / 1000, end: Math.round((word.end + offset) * 1000) / 1000, from: word.from + starts[i]!, to: word.to + starts[i]!, speaker: speakerOf(turns[i]!.voice) });
    }
    samples += part.samples;
  });
  return words;
}

/**
 * Each turn of multi-speaker audio as if it were said alone: its text, voice and length in samples (tones: its plan's;
 * words: its pieces', which it keeps). `undefined` for words whose pieces are not known or do not add up to the turns'.
 */
function turnParts(said: SaidAudio, turns: NonNullable<SaidAudio['turns']>): SaidAudio[] | undefined {
  const alone = (turn: (typeof turns)[number]): SaidAudio => ({ ...said, input: turn.text, voice: turn.voice, turns: undefined, pieces: undefined });
  if (said.mode === 'tones') {
    return turns.map((turn) => ({ ...alone(turn), samples: planSpeech({ input: turn.text, voice: turn.voice, speed: said.speed, seed: said.seed }).sampleCount }));
  }
  const counts = spokenParts({ ...said, turns }).map((part) => part.pieces.length);
  if (!said.pieces || counts.reduce((sum, n) => sum + n, 0) !== said.pieces.length) return undefined;
  let next = 0;
  return turns.map((turn, i) => {
    const pieces = said.pieces!.slice(next, (next += counts[i]!));
    return { ...alone(turn), pieces, samples: pieces.reduce((sum, n) => sum + n, 0) };
  });
}

/**
 * Tones: the plan's bursts, one per syllable, given to the tokens in order; `undefined` when the tokens' syllables
 * do not add up to the plan's bursts (a text whose tokens the tokenizer reads differently together than apart).
 */
function tonesTimes(said: SaidAudio, tokens: readonly Token[]): TimedWord[] | undefined {
  const { bursts } = planSpeech({ input: said.input, voice: said.voice, speed: said.speed, seed: said.seed });
  const counts = tokens.map((token) => tokenize(said.input.slice(token.from, token.to)).tokens.filter((t) => t.kind === 'syllable').length);
  if (counts.reduce((sum, n) => sum + n, 0) !== bursts.length) return undefined;
  const words: TimedWord[] = [];
  let next = 0;
  tokens.forEach((token, i) => {
    const count = counts[i]!;
    if (token.word !== '') {
      if (count > 0) {
        const first = bursts[next]!;
        const last = bursts[next + count - 1]!;
        words.push({ word: token.word, start: seconds(first.start), end: seconds(last.start + last.length), from: token.from, to: token.to });
      } else {
        // A word that makes no sound (rare: a symbol the tokenizer leaves silent) is placed where the next sound starts.
        const at = seconds(bursts[next]?.start ?? said.samples);
        words.push({ word: token.word, start: at, end: at, from: token.from, to: token.to });
      }
    }
    next += count;
  });
  return words;
}

/**
 * Words mode (or any text whose syllables cannot be matched): time runs evenly over the text's characters (spaces and
 * punctuation included, so words have gaps between them) within each piece of `said.pieces` (one piece: the whole
 * audio), so a word is placed by where its characters fall.
 */
function spreadTimes(said: SaidAudio, tokens: readonly Token[]): TimedWord[] {
  const knots = knotsOf(said);
  const total = said.input.length;
  const at = (offset: number): number => seconds(interpolate(knots, total === 0 ? 0 : offset / total));
  return tokens.filter((token) => token.word !== '').map((token) => ({ word: token.word, start: at(token.from), end: at(token.to), from: token.from, to: token.to }));
}

/**
 * The piecewise-linear map from the share of the text said (0–1, by characters) to samples: a knot at the end of each
 * piece, each piece's share of the text its own characters' share of all pieces' characters.
 */
function knotsOf(said: SaidAudio): Array<readonly [share: number, samples: number]> {
  const pieces = said.pieces;
  const texts = pieces && pieces.length > 0 ? speechPieces(said.input, said.speed) : undefined;
  if (!pieces || !texts || texts.length !== pieces.length) return [[0, 0], [1, said.samples]];
  const weights = texts.map((piece) => piece.text.length);
  const all = weights.reduce((sum, weight) => sum + weight, 0) || 1;
  const knots: Array<readonly [number, number]> = [[0, 0]];
  let share = 0;
  let samples = 0;
  pieces.forEach((count, i) => {
    share += weights[i]! / all;
    samples += count;
    knots.push([Math.min(1, share), Math.min(samples, said.samples)]);
  });
  return knots;
}

function interpolate(knots: ReadonlyArray<readonly [number, number]>, share: number): number {
  for (let i = 1; i < knots.length; i++) {
    const [s1, t1] = knots[i]!;
    if (share <= s1) {
      const [s0, t0] = knots[i - 1]!;
      return s1 === s0 ? t1 : t0 + ((share - s0) / (s1 - s0)) * (t1 - t0);
    }
  }
  return knots[knots.length - 1]![1];
}
