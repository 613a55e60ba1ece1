/**
 * Flite's 16,000 Hz samples to the 24,000 Hz of OpenRouter's `pcm` format (`docs/behaviour.md`, "Speech"): a 3:2
 * polyphase FIR resampler (up 3, low-pass at 7.2 kHz, down 2) in integer arithmetic, so every JavaScript engine
 * gives the same samples.
 *
 * Why by hand: the ratio is fixed, and the work is one 97-tap filter. A general resampler (Speex's, compiled to
 * WebAssembly as `@echogarden/speex-resampler-wasm`) is a second WebAssembly file for browser users to serve and a
 * second optional package, for no better result at this one ratio. Here every product and sum is an exact integer in
 * a double (below 2^53), and the coefficients are fixed integers, not computed at run time (`Math.sin` may differ in
 * its last bit between engines).
 *
 * @module
 */

/** Flite's output rate, Hz (voices kal16, awb, rms and slt). */
export const FLITE_SAMPLE_RATE = 16_000;

/**
 * The low-pass filter at 48 kHz (the rate after upsampling by 3), Q15 and scaled by 3 (each of the three phases sums
 * to 32,768 ± 1): a 97-tap Blackman-windowed sinc cut at 7,200 Hz, `round(h[j] / Σh × 3 × 32768)`, symmetric, its
 * centre at tap 48.
 */
const TAPS = [
  0, 0, -1, -2, -3, 2, 10, 13, 0, -23, -34, -14, 34, 71, 51, -33, -121, -123, 0, 171, 235, 89, -196, -385, -261, 157,
  552, 535, 0, -689, -917, -337, 724, 1392, 924, -550, -1918, -1856, 0, 2437, 3322, 1267, -2877, -5989, -4470, 3173,
  14776, 25271, 29491, 25271, 14776, 3173, -4470, -5989, -2877, 1267, 3322, 2437, 0, -1856, -1918, -550, 924, 1392,
  724, -337, -917, -689, 0, 535, 552, 157, -261, -385, -196, 89, 235, 171, 0, -123, -121, -33, 51, 71, 34, -14, -34,
  -23, 0, 13, 10, 2, -3, -2, -1, 0, 0,
] as const;
/** The filter's centre (its delay at 48 kHz), so output sample n is aligned with input time n × 2/3. */
const CENTRE = (TAPS.length - 1) / 2;
const Q15 = 32_768;
/** The taps of each phase (`TAPS[p + 3t]`, t = 0, 1, ...): the filter as seen from one input sample to the next. */
const PHASES: readonly Float64Array[] = [0, 1, 2].map((p) => Float64Array.from(TAPS.filter((_, j) => j % 3 === p)));
/** Taps of the longest phase: the zeros padded on each side of the input, so no read falls outside it. */
const PAD = Math.max(...PHASES.map((phase) => phase.length));

/**
 * Resamples 16,000 Hz samples to 24,000 Hz.
 *
 * Output sample `n` is the filtered signal at input time `2n / 3` (no delay), so `ceil(length × 3 / 2)` samples
 * cover the input; the input is taken as silent outside its ends. Each sample is rounded to nearest (halves up)
 * and clipped to 16 bits.
 *
 * @param input mono 16-bit samples at 16,000 Hz.
 * @returns mono 16-bit samples at 24,000 Hz, `ceil(input.length × 1.5)` of them.
 */
export function resample16kTo24k(input: Int16Array): Int16Array {
  const out = new Int16Array(Math.ceil((input.length * 3) / 2));
  // The input with PAD zeros before and after it.
  const padded = new Float64Array(input.length + 2 * PAD);
  padded.set(input, PAD);
  for (let n = 0; n < out.length; n++) {
    // Upsampled index of output n is 2n; tap p + 3t reads upsampled index 2n + CENTRE - p - 3t, input (at - p) / 3 - t.
    const at = 2 * n + CENTRE;
    const phase = PHASES[at % 3]!;
    let index = PAD + (at - (at % 3)) / 3;
    let sum = 0;
    for (let t = 0; t < phase.length; t++, index--) sum += phase[t]! * padded[index]!;
    const value = Math.floor((sum + Q15 / 2) / Q15);
    out[n] = value > 32767 ? 32767 : value < -32768 ? -32768 : value;
  }
  return out;
}
