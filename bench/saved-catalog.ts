/**
 * The saved-catalog figures: mockrouter serving a saved real catalog (`--fixtures <folder>` holding
 * only `models.json`, the gateway's `GET /api/v1/models?output_modalities=all` answer `{"data": [<Model>, ...]}`)
 * against the bare `node:http` server replaying its exact answers (the ceiling, as section 1 measures the
 * built-in catalog).
 *
 * The catalog is {@link CATALOG_MODELS} base models from `savedCatalog` (test/support/saved-catalog.ts, the
 * real shape with `:free` variants, speech models and fields the schema does not know), written to a temporary
 * folder that is removed afterwards. The cases: a model lookup of a model in that catalog
 * (`getModel`), the whole list (`getModels` with `output_modalities=all`), a filtered list
 * (`output_modalities=speech`) and the count (`listModelsCount`, default `text`). Lists are memoized by their
 * query (src/core/catalog/list-answers.ts), lookups are by id in the catalog. Report and goals:
 * saved-catalog-report.ts.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertSameResponse, capture, compare, fixed, type Measured } from './load.js';
import { startBare, startMock, stopChild, type BenchRequest, type Target } from './targets.js';
import { savedCatalog } from '../test/support/saved-catalog.js';

/** Base models in the saved catalog (the generator adds the `:free` variants of every 25th). */
export const CATALOG_MODELS = 500;

const AUTH = { Authorization: 'Bearer sk-bench' };

/** What a case asks, and whether its answer is a list (judged against the lists' goal) or a lookup. */
export interface CatalogCase {
  name: string;
  kind: 'lookup' | 'list';
  request: BenchRequest;
}

/** One case as measured: mockrouter and the bare replay of its answer. */
export interface CatalogRow extends CatalogCase {
  /** Bytes of the answer's body (the same on both sides: the replay is checked byte for byte). */
  bodyBytes: number;
  /** Records in the answer's `data` array, `null` for an answer that is not a list. */
  records: number | null;
  mock: Measured;
  bare: Measured;
}

export interface CatalogResult {
  /** Records in `models.json` (base models and listed `:free` variants). */
  records: number;
  /** Size of `models.json`, bytes. */
  fileBytes: number;
  connections: number;
  rows: CatalogRow[];
}

export interface CatalogOptions {
  connections: number;
  /** Measured seconds per case and server, split over the rounds. */
  duration: number;
  /** Warm-up seconds per case and server (0: none). */
  warmup: number;
  rounds: number;
  progress: (message: string) => void;
}

/** The cases, for a catalog whose records are `data` (the lookup asks for the record in the middle). */
function catalogCases(data: Array<{ id: string }>): CatalogCase[] {
  const id = data[data.length >> 1]!.id;
  const get = (path: string): BenchRequest => ({ method: 'GET', path, headers: AUTH });
  return [
    { name: `model lookup (${id})`, kind: 'lookup', request: get(`/api/v1/model/${id}`) },
    { name: 'list, output_modalities=all', kind: 'list', request: get('/api/v1/models?output_modalities=all') },
    { name: 'list, output_modalities=speech', kind: 'list', request: get('/api/v1/models?output_modalities=speech') },
    { name: 'count', kind: 'list', request: get('/api/v1/models/count') },
  ];
}

/**
 * Writes the saved catalog to a temporary folder, starts mockrouter on it (`--fixtures <folder>`) and the bare
 * server, and measures each case on both with `compare` (load.ts): a warm-up each, then `rounds` slices, the order
 * reversed every slice. Before measuring a case the bare server is given mockrouter's answer and its replay is
 * checked byte for byte. Both servers are stopped and the folder removed before it returns, on error too.
 *
 * @throws Error when mockrouter answers a case with other than 200, or the replay differs from its answer.
 */
export async function measureCatalog(options: CatalogOptions): Promise<CatalogResult> {
  const { progress } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mockrouter-bench-catalog-'));
  const started: Target[] = [];
  try {
    const catalog = savedCatalog(CATALOG_MODELS);
    const text = JSON.stringify(catalog);
    writeFileSync(join(dir, 'models.json'), text);
    const [mock, bare] = await Promise.all([startMock([], ['--fixtures', dir]), startBare()]);
    started.push(mock, bare);
    progress(`catalog: ${catalog.data.length} records (${text.length} bytes) in ${dir}; mockrouter on ${mock.origin}, bare node:http on ${bare.origin}`);

    const rows: CatalogRow[] = [];
    for (const c of catalogCases(catalog.data)) {
      const recorded = await capture(mock.origin, c.request);
      if (recorded.status !== 200) throw new Error(`catalog: ${c.name}: mockrouter answered ${recorded.status}: ${recorded.body.toString().slice(0, 300)}`);
      await bare.serve(recorded);
      assertSameResponse(`catalog: ${c.name}: bare server's replay`, recorded, await capture(bare.origin, c.request));
      const data = (JSON.parse(recorded.body.toString('utf8')) as { data: unknown }).data;
      progress(`catalog: ${c.name}, ${options.connections} connections…`);
      const load = [fixed(c.request)];
      const [m, b] = await compare([{ target: mock, load }, { target: bare, load }], { ...options, timeout: 10 });
      rows.push({ ...c, bodyBytes: recorded.body.byteLength, records: Array.isArray(data) ? data.length : null, mock: m!, bare: b! });
    }
    return { records: catalog.data.length, fileBytes: Buffer.byteLength(text), connections: options.connections, rows };
  } finally {
    await Promise.all(started.map((t) => stopChild(t.child)));
    rmSync(dir, { recursive: true, force: true });
  }
}
