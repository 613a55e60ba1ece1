/**
 * In-process cost: `fetch` through `msw/node`'s `setupServer`, answered by mockrouter's handlers or by a
 * trivial msw handler returning the same model record. Run by bench/run.ts in a fresh process.
 *
 * One msw server is listening the whole time; only its handlers change between the variants
 * (`resetHandlers`), so the interception machinery is the same for all:
 *
 * - `trivial`: `http.get('https://openrouter.ai/api/v1/model/*', () => HttpResponse.json(record))`, what a test
 *   would write by hand without mockrouter;
 * - `mockrouter`: `createMockRouter().handlers`;
 * - `mockrouter + attach`: the same plus `mock.attach(server)` (the README's setup; it drains msw 2's copy of
 *   each mocked response).
 *
 * Each variant: `warmup` sequential requests, then `requests` sequential requests measured in `rounds` slices,
 * the order of the variants reversed every round. Every request awaits the whole body.
 *
 * Usage: `node --import tsx bench/inprocess.ts <requests> <warmup> <rounds>`; prints one JSON line
 * ({@link InProcessResult}).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { HttpHandler } from 'msw';
import type * as MockRouterModule from '../src/index.js';

/** The package entry as `exports["."]` names it, built and bundled (`npm run build`); typed from its source. */
const PACKAGE_ENTRY = new URL('../dist/lib/index.js', import.meta.url).href;
const URL_MODEL = 'https://openrouter.ai/api/v1/model/openai/gpt-4o-mini';
const INIT: RequestInit = { headers: { Authorization: 'Bearer sk-bench' } };

export interface VariantResult {
  name: string;
  requests: number;
  /** Wall time per request, µs (all measured requests / their total time). */
  wallUsPerReq: number;
  /** Process CPU time (user + system) per request, µs. */
  cpuUsPerReq: number;
  /** Median of the slices' wall µs per request. */
  sliceMedianUs: number;
  failures: number;
}

export interface InProcessResult {
  /** Version of the msw package that ran. */
  msw: string;
  /** Bytes of the model record both handlers answer with. */
  bodyBytes: number;
  variants: VariantResult[];
}

async function main(): Promise<void> {
  const [requests = 5000, warmup = 1000, rounds = 4] = process.argv.slice(2).map(Number);
  const { setupServer } = await import('msw/node');
  const { http, HttpResponse } = await import('msw');
  const { createMockRouter } = (await import(PACKAGE_ENTRY)) as typeof MockRouterModule;

  const server = setupServer();
  // No options: msw 2 calls the unhandled-request option onUnhandledRequest, msw 3 onUnhandledFrame. Every
  // request here is handled (a failure would show as a non-200 count).
  server.listen();
  const mock = createMockRouter({ seed: 1 });

  // The record the trivial handler answers with: exactly the mock's.
  server.resetHandlers(...mock.handlers);
  const first = await fetch(URL_MODEL, INIT);
  const text = await first.text();
  if (first.status !== 200) throw new Error(`mockrouter answered ${first.status}: ${text.slice(0, 300)}`);
  const record = JSON.parse(text) as Record<string, unknown>;
  const trivial = http.get('https://openrouter.ai/api/v1/model/*', () => HttpResponse.json(record));

  const variants: Array<{ name: string; handlers: HttpHandler[]; attach: boolean }> = [
    { name: 'trivial msw handler', handlers: [trivial], attach: false },
    { name: 'mockrouter handlers', handlers: mock.handlers, attach: false },
    { name: 'mockrouter handlers + attach()', handlers: mock.handlers, attach: true },
  ];
  // msw 2 and 3 type their event maps differently; both emitters take an event name here.
  const events = server.events as unknown as { removeAllListeners(event: string): void };
  const use = (v: (typeof variants)[number]) => {
    events.removeAllListeners('response:mocked');
    server.resetHandlers(...v.handlers);
    if (v.attach) mock.attach(server);
  };

  const totals = variants.map(() => ({ wallMs: 0, cpuUs: 0, n: 0, failures: 0, slices: [] as number[] }));
  const batch = async (n: number, i: number | null) => {
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    let failures = 0;
    for (let k = 0; k < n; k++) {
      const res = await fetch(URL_MODEL, INIT);
      await res.arrayBuffer();
      if (res.status !== 200) failures++;
    }
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    if (i === null) return;
    const t = totals[i]!;
    t.wallMs += wallMs;
    t.cpuUs += cpu.user + cpu.system;
    t.n += n;
    t.failures += failures;
    t.slices.push((wallMs * 1000) / n);
  };

  for (let i = 0; i < variants.length; i++) {
    use(variants[i]!);
    await batch(warmup, null);
  }
  const perSlice = Math.max(1, Math.round(requests / rounds));
  for (let round = 0; round < rounds; round++) {
    for (let j = 0; j < variants.length; j++) {
      const i = round % 2 === 0 ? j : variants.length - 1 - j;
      use(variants[i]!);
      await batch(perSlice, i);
    }
  }
  server.close();

  const result: InProcessResult = {
    msw: (JSON.parse(readFileSync(new URL('../node_modules/msw/package.json', import.meta.url), 'utf8')) as { version: string }).version,
    bodyBytes: Buffer.byteLength(text),
    variants: variants.map((v, i) => {
      const t = totals[i]!;
      const sorted = [...t.slices].sort((a, b) => a - b);
      return {
        name: v.name,
        requests: t.n,
        wallUsPerReq: (t.wallMs * 1000) / t.n,
        cpuUsPerReq: t.cpuUs / t.n,
        sliceMedianUs: sorted.length % 2 ? sorted[sorted.length >> 1]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2,
        failures: t.failures,
      };
    }),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// Run only as a script, not when imported for its types.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Exit if the bench goes away.
  const orphaned = () => process.exit(0);
  process.on('disconnect', orphaned);
  await main();
  process.off('disconnect', orphaned);
  process.disconnect?.();
}
