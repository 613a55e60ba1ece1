import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createMockRouter, errorOnUnhandled } from 'mockrouter';

const mock = createMockRouter({ seed: 42 });
const server = mock.attach(setupServer(...mock.handlers)); // attach: msw 2 and retrying clients, see docs/scenarios.md
beforeAll(() => server.listen(errorOnUnhandled()));
afterAll(() => server.close());

test('looks up a model', async () => {
  const res = await fetch('https://openrouter.ai/api/v1/model/openai/gpt-4o-mini', {
    headers: { Authorization: 'Bearer sk-test' },
  });
  expect((await res.json()).data.id).toBe('openai/gpt-4o-mini');
});
