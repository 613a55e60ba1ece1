/**
 * Invalid options are not HTTP errors: `createMockRouter` and `startServer` throw an `OptionsError` that names the
 * option (src/core/gateway/options.ts), and the CLI names the flag instead (test/cli.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createMockRouter, GatewayError, OptionsError, type MockRouterOptions } from '../src/index.js';
import { startServer, type ServerOptions } from '../src/server/index.js';

function thrown(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('OptionsError', () => {
  it.each([
    [{ clock: 'soon' }, 'clock', 'expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "soon"'],
    [{ clock: Number.NaN }, 'clock', 'expected a time within years 1970–9999 (whole epoch ms from 0 to 253402300799999), got NaN'],
    [{ generationDelayMs: -1 }, 'generationDelayMs', 'expected a number of ms ≥ 0 or "realistic", got -1'],
    [{ seed: Number.NaN }, 'seed', expect.stringMatching(/./)],
    [{ seed: 1.5 }, 'seed', expect.stringMatching(/integer|int/i)],
    [{ journalSize: 0 }, 'journalSize', expect.stringMatching(/>=1|at least 1|too small/i)],
    [{ maxGenerations: -1 }, 'maxGenerations', expect.stringMatching(/>=0|too small/i)],
    [{ maxGenerations: 1.5 }, 'maxGenerations', expect.stringMatching(/integer|int/i)],
    [{ audioCacheBytes: -1 }, 'audioCacheBytes', expect.stringMatching(/>=0|too small/i)],
    [{ scenario: 'no-such' }, 'scenario', expect.stringMatching(/^unknown scenario "no-such"; loaded scenarios: bad-gateway, bad-request, /)],
  ] as const)('%j names the option', (options, option, problem) => {
    const error = thrown(() => createMockRouter(options as MockRouterOptions));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).not.toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ option, problem });
    expect((error as Error).message).toBe(`${option}: ${(error as OptionsError).problem}`);
  });

  it('maxGenerations: 0 keeps no speech-call record (fixture records stay)', async () => {
    const { contextOf } = await import('./support/gateway-context.js');
    const mock = createMockRouter({ maxGenerations: 0 });
    const generations = contextOf(mock.gateway).generations;
    const record = { id: 'gen-tts-1-x' } as Parameters<typeof generations.add>[0];
    generations.add(record);
    expect(generations.get('gen-tts-1-x')).toBeUndefined();
    expect(generations.get('gen-1773480413-MockrouterFixture001')).toBeDefined();
  });

  it('startServer rejects with it before listening', async () => {
    await expect(startServer({ port: 0, clock: 'later' })).rejects.toBeInstanceOf(OptionsError);
  });

  it.each([
    [{ port: 70_000 }, 'port', 'Too big: expected number to be <=65535'],
    [{ port: 'abc' }, 'port', 'expected number, received string'],
    [{ port: 1.5 }, 'port', 'expected integer, received number'],
    [{ host: 4010 }, 'host', 'expected string, received number'],
    [{ timeouts: { headers: -1 } }, 'timeouts', 'headers: Too small: expected number to be >=0'],
    [{ timeouts: { header: 5 } }, 'timeouts', 'Unrecognized key: "header"'],
    [{ timeouts: { idle: 2 ** 31 } }, 'timeouts', 'idle: Too big: expected number to be <=2147483647'],
    [{ timeouts: { headers: 40_000 } }, 'timeouts', 'headers (40000 ms) must be at most request (30000 ms, the default), the time for the whole request, unless request is 0'],
    [{ timeouts: { headers: 5_000, request: 1_000 } }, 'timeouts', 'headers (5000 ms) must be at most request (1000 ms, given), the time for the whole request, unless request is 0'],
    [{ port: '70000' }, 'port', 'Too big: expected number to be <=65535'],
    [{ port: 0, store: 'http://user:secret@cache:6379' }, 'store', 'expected a redis:// or rediss:// URL (redis://host:6379/0), got http://cache:6379/'],
    [{ port: 0, store: 'redis://127.0.0.1:9', storePrefix: '' }, 'storePrefix', 'expected a non-empty string such as "mockrouter:"'],
    [{ port: 0, replicaId: 'pod\n1' }, 'replicaId', 'expected printable characters only (no control characters)'],
  ])('startServer(%j) rejects with an OptionsError naming the option, not a Node.js listen error', async (options, option, problem) => {
    const error = await startServer(options as ServerOptions).then(
      async (server) => {
        await server.close();
        throw new Error('expected a rejection');
      },
      (error: unknown) => error,
    );
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).toMatchObject({ option, problem });
  });

  it.each([
    [{ timeouts: { headers: 40_000, request: 0 } }],
    [{ timeouts: { headers: 40_000, request: 50_000 } }],
    [{ timeouts: { idle: 2 ** 31 - 1 } }],
  ])('startServer(%j) takes timeouts Node.js takes', async (options) => {
    const server = await startServer({ port: 0, ...(options as ServerOptions) });
    expect((await fetch(`${server.url}/__mock/health`)).status).toBe(200);
    await server.close();
  });

  it('startServer takes a port as a string of digits, as listen() does', async () => {
    const probe = await startServer({ port: 0 });
    const port = new URL(probe.url).port;
    await probe.close();
    const server = await startServer({ port: port as unknown as number });
    expect(new URL(server.url).port).toBe(port);
    await server.close();
  });
});
