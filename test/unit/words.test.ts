/**
 * The pure parts of speech with words (`src/core/audio/words/`): the 16 → 24 kHz resampler, the cutting of text into
 * pieces, the speaker table, Flite's command line and the WAV reader. The engine itself is heard in
 * `test/speech-words.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/node-platform/fixtures.js';
import { MAX_PIECE_CHARS, MAX_TOKEN_CHARS, speechPieces } from '../../src/core/audio/words/pieces.js';
import { resample16kTo24k } from '../../src/core/audio/words/resample.js';
import { PITCH_RANGES, SPEAKER_TABLE, speakerOf } from '../../src/core/audio/words/speakers.js';
import { fliteArgs } from '../../src/core/audio/words/render-words.js';
import { wavSamples } from '../../src/core/audio/words/flite-wasi.js';

function sine(hz: number, rate: number, seconds: number, amplitude: number): Int16Array {
  return Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) => Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)));
}

/** Peak of the middle half of `samples` (away from the edges, where the filter meets the silence outside). */
function middlePeak(samples: Int16Array): number {
  let peak = 0;
  for (let i = samples.length / 4; i < (samples.length * 3) / 4; i++) peak = Math.max(peak, Math.abs(samples[Math.floor(i)]!));
  return peak;
}

/** Upward zero crossings per second. */
function crossingsHz(samples: Int16Array, rate: number): number {
  let count = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 && samples[i]! >= 0) count++;
  return (count * rate) / samples.length;
}

describe('resample16kTo24k', () => {
  it('gives ceil(n × 1.5) samples', () => {
    for (const n of [0, 1, 2, 3, 1001]) expect(resample16kTo24k(new Int16Array(n)).length).toBe(Math.ceil(n * 1.5));
  });

  it('keeps a tone in the voice band at its pitch and level', () => {
    for (const hz of [200, 1000, 3000]) {
      const out = resample16kTo24k(sine(hz, 16_000, 0.5, 10_000));
      expect(crossingsHz(out, 24_000)).toBeCloseTo(hz, -1);
      expect(middlePeak(out)).toBeGreaterThan(9_500);
      expect(middlePeak(out)).toBeLessThan(10_500);
    }
  });

  it('keeps a constant level (each phase sums to unity) and silence silent', () => {
    const out = resample16kTo24k(new Int16Array(1000).fill(12_000));
    for (let i = 100; i < 1400; i++) expect(Math.abs(out[i]! - 12_000)).toBeLessThanOrEqual(2);
    expect(resample16kTo24k(new Int16Array(500)).every((s) => s === 0)).toBe(true);
  });

  it('clips rather than wraps at full scale', () => {
    const square = Int16Array.from({ length: 800 }, (_, i) => (Math.floor(i / 40) % 2 === 0 ? 32_767 : -32_768));
    const out = resample16kTo24k(square);
    expect(Math.max(...out)).toBe(32_767);
    expect(Math.min(...out)).toBe(-32_768);
  });
});

