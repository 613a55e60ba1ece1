/**
 * `GET /key` and `GET /credits` in both modes, through `@openrouter/sdk` (`apiKeys.getCurrentKeyMetadata`,
 * `credits.getCredits`), which validates every member the OpenAPI document requires (`docs/behaviour.md`, "Keys and
 * credits"): the key's label, limit and what remains of it, what its speech calls spent (the sum of their
 * records' `total_cost`) in total and by UTC day, week and month of the simulator's clock, and the user's totals
 * for a management key.
 */
import { OpenRouter } from '@openrouter/sdk';
import * as errors from '@openrouter/sdk/models/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyLabel } from '../src/core/accounts/accounts.js';
import { modes, type RunningMode } from './support/modes.js';
import { getJson, speech } from './support/stateful.js';

const MODEL = 'x-ai/grok-voice-tts-1.0';
const VOICE = 'eve';
/** 40 characters at $0.000015 each: $0.0006 a call. */
const INPUT = 'Forty characters of text for each call!!';
const CALL_COST = 0.0006;
const KEY = 'sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab';
const MANAGEMENT = 'sk-or-v1-management-key-of-the-same-user-000000000000000000000000';
const OTHER = 'sk-or-v1-another-user-00000000000000000000000000000000000000000000';
const USER_ID = 'user_KeyCreditsTestUser000000000';
/** Two calls fit, the third does not. */
const CREDITS = 0.0015;
/** Wednesday 2026-01-14, noon UTC. */
const WEDNESDAY = Date.UTC(2026, 0, 14, 12);
const DAY = 86_400_000;

describe.each(modes)('GET /key and GET /credits with a keys file ($name)', (mode) => {
  let mock: RunningMode;
  let now = WEDNESDAY;
  const sdk = (apiKey: string) => new OpenRouter({ serverURL: mock.baseUrl, apiKey, retryConfig: { strategy: 'none' } });
  const key = async (apiKey = KEY) => (await sdk(apiKey).apiKeys.getCurrentKeyMetadata()).data;

  beforeAll(async () => {
    mock = await mode.start({
      seed: 4,
      now: () => now,
      keys: [
        { key: KEY, credits: CREDITS, user_id: USER_ID },
        { key: MANAGEMENT, credits: 10, user_id: USER_ID, management: true },
        { key: OTHER, free_tier: true },
      ],
    });
  });
  afterAll(() => mock.stop());

  it('describes a fresh key: its label (never the whole key), its limit, nothing spent', async () => {
    const data = await key();
    expect(data.label).toBe(keyLabel(KEY));
    expect(data.label).toBe('sk-or-v1-012...9ab');
    expect(data.label).not.toContain(KEY);
    expect(data).toMatchObject({ limit: CREDITS, limitRemaining: CREDITS, usage: 0, usageDaily: 0, usageWeekly: 0, usageMonthly: 0, creatorUserId: USER_ID, isManagementKey: false, isFreeTier: false });
    expect((await key(OTHER)).isFreeTier).toBe(true);
    expect((await key(OTHER)).limit).toBeNull();
  });

  it("after two speech calls, usage is the sum of their records' total_cost and limit_remaining is credits − usage", async () => {
    const costs: number[] = [];
    for (let i = 0; i < 2; i++) {
      const { res, id } = await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, KEY);
      expect(res.status).toBe(200);
      const record = await getJson<{ data: { total_cost: number } }>(mock.baseUrl, `/generation?id=${id}`, KEY);
      costs.push(record.body.data.total_cost);
    }
    expect(costs[0]).toBeCloseTo(CALL_COST, 12);
    const data = await key();
    expect(data.usage).toBeCloseTo(costs[0]! + costs[1]!, 12);
    expect(data.limitRemaining).toBeCloseTo(CREDITS - data.usage, 12);
    expect([data.usageDaily, data.usageWeekly, data.usageMonthly]).toEqual([data.usage, data.usage, data.usage]);
  });

  it('once the credit runs out, the 402 and /key agree', async () => {
    const before = await key();
    expect(before.limitRemaining!).toBeLessThan(CALL_COST);
    const { res } = await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, KEY);
    expect(res.status).toBe(402);
    const after = await key();
    expect(after.usage).toBe(before.usage);
    expect(after.limitRemaining).toBe(before.limitRemaining);
  });

  it("usage_daily, usage_weekly and usage_monthly follow the simulator's clock (weeks from Monday, UTC)", async () => {
    const spent = (await key()).usage;
    now = WEDNESDAY + 1 * DAY; // Thursday: same week and month
    expect(await key()).toMatchObject({ usage: spent, usageDaily: 0, usageWeekly: spent, usageMonthly: spent });
    now = WEDNESDAY + 5 * DAY; // Monday 2026-01-19: a new week
    expect(await key()).toMatchObject({ usage: spent, usageDaily: 0, usageWeekly: 0, usageMonthly: spent });
    now = Date.UTC(2026, 1, 1, 0, 0, 1); // a new month
    expect(await key()).toMatchObject({ usage: spent, usageDaily: 0, usageWeekly: 0, usageMonthly: 0 });
    now = WEDNESDAY;
  });

  it("credits.getCredits: the management key reads its user's totals; other keys get the 403 envelope", async () => {
    const spent = (await key()).usage;
    const { data } = await sdk(MANAGEMENT).credits.getCredits();
    expect(data.totalCredits).toBeCloseTo(CREDITS + 10, 12);
    expect(data.totalUsage).toBeCloseTo(spent, 12);
    for (const apiKey of [KEY, OTHER]) {
      const error = await sdk(apiKey).credits.getCredits().then(
        () => expect.fail('expected a 403'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(errors.ForbiddenResponseError);
      expect((error as errors.ForbiddenResponseError).statusCode).toBe(403);
      expect((error as errors.ForbiddenResponseError).data$.error.code).toBe(403);
    }
    expect((await key(MANAGEMENT)).isManagementKey).toBe(true);
  });

  it('a key not in the file is a 401 on both', async () => {
    for (const path of ['/key', '/credits']) {
      const { res, body } = await getJson<{ error: { message: string } }>(mock.baseUrl, path, 'sk-unknown');
      expect(res.status).toBe(401);
      expect(body.error.message).toBe('User not found.');
    }
  });
});

