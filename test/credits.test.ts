/**
 * Keys and credits: a keys file (JSON or YAML, option `keys`, CLI `--keys <file>`) lists the valid keys with a
 * balance in USD. Each speech call deducts exactly the `total_cost` its generation record shows; a call the
 * balance cannot pay is a 402 `Insufficient credits. Add more using https://openrouter.ai/credits` with the
 * key's `user_id` (`docs/behaviour.md`, "Keys and credits"); keys not in the file get 401 `User not found.`;
 * without a file every key is valid with unlimited credit. `:free` variants cost nothing and consume no credit.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf } from './support/gateway-context.js';
import { createGateway, type Gateway } from '../src/node-platform/create-gateway.js';
import { createMockRouter } from '../src/index.js';
import { modes, type RunningMode } from './support/modes.js';

/** What key `key` has left on `gateway` (USD, `null` for unlimited), as `GET /key` reports it in `limit_remaining`. */
async function remainingOf(gateway: Gateway, key: string): Promise<number | null> {
  const { accounts, clock } = contextOf(gateway);
  return (await accounts.keyState(accounts.authenticate({ authorization: `Bearer ${key}` }), clock.now())).remaining;
}
import { runCli, type Cli } from './support/cli.js';
import { envelopeOf, getJson, speech } from './support/stateful.js';

/** A speech model with a price unlike the others, so a wrong price shows. */
const MODEL = 'x-ai/grok-voice-tts-1.0';
const VOICE = 'eve';
/** 30 characters (even, so half of it costs exactly half). */
const INPUT = 'Three paid calls, then a 402.!';
const HALF = INPUT.slice(0, INPUT.length / 2);
const USER_ID = 'user_CreditsTestUser0123456789ab';
const MESSAGE_402 = 'Insufficient credits. Add more using https://openrouter.ai/credits';

