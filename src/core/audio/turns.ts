/**
 * Multi-speaker input (the gateway's `SpeechInput` as a list of turns, `docs/behaviour.md`, "Speech"): the one text
 * a list of turns stands for.
 *
 * @module
 */

/**
 * The whole text of turns: their `text`s in order, joined by one space. It is what words mode says, what the said
 * index keeps for a transcription of the audio, and what the journal's replay renders with.
 *
 * @example turnsText([{ text: 'Hello.' }, { text: 'Hi there.' }]) // 'Hello. Hi there.'
 */
export function turnsText(turns: readonly { readonly text: string }[]): string {
  return turns.map((turn) => turn.text).join(' ');
}
