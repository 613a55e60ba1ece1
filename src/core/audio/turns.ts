/**
 * Multi-speaker input (the gateway's `SpeechInput` as a list of turns, `docs/behaviour.md`, "Speech"): the one text
 * a list of turns stands for, and what tones say for a request, turn by turn.
 *
 * @module
 */
import { planSpeech } from './plan.js';
import type { SpeechSegment, SynthesisRequest } from './types.js';
import { getVoiceProfile } from './voice.js';

/**
 * The whole text of turns: their `text`s in order, joined by one space. It is what the said index keeps for a
 * transcription of the audio, and the request's `input` the renderer is given beside the turns (each mode says every
 * turn in its own voice).
 *
 * @example turnsText([{ text: 'Hello.' }, { text: 'Hi there.' }]) // 'Hello. Hi there.'
 */
export function turnsText(turns: readonly { readonly text: string }[]): string {
  return turns.map((turn) => turn.text).join(' ');
}

/**
 * What tones say for a request: one segment (its `input` in its `voice`), or one per turn (each turn's text planned
 * and said in its voice, with the request's speed and seed). Their summed length is also the nominal length of the
 * same request with words.
 *
 * @throws RangeError if `speed` is not a finite number in [0.25, 4].
 */
export function segmentsOf(req: SynthesisRequest): SpeechSegment[] {
  if (!req.turns || req.turns.length === 0) return [{ plan: planSpeech(req), voice: getVoiceProfile(req.voice) }];
  return req.turns.map((turn) => ({ plan: planSpeech({ input: turn.text, voice: turn.voice, speed: req.speed, seed: req.seed }), voice: getVoiceProfile(turn.voice) }));
}

/** The samples of segments said in order. */
export function sampleTotal(segments: readonly SpeechSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.plan.sampleCount, 0);
}
