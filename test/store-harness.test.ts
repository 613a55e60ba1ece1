/**
 * The store harness (`test/support/redis.ts`) with the chosen client (`ioredis`), before any
 * mockrouter code uses them: a throwaway `redis-server` answers, holds nothing on disk, and leaves nothing behind;
 * with the offline queue off, a crash of the store makes commands fail at once instead of hanging, and the client
 * reconnects by itself when the store comes back. These are the client settings the Redis store is to use
 * (bench/README.md, "Store client").
 *
 * Exact under load: the tests wait for the client's events, never for a time; the only time bound (1 s) is an
 * upper one that excludes a command queued until the store returns.
 */
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithRedis, startRedisServer } from './support/redis.js';

/** Fail fast while the store is away (no offline queue, in-flight commands flushed at once), reconnect by itself. */
const FAIL_FAST: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  retryStrategy: (attempt) => Math.min(50 * attempt, 500),
};

/** How long a command may take to fail once the store is gone: excludes a command waiting for the store. */
const FAILS_WITHIN_MS = 1000;

describeWithRedis('store harness: redis-server and ioredis', (redis) => {
  let client: Redis;
  beforeAll(async () => {
    client = new Redis(redis.url, FAIL_FAST);
    client.on('error', () => {}); // connection errors while the store is killed: expected, and seen through the commands
    await client.connect();
  });
  afterAll(() => {
    client.disconnect();
  });

  it('answers INCR, with no persistence configured', async () => {
    expect(await client.incr('harness:n')).toBe(1);
    expect(await client.incr('harness:n')).toBe(2);
    expect(await client.config('GET', 'save')).toEqual(['save', '']);
    expect(await client.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    expect(await client.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
  });

  it('fails fast while the store is killed, and works again by itself once it is restarted', async () => {
    // A command in flight when the store dies (BLPOP with no timeout stays in flight until the connection ends).
    const blocker = new Redis(redis.url, FAIL_FAST);
    blocker.on('error', () => {});
    await blocker.connect();
    const inFlight = blocker.blpop('harness:never', 0);
    inFlight.catch(() => {});
    const listed = async (): Promise<boolean> => String(await client.client('LIST')).includes('cmd=blpop');
    while (!(await listed())) await new Promise((resolve) => setImmediate(resolve));

    await redis.kill();
    expect(redis.running).toBe(false);
    const killed = performance.now();
    await expect(inFlight).rejects.toThrow(/max retries per request/i);
    // Refused at once as offline, or flushed at once if the client had not yet seen the connection end.
    await expect(client.incr('harness:n')).rejects.toThrow(/enableOfflineQueue|max retries per request/i);
    expect(performance.now() - killed).toBeLessThan(FAILS_WITHIN_MS);

    await redis.restart();
    expect(redis.running).toBe(true);
    if (client.status !== 'ready') await once(client, 'ready');
    expect(await client.incr('harness:n')).toBe(1); // a fresh store: nothing was persisted
    if (blocker.status !== 'ready') await once(blocker, 'ready');
    expect(await blocker.ping()).toBe('PONG');
    blocker.disconnect();
  });

  it('starts a second server of its own on another port, and stop() ends it and removes its folder', async () => {
    const server = await startRedisServer();
    expect(server.port).not.toBe(redis.port);
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(existsSync(server.dir)).toBe(true);
    const client = new Redis(server.url, FAIL_FAST);
    client.on('error', () => {});
    await client.connect();
    expect(await client.ping()).toBe('PONG');
    client.disconnect();
    await server.stop();
    expect(server.running).toBe(false);
    expect(existsSync(server.dir)).toBe(false);
    await expect(server.restart()).rejects.toThrow(/was stopped/);
  });
});
