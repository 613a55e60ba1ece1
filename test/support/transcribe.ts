/**
 * Hearing speech in tests: audio bytes of the speech endpoint (24 kHz 16-bit PCM, or MP3) turned into 16 kHz WAV by
 * ffmpeg and transcribed by CMU PocketSphinx (Debian's `pocketsphinx` and `pocketsphinx-en-us`: the US English
 * acoustic model, dictionary and language model), and a word accuracy of what it heard. `.ci/run` installs the
 * three packages when missing.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why speech cannot be transcribed here (a program missing, with how to install it), or `undefined`. */
export const NO_RECOGNIZER: string | undefined =
  runs('ffmpeg', ['-version']) && runs('pocketsphinx_continuous', ['-help', 'yes'])
    ? undefined
    : 'ffmpeg or pocketsphinx_continuous is not installed (apt-get install ffmpeg pocketsphinx pocketsphinx-en-us)';

/** Whether `file` runs at all (it is installed), whatever its exit code. */
function runs(file: string, args: string[]): boolean {
  return spawnSync(file, args, { stdio: 'ignore' }).error === undefined;
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} failed: ${error.message}\n${stderr.slice(-500)}`));
      else resolve(stdout);
    });
  });
}

/**
 * PocketSphinx's search bounds: at most 3,000 HMMs and 10 distinct words alive per frame (its defaults are 30,000 and
 * no bound). On the ten sentences of `test/speech-words.test.ts` the word accuracy of each voice is that of the
 * defaults, for less CPU; the search on tones is the one the bounds cut most (the figures: the commit that set them).
 */
const SEARCH_BOUNDS = ['-maxhmmpf', '3000', '-maxwpf', '10'];

/**
 * What PocketSphinx hears in `audio` (lower case, words separated by single spaces).
 *
 * @param audio - the speech endpoint's bytes.
 * @param format - `pcm` (24 kHz 16-bit LE mono, no header) or `mp3`.
 */
export async function transcribe(audio: Uint8Array, format: 'pcm' | 'mp3'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mockrouter-hear-'));
  try {
    const input = join(dir, `speech.${format}`);
    const wav = join(dir, 'speech.wav');
    writeFileSync(input, audio);
    const inputArgs = format === 'pcm' ? ['-f', 's16le', '-ar', '24000', '-ac', '1', '-i', input] : ['-i', input];
    await run('ffmpeg', ['-loglevel', 'error', '-y', ...inputArgs, '-ar', '16000', '-ac', '1', wav]);
    const heard = await run('pocketsphinx_continuous', ['-infile', wav, '-logfn', '/dev/null', ...SEARCH_BOUNDS]);
    return heard.split(/\s+/).filter(Boolean).join(' ').toLowerCase();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `text` as words to compare: lower case, letters, digits and apostrophes only. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9' ]+/g, ' ')
    .split(' ')
    .filter(Boolean);
}

/**
 * Word accuracy of `heard` against `said`: 1 − (substitutions + deletions + insertions) / words said (the word edit
 * distance), at least 0.
 */
export function wordAccuracy(said: string, heard: string): number {
  const a = wordsOf(said);
  const b = wordsOf(heard);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return a.length === 0 ? 1 : Math.max(0, 1 - previous[b.length]! / a.length);
}