interface GenerationData {
  id: string;
  model: string;
  total_cost: number;
  usage: number;
  tokens_prompt: number;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mockrouter-credits-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `pricing.prompt` of `model` from `GET /model/...` on a mock without keys, USD per character. */
async function promptPrice(baseUrl: string, model: string): Promise<number> {
  const { res, body } = await getJson<{ data: { pricing: { prompt: string } } }>(baseUrl, `/model/${model}`);
  expect(res.status).toBe(200);
  const price = Number(body.data.pricing.prompt);
  expect(price).toBeGreaterThan(0);
  return price;
}

/** The records of `ids`, looked up with `key`. */
async function records(baseUrl: string, ids: string[], key: string): Promise<GenerationData[]> {
  const out: GenerationData[] = [];
  for (const id of ids) {
    const { res, body } = await getJson<{ data: GenerationData }>(baseUrl, `/generation?id=${encodeURIComponent(id)}`, key);
    expect(res.status).toBe(200);
    out.push(body.data);
  }
  return out;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe.each(modes)('credits ($name)', (mode) => {
  let mock: RunningMode;
  let price: number;
  /** Credit for exactly three calls of INPUT. */
  let credit: number;

  beforeAll(async () => {
    const probe = await mode.start({ seed: 3 });
    try {
      price = await promptPrice(probe.baseUrl, MODEL);
    } finally {
      await probe.stop();
    }
    credit = 3 * [...INPUT].length * price;
    const file = join(dir, `keys-${mode.name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        keys: [
          { key: 'sk-three', credits: credit, user_id: USER_ID },
          { key: 'sk-two-and-a-half', credits: (credit * 2.5) / 3 },
          { key: 'sk-nearly-broke', credits: price },
          { key: 'sk-one-call', credits: credit / 3 },
          { key: 'sk-unlimited' },
        ],
      }),
    );
    mock = await mode.start({ seed: 3, keys: file });
  });
  afterAll(() => mock.stop());

  it('a key with credit for exactly three calls gets 200, 200, 200, then 402; the records add up to the credit', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { res, bytes, id } = await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-three');
      expect(res.status, `call ${i + 1}`).toBe(200);
      expect(bytes.byteLength).toBeGreaterThan(0);
      ids.push(id!);
    }
    const { res, bytes, id } = await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-three');
    const envelope = envelopeOf(res, bytes, 402);
    expect(envelope.error.message).toBe(MESSAGE_402);
    expect(envelope.error.metadata?.error_type).toBe('payment_required');
    expect(envelope.user_id).toBe(USER_ID);
    expect(id).toBeNull();

    // The lookups still work with the drained key, and show what was charged.
    const data = await records(mock.baseUrl, ids, 'sk-three');
    for (const record of data) {
      expect(record.model).toBe(MODEL);
      expect(record.tokens_prompt).toBe([...INPUT].length);
      expect(record.total_cost).toBeCloseTo([...INPUT].length * price, 15);
      expect(record.usage).toBe(record.total_cost);
    }
    const balance = (await remainingOf(mock.gateway, 'sk-three'))!;
    expect(sum(data.map((r) => r.total_cost))).toBeCloseTo(credit - balance, 12);
    expect(balance).toBeCloseTo(0, 12);
    // Only the three paid calls left records.
    expect((await mock.gateway.sharedJournal.list({ operation: 'speech', status: 200 })).filter((e) => ids.includes(e.generation_id!))).toHaveLength(3);
  });

  it('a 402 deducts nothing: what is left still pays a call that fits', async () => {
    const key = 'sk-two-and-a-half';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, key)).res.status);
    expect(statuses).toEqual([200, 200, 402]);
    const half = await speech(mock.baseUrl, { model: MODEL, input: HALF, voice: VOICE }, key);
    expect(half.res.status).toBe(200);
    const [record] = await records(mock.baseUrl, [half.id!], key);
    expect(record!.total_cost).toBeCloseTo([...HALF].length * price, 15);
    const after = await speech(mock.baseUrl, { model: MODEL, input: 'x', voice: VOICE }, key);
    const envelope = envelopeOf(after.res, after.bytes, 402);
    expect(envelope.error.message).toBe(MESSAGE_402);
    // No user_id in the file: one derived from the key, in the real format.
    expect(envelope.user_id).toMatch(/^user_[A-Za-z0-9]{27}$/);
  });

  it(':free variants cost nothing and consume no credit', async () => {
    const key = 'sk-nearly-broke'; // credit for one character of MODEL
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { res, id } = await speech(mock.baseUrl, { model: `${MODEL}:free`, input: INPUT, voice: VOICE }, key);
      expect(res.status).toBe(200);
      ids.push(id!);
    }
    for (const record of await records(mock.baseUrl, ids, key)) {
      expect(record.model).toBe(`${MODEL}:free`);
      expect(record.total_cost).toBe(0);
      expect(record.usage).toBe(0);
    }
    expect(await remainingOf(mock.gateway, key)).toBeCloseTo(price, 15);
    // The credit is intact: one paid character fits, then nothing does.
    expect((await speech(mock.baseUrl, { model: MODEL, input: 'a', voice: VOICE }, key)).res.status).toBe(200);
    expect((await speech(mock.baseUrl, { model: MODEL, input: 'a', voice: VOICE }, key)).res.status).toBe(402);
  });

  it('a key listed without credits is unlimited; a key not in the file gets 401 User not found.', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await speech(mock.baseUrl, { model: MODEL, input: INPUT.repeat(20), voice: VOICE }, 'sk-unlimited')).res.status).toBe(200);
    }
    for (const call of [
      () => speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-not-in-file'),
      async () => {
        const res = await fetch(`${mock.baseUrl}/model/${MODEL}`, { headers: { Authorization: 'Bearer sk-not-in-file' } });
        return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
      },
    ]) {
      const { res, bytes } = await call();
      const envelope = envelopeOf(res, bytes, 401);
      expect(envelope.error.message).toBe('User not found.');
      expect(envelope.user_id ?? undefined).toBeUndefined();
    }
  });

  it('a reset (POST /__mock/reset, gateway.reset()) restores the spent credit', async () => {
    const key = 'sk-one-call';
    const call = () => speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, key);
    expect((await call()).res.status).toBe(200);
    expect((await call()).res.status).toBe(402);
    if (mode.name === 'server') {
      const res = await fetch(`${new URL(mock.baseUrl).origin}/__mock/reset`, { method: 'POST' });
      expect(res.status).toBe(204);
    } else {
      mock.gateway.reset();
    }
    expect((await call()).res.status).toBe(200);
    expect((await call()).res.status).toBe(402);
  });
});

describe('credits without a keys file', () => {
  it('accepts any key with unlimited credit', async () => {
    const mock = await modes[0]!.start({ seed: 3 });
    try {
      for (const key of ['sk-anything', 'x', 'sk-anything']) {
        const { res } = await speech(mock.baseUrl, { model: MODEL, input: INPUT.repeat(30), voice: VOICE }, key);
        expect(res.status).toBe(200);
      }
    } finally {
      await mock.stop();
    }
  });
});

describe('keys file through the CLI (YAML)', () => {
  let cli: Cli | undefined;
  afterAll(async () => {
    await cli?.stop();
  });

  it('--keys <file.yaml>: 200, 200, 200, then 402 with the file\'s user_id; other keys 401', async () => {
    const model = await createGateway().handle({ method: 'GET', path: `/api/v1/model/${MODEL}`, query: '', headers: { authorization: 'Bearer k' } });
    const text = typeof model.body === 'string' ? model.body : new TextDecoder().decode(model.body as Uint8Array);
    const price = Number((JSON.parse(text) as { data: { pricing: { prompt: string } } }).data.pricing.prompt);
    const credit = 3 * [...INPUT].length * price;
    const file = join(dir, 'keys.yaml');
    writeFileSync(file, `# keys for the CLI test\nkeys:\n  - key: sk-yaml\n    credits: ${credit}\n    user_id: ${USER_ID}\n    rate_limit:\n      requests: 100\n      interval_s: 60\n`);
    cli = runCli(['--port', '0', '--quiet', '--seed', '3', '--keys', file]);
    const baseUrl = await cli.ready();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { res, id } = await speech(baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-yaml');
      expect(res.status).toBe(200);
      ids.push(id!);
    }
    const { res, bytes } = await speech(baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-yaml');
    const envelope = envelopeOf(res, bytes, 402);
    expect(envelope.error.message).toBe(MESSAGE_402);
    expect(envelope.user_id).toBe(USER_ID);
    const data = await records(baseUrl, ids, 'sk-yaml');
    expect(sum(data.map((r) => r.total_cost))).toBeCloseTo(credit, 12);
    const other = await speech(baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-test');
    expect(envelopeOf(other.res, other.bytes, 401).error.message).toBe('User not found.');
    expect(await cli.stop()).toBe(0);
  });

  const badFiles: [name: string, text: string | null, detail: string][] = [
    ['bad-credits.yaml', 'keys:\n  - key: sk-a\n  - key: sk-b\n    credits: lots\n', 'keys[1].credits: expected number, received string'],
    ['bad-limit.json', '{"keys":[{"key":"sk-a","rate_limit":{"requests":10}}]}', 'keys[0].rate_limit.interval_s: required key is missing (expected number)'],
    ['unknown-field.yaml', 'keys:\n  - key: sk-a\n    credit: 5\n', 'keys[0]: Unrecognized key: "credit"'],
    ['syntax.json', '{"keys": [\n  {"key": "sk-a",}\n]}', 'line 2, column 18: invalid JSON'],
    ['missing.yaml', null, 'file not found'],
  ];
  const writeBad = (name: string, text: string | null) => {
    const file = join(dir, name);
    if (text !== null) writeFileSync(file, text);
    return file;
  };

  it.each(badFiles)('a bad keys file (%s) is a one-line KeysError naming the file and the path inside it', (name, text, detail) => {
    const file = writeBad(name, text);
    let message = '';
    try {
      createMockRouter({ keys: file });
    } catch (error) {
      expect((error as Error).name).toBe('KeysError');
      message = (error as Error).message;
    }
    expect(message.startsWith(`${file}: `)).toBe(true);
    expect(message).toContain(detail);
    expect(message).not.toContain('\n');
  });

  // The keys file takes what option `keys` takes as data: `{ keys }` or the list alone, key strings or entries.
  it.each([
    ['strings.json', '{"keys": ["sk-a", {"key": "sk-b", "credits": 2}]}'],
    ['list.yaml', '- sk-a\n- key: sk-b\n  credits: 2\n'],
    ['list.json', '["sk-a", {"key": "sk-b", "credits": 2}]'],
  ])('a keys file written as %s lists the keys like the option does', (name, text) => {
    const accounts = contextOf(createGateway({ keys: writeBad(name, text) })).accounts;
    expect(accounts.authenticate({ authorization: 'Bearer sk-a' }).limit).toBeNull();
    expect(accounts.authenticate({ authorization: 'Bearer sk-b' }).limit).toBe(2);
    expect(() => accounts.authenticate({ authorization: 'Bearer sk-c' })).toThrow('User not found.');
  });

  it.each([
    ['number-item.yaml', '- sk-a\n- 5\n', '[1]: expected a key (a string) or an entry such as {"key": "sk-...", "credits": 1}'],
    ['number-in-keys.json', '{"keys": ["sk-a", 5]}', 'keys[1]: expected a key (a string) or an entry such as {"key": "sk-...", "credits": 1}'],
    ['empty-list.yaml', '[]', 'expected at least one key'],
    ['empty.json', '{"keys": []}', 'keys: expected at least one key'],
  ])('a keys file with a bad item (%s) says what an item may be', (name, text, detail) => {
    expect(() => createMockRouter({ keys: writeBad(name, text) })).toThrow(`${join(dir, name)}: ${detail}`);
  });

  it('an invalid inline keys option names the path too', () => {
    expect(() => createMockRouter({ keys: [{ key: 'sk-a', credits: -1 }] })).toThrow(/^keys option: \[0\]\.credits: /);
  });

  it.each(badFiles.slice(0, 2))('the CLI fails at startup on a bad keys file (%s) with that line and exit code 1', async (name, text, detail) => {
    const file = writeBad(name, text);
    const bad = runCli(['--port', '0', '--keys', file]);
    expect(await bad.exit).toBe(1);
    const stderr = bad.stderr();
    expect(stderr).toBe(`mockrouter: --keys ${file}: ${detail}\n`);
    expect(bad.stdout()).toBe('');
  });
});
