/**
 * Which Flite speaker says a voice's words: a base voice of `flite.wasm` (`slt`, `awb`, `rms`, `kal16`) and a mean
 * pitch (`--setf int_f0_target_mean=<Hz>`; `rms` takes no pitch). The table is in `docs/speech.md`.
 *
 * - Every voice of the package's catalog (`fixtures/models.json`, each speech model's `supported_voices`) has its own
 *   speaker: female voices speak with `slt`, male ones with `kal16` and `awb` in turn, `alloy` with `rms`; on each base
 *   voice, pitches (multiples of 0.5 Hz) are spread over its range by a golden-ratio sequence (so neighbours in the
 *   list are far apart, and a voice added to the list moves no other), and no two voices share a speaker.
 * - Any other voice (a saved real catalog's) maps by a hash of its normalized id to a base voice and a pitch in its
 *   range: stable, though it may sound like another.
 *
 * A voice sounds the same whatever the model, format or seed; `kal` (8 kHz) is never used.
 *
 * @module
 */
import { hashString } from '../../base/prng.js';
import { normalizeVoice } from '../voice.js';

/** The base voices of `flite.wasm` used here (all 16 kHz). */
export type FliteVoice = 'slt' | 'awb' | 'rms' | 'kal16';

/** A speaker: `voice`, and `pitchHz`, its mean pitch in Hz (`null` for `rms`, which keeps its own). */
export interface Speaker {
  readonly voice: FliteVoice;
  readonly pitchHz: number | null;
}

/** The pitch range of each base voice that takes one, Hz (inclusive): where it stays clear to a recognizer. */
export const PITCH_RANGES: Readonly<Record<Exclude<FliteVoice, 'rms'>, readonly [number, number]>> = {
  slt: [150, 235],
  awb: [88, 140],
  kal16: [85, 135],
};

/** `f` female, `m` male, `n` neutral: the voices of the package's catalog, in catalog order, by how their makers describe them. */
const CATALOG_VOICES: readonly (readonly [string, 'f' | 'm' | 'n'])[] = [
  // openai/gpt-4o-mini-tts-2025-12-15
  ...pairs('alloy n ash m ballad m coral f echo m fable m onyx m nova f sage f shimmer f verse m marin f cedar m'),
  // mistralai/voxtral-mini-tts-2603
  ...pairs(
    'en_paul_neutral m en_paul_happy m en_paul_sad m en_paul_excited m en_paul_confident m en_paul_cheerful m en_paul_angry m ' +
      'en_paul_frustrated m gb_oliver_neutral m gb_oliver_confident m gb_jane_neutral f gb_jane_confident f fr_marie_neutral f fr_marie_happy f',
  ),
  // google/gemini-3.1-flash-tts-preview
  ...pairs(
    'zephyr f puck m charon m kore f fenrir m leda f orus m aoede f callirrhoe f autonoe f enceladus m iapetus m umbriel m ' +
      'algieba m despina f erinome f algenib m rasalgethi m laomedeia f achernar f alnilam m schedar m gacrux f pulcherrima f ' +
      'achird m zubenelgenubi m vindemiatrix f sadachbia m sadaltager m sulafat f',
  ),
  // x-ai/grok-voice-tts-1.0
  ...pairs('eve f ara f rex m sal m leo m'),
  // hexgrad/kokoro-82m: the second letter of the id is the gender (af_ American female, bm_ British male, ...)
  ...[
    'af_heart af_alloy af_aoede af_bella af_jessica af_kore af_nicole af_nova af_river af_sarah af_sky am_adam am_echo am_eric',
    'am_fenrir am_liam am_michael am_onyx am_puck am_santa bf_alice bf_emma bf_isabella bf_lily bm_daniel bm_fable bm_george',
    'bm_lewis jf_alpha jf_gongitsune jf_nezumi jf_tebukuro jm_kumo zf_xiaobei zf_xiaoni zf_xiaoxiao zf_xiaoyi zm_yunjian zm_yunxi',
    'zm_yunxia zm_yunyang ef_dora em_alex em_santa ff_siwis hf_alpha hf_beta hm_omega hm_psi if_sara im_nicola pf_dora pm_alex pm_santa',
  ]
    .join(' ')
    .split(' ')
    .map((id) => [id, id[1] === 'f' ? 'f' : 'm'] as const),
  // canopylabs/orpheus-3b-0.1-ft
  ...pairs('tara f leah f jess f leo m dan m mia f zac m'),
  // deepgram/aura-2 (aura-2-<name>-<language>)
  ...pairs(
    'aura-2-thalia-en f aura-2-agathe-fr f aura-2-agustina-es f aura-2-alvaro-es m aura-2-ama-ja f aura-2-amalthea-en f ' +
      'aura-2-andromeda-en f aura-2-antonia-es f aura-2-apollo-en m aura-2-aquila-es m aura-2-arcas-en m aura-2-aries-en m ' +
      'aura-2-asteria-en f aura-2-athena-en f aura-2-atlas-en m aura-2-aurelia-de f aura-2-aurora-en f aura-2-beatrix-nl f ' +
      'aura-2-callista-en f aura-2-carina-es f aura-2-celeste-es f aura-2-cesare-it m aura-2-cinzia-it f aura-2-cora-en f ' +
      'aura-2-cordelia-en f aura-2-cornelia-nl f aura-2-daphne-nl f aura-2-delia-en f aura-2-demetra-it f aura-2-diana-es f ' +
      'aura-2-dionisio-it m aura-2-draco-en m aura-2-ebisu-ja m aura-2-elara-de f aura-2-electra-en f',
  ),
  // assemblyai/assemblyai-tts-1
  ...pairs('aai-alba f aai-anna f aai-charles m aai-eve f aai-george m aai-jane f aai-jean f aai-mary f aai-michael m aai-paul m aai-vera f'),
  // qwen/qwen-audio-3.0-tts-plus
  ...pairs('longanlingxin f longanlufeng m'),
];