describe.each(modes)('GET /key and GET /credits without a keys file ($name)', (mode) => {
  let mock: RunningMode;
  beforeAll(async () => {
    mock = await mode.start({ seed: 4 });
  });
  afterAll(() => mock.stop());

  it('every key is unlimited and its usage still counts; /credits answers any key', async () => {
    const client = new OpenRouter({ serverURL: mock.baseUrl, apiKey: 'sk-anything', retryConfig: { strategy: 'none' } });
    expect((await client.apiKeys.getCurrentKeyMetadata()).data).toMatchObject({ limit: null, limitRemaining: null, usage: 0 });
    const { res } = await speech(mock.baseUrl, { model: MODEL, input: INPUT, voice: VOICE }, 'sk-anything');
    expect(res.status).toBe(200);
    const data = (await client.apiKeys.getCurrentKeyMetadata()).data;
    expect(data.usage).toBeCloseTo(CALL_COST, 12);
    expect(data).toMatchObject({ limit: null, limitRemaining: null });
    const credits = (await client.credits.getCredits()).data;
    expect(credits.totalUsage).toBeCloseTo(CALL_COST, 12);
    expect(credits.totalCredits).toBeGreaterThan(credits.totalUsage);
  });

  it('counts the :free requests of the day in free_model_daily_requests', async () => {
    const client = new OpenRouter({ serverURL: mock.baseUrl, apiKey: 'sk-free', retryConfig: { strategy: 'none' } });
    for (let i = 0; i < 3; i++) {
      const { res } = await speech(mock.baseUrl, { model: `${MODEL}:free`, input: 'Hi.', voice: VOICE }, 'sk-free');
      expect(res.status).toBe(200);
    }
    const data = (await client.apiKeys.getCurrentKeyMetadata()).data;
    expect(data.freeModelDailyRequests).toEqual({ limit: 1000, remaining: 997, used: 3 });
    expect(data.usage).toBe(0);
  });
});

describe('keyLabel', () => {
  it.for(['sk-or-v1-0123456789abcdef', 'sk-test-1', 'k', 'x...', 'abcdefghijkl', 'sk-😀-emoji-key-0000'])('never shows the whole key: %s', (k) => {
    const label = keyLabel(k);
    expect(label).toContain('...');
    expect(label).not.toBe(k);
    expect(label.replace('...', '')).not.toBe(k);
    expect(label.length).toBeLessThanOrEqual(18);
  });
});
