/**
 * Invalid options are not HTTP errors: `createMockRouter` and `startServer` throw an `OptionsError` that names the
 * option (src/core/options.ts), and the CLI names the flag instead (test/cli.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createMockRouter, GatewayError, OptionsError, type MockRouterOptions } from '../src/index.js';
import { startServer } from '../src/server/index.js';

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
    [{ clock: Number.NaN }, 'clock', 'expected an ISO 8601 time such as 2026-01-01T00:00:00Z, got "NaN"'],
    [{ generationDelayMs: -1 }, 'generationDelayMs', 'expected a number of ms ≥ 0 or "realistic", got -1'],
    [{ scenario: 'no-such' }, 'scenario', expect.stringMatching(/^unknown scenario "no-such"; loaded scenarios: bad-gateway, bad-request, /)],
  ] as const)('%j names the option', (options, option, problem) => {
    const error = thrown(() => createMockRouter(options as MockRouterOptions));
    expect(error).toBeInstanceOf(OptionsError);
    expect(error).not.toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ option, problem });
    expect((error as Error).message).toBe(`${option}: ${(error as OptionsError).problem}`);
  });

  it('startServer rejects with it before listening', async () => {
    await expect(startServer({ port: 0, clock: 'later' })).rejects.toBeInstanceOf(OptionsError);
  });
});