function pairs(list: string): (readonly [string, 'f' | 'm' | 'n'])[] {
  const words = list.split(' ');
  const out: (readonly [string, 'f' | 'm' | 'n'])[] = [];
  for (let i = 0; i < words.length; i += 2) out.push([words[i]!, words[i + 1] as 'f' | 'm' | 'n']);
  return out;
}

/** The golden ratio's fractional part: steps by it spread evenly over [0, 1) (a low-discrepancy sequence). */
const GOLDEN = 0.6180339887498949;

/** Pitches are multiples of this, Hz. */
export const PITCH_STEP_HZ = 0.5;

/**
 * Pitches for `count` voices on `range`, multiples of {@link PITCH_STEP_HZ}: the i-th at
 * `low + round(frac(i × 0.618…) × steps) × 0.5`, moved up (wrapping) to the next free step when taken. Neighbours in the
 * list land far apart, and a voice added at the end of the list moves no earlier voice's pitch.
 *
 * @throws RangeError when more voices than steps in the range.
 */
function spread(count: number, [low, high]: readonly [number, number]): number[] {
  const steps = (high - low) / PITCH_STEP_HZ;
  if (count > steps + 1) throw new RangeError(`${count} voices do not fit ${low}–${high} Hz at ${PITCH_STEP_HZ} Hz apart`);
  const taken = new Set<number>();
  return Array.from({ length: count }, (_, i) => {
    let step = Math.round(((i * GOLDEN) % 1) * steps);
    while (taken.has(step)) step = step === steps ? 0 : step + 1;
    taken.add(step);
    return low + step * PITCH_STEP_HZ;
  });
}

/** The table of the catalog's voices (normalized id → speaker), built once from {@link CATALOG_VOICES}. */
export const SPEAKER_TABLE: ReadonlyMap<string, Speaker> = (() => {
  const byBase: Record<Exclude<FliteVoice, 'rms'>, string[]> = { slt: [], awb: [], kal16: [] };
  const table = new Map<string, Speaker>();
  let male = 0;
  for (const [id, kind] of CATALOG_VOICES) {
    if (table.has(id) || byBase.slt.includes(id) || byBase.awb.includes(id) || byBase.kal16.includes(id)) continue;
    if (kind === 'n' && !table.size) table.set(id, { voice: 'rms', pitchHz: null });
    else if (kind === 'f') byBase.slt.push(id);
    else byBase[male++ % 2 === 0 ? 'kal16' : 'awb'].push(id);
  }
  for (const base of ['slt', 'kal16', 'awb'] as const) {
    const pitches = spread(byBase[base].length, PITCH_RANGES[base]);
    byBase[base].forEach((id, i) => table.set(id, { voice: base, pitchHz: pitches[i]! }));
  }
  return table;
})();

const HASHED_VOICES: readonly FliteVoice[] = ['slt', 'kal16', 'awb', 'rms'];

/**
 * The speaker of `voice`: from {@link SPEAKER_TABLE}, else by a hash of the normalized id (base voice
 * `hash mod 4`, pitch `low + ((hash >>> 8) mod (2 × (high − low) + 1)) × 0.5` Hz).
 *
 * @param voice any voice id; case and surrounding spaces are ignored.
 */
export function speakerOf(voice: string): Speaker {
  const id = normalizeVoice(voice);
  const known = SPEAKER_TABLE.get(id);
  if (known) return known;
  const hash = hashString(id);
  const base = HASHED_VOICES[hash % HASHED_VOICES.length]!;
  if (base === 'rms') return { voice: base, pitchHz: null };
  const [low, high] = PITCH_RANGES[base];
  return { voice: base, pitchHz: low + ((hash >>> 8) % ((high - low) / PITCH_STEP_HZ + 1)) * PITCH_STEP_HZ };
}