describe('speechPieces', () => {
  it('one piece per sentence', () => {
    expect(speechPieces('Hello there. How are you? Fine!', 1)).toEqual([
      { kind: 'words', text: 'Hello there. ' },
      { kind: 'words', text: 'How are you? ' },
      { kind: 'words', text: 'Fine!' },
    ]);
  });

  it('what Flite cannot say is a tones piece, with its original characters', () => {
    expect(speechPieces('Hi 😀 there, 你好.', 1)).toEqual([
      { kind: 'words', text: 'Hi ' },
      { kind: 'tones', text: '😀 ' },
      { kind: 'words', text: 'there, ' },
      { kind: 'tones', text: '你好' },
      { kind: 'words', text: '.' },
    ]);
  });

  it('folds accents, typographic quotes and dashes to ASCII, and control characters to spaces', () => {
    expect(speechPieces('Café “naïve”—ok\u0007.', 1)).toEqual([{ kind: 'words', text: 'Cafe "naive" - ok .' }]);
  });

  it('cuts a long sentence at clauses or spaces, within the bound (scaled by speed)', () => {
    const sentence = Array.from({ length: 40 }, (_, i) => `word${'abc'[i % 3]}`).join(' ');
    for (const speed of [0.5, 1, 2]) {
      const pieces = speechPieces(sentence, speed);
      expect(pieces.map((piece) => piece.text).join('')).toBe(sentence);
      const bound = Math.min(2 * MAX_PIECE_CHARS, Math.max(20, Math.floor(MAX_PIECE_CHARS * speed)));
      for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(bound);
    }
  });

  it('cuts a run without spaces into parts of at most MAX_TOKEN_CHARS, and counts digits thrice', () => {
    const pieces = speechPieces('x'.repeat(30), 1);
    expect(pieces.flatMap((piece) => piece.text.split(' ')).every((part) => part.length <= MAX_TOKEN_CHARS)).toBe(true);
    const digits = speechPieces('1234 5678 9012 3456 7890 1234 5678', 1);
    expect(digits.length).toBeGreaterThan(1);
  });

  it('whitespace only is one piece of a space', () => {
    expect(speechPieces(' \n\t ', 1)).toEqual([{ kind: 'words', text: ' ' }]);
  });
});

describe('speakers', () => {
  const catalog = loadFixtures().models.filter((model) => model.supported_voices);

  it('every voice of the catalog has its own speaker, distinct from every other voice’s', () => {
    const voices = new Set(catalog.flatMap((model) => model.supported_voices!.map((voice) => voice.toLowerCase())));
    for (const voice of voices) expect(SPEAKER_TABLE.has(voice), voice).toBe(true);
    const speakers = new Set([...SPEAKER_TABLE.values()].map((speaker) => `${speaker.voice}@${speaker.pitchHz}`));
    expect(speakers.size).toBe(SPEAKER_TABLE.size);
  });

  it('pitches lie in their base voice’s range, and rms takes none', () => {
    for (const speaker of SPEAKER_TABLE.values()) {
      if (speaker.voice === 'rms') expect(speaker.pitchHz).toBeNull();
      else {
        const [low, high] = PITCH_RANGES[speaker.voice];
        expect(speaker.pitchHz).toBeGreaterThanOrEqual(low);
        expect(speaker.pitchHz).toBeLessThanOrEqual(high);
      }
    }
  });

  it('an unknown voice maps by a hash of its normalized id: stable, in range, case and spaces ignored', () => {
    const speaker = speakerOf('  Some-Saved-Voice ');
    expect(speakerOf('some-saved-voice')).toEqual(speaker);
    expect(['slt', 'awb', 'rms', 'kal16']).toContain(speaker.voice);
    expect(speakerOf('ALLOY')).toEqual(SPEAKER_TABLE.get('alloy'));
  });
});

describe('fliteArgs', () => {
  it('names the base voice, the pitch where it takes one, the stretch for a speed other than 1, the text and the output', () => {
    expect(fliteArgs('Hi.', { voice: 'slt', pitchHz: 180 }, 2)).toEqual(['-voice', 'slt', '--setf', 'int_f0_target_mean=180', '--setf', 'duration_stretch=0.5', '-t', 'Hi.', '-o', '/speech.wav']);
    expect(fliteArgs('-o x', { voice: 'rms', pitchHz: null }, 1)).toEqual(['-voice', 'rms', '-t', '-o x', '-o', '/speech.wav']);
  });
});

describe('wavSamples', () => {
  it('refuses bytes that are no 16-bit mono RIFF/WAVE', () => {
    expect(() => wavSamples(new Uint8Array(10))).toThrow(/no RIFF\/WAVE/);
    const header = new Uint8Array(44);
    header.set(new TextEncoder().encode('RIFF'), 0);
    header.set(new TextEncoder().encode('WAVE'), 8);
    expect(() => wavSamples(header)).toThrow(/no data chunk/);
  });
});
