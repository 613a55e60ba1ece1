/**
 * The files of `examples/scale-out/` shown on `docs/scale-out.md` (replicas sharing one Valkey/Redis
 * store), checked as far as this machine can run them (`test/examples.test.ts` checks that the page shows them
 * byte for byte):
 *
 * - `docker-compose.yml`, `nginx.conf` and `kubernetes.yaml` cannot run here (no Docker, no cluster): they are
 *   parsed (`yaml`, with the merge keys Compose reads) and hold what the page says: Valkey 8, three `node:22`
 *   replicas each with its own `--replica-id` and the same store, nginx round-robin over the three; in Kubernetes a
 *   Valkey Deployment and Service, a Deployment of 3 whose `--replica-id` is the pod name (downward API
 *   `POD_NAME`), ready on `/__mock/health`, and a Service that selects it.
 * - `start-replicas.sh` runs with bash and curl against a throwaway `redis-server` (`test/support/redis.ts`);
 *   like `redis-server`, a missing bash or curl skips it with a line locally and fails it under CI.
 * - `workers.sh`'s command runs (`--workers 2`, the store swapped for the throwaway one and port 0).
 * - `store-unavailable.json` is what a replica answers once its store is killed, and answers resume when it is back.
 *
 * @module
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { startServer } from '../src/server/index.js';
import { freePort } from './support/free-port.js';
import { describeWithRedis } from './support/redis.js';
import { describeWithCommands } from './support/required-tool.js';

const ROOT = new URL('../', import.meta.url);
const path = (relative: string): string => new URL(relative, ROOT).pathname;
const read = (relative: string): string => readFileSync(path(relative), 'utf8');

/** Whether a TCP connection to 127.0.0.1:`port` is refused (nothing listens). */
async function refused(port: number): Promise<boolean> {
  const socket = connect(port, '127.0.0.1');
  return new Promise((resolve) => {
    socket.once('connect', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(true));
  });
}

/** Whether `port` on 127.0.0.1 can be bound now (and is released again). */
async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port `p` such that `p`, `p + 1` and `p + 2` are free now (start-replicas.sh takes three in a row). */
async function threeFreePorts(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (port < 65_530 && (await bindable(port)) && (await bindable(port + 1)) && (await bindable(port + 2))) return port;
  }
  throw new Error('no three consecutive free ports found');
}

/** A Compose service as the example writes it. */
interface ComposeService {
  image: string;
  command?: string[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

/** The value following `flag` in `args`. */
function flagValue(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
}

describe('examples/scale-out/docker-compose.yml and nginx.conf', () => {
  const compose = parse(read('examples/scale-out/docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const replicas = ['mockrouter-1', 'mockrouter-2', 'mockrouter-3'];

  it('has Valkey 8, three node:22 replicas on the same store each named by --replica-id, and a proxy', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...replicas, 'proxy', 'valkey']);
    expect(compose.services.valkey!.image).toBe('valkey/valkey:8');
    expect(compose.services.valkey!.healthcheck?.test).toEqual(['CMD', 'valkey-cli', 'ping']);
    for (const name of replicas) {
      const service = compose.services[name]!;
      expect(service.image, name).toBe('node:22');
      const command = service.command!;
      expect(command.slice(0, 3), name).toEqual(['npx', '-y', 'mockrouter']);
      expect(flagValue(command, '--host'), name).toBe('0.0.0.0');
      expect(flagValue(command, '--store'), name).toBe('redis://valkey:6379');
      expect(flagValue(command, '--replica-id'), name).toBe(name);
      expect(service.depends_on, name).toEqual({ valkey: { condition: 'service_healthy' } });
      expect(service.healthcheck?.test.join(' '), name).toContain('http://127.0.0.1:4010/__mock/health');
      // Configuration is not shared: the flags are the same on every replica, but the id.
      const others = replicas.filter((n) => n !== name).map((n) => compose.services[n]!.command!.map((a) => (a === n ? name : a)));
      for (const other of others) expect(other, name).toEqual(command);
    }
    const proxy = compose.services.proxy!;
    expect(proxy.image).toMatch(/^nginx:/);
    expect(proxy.ports).toEqual(['4010:4010']);
    expect(proxy.volumes).toEqual(['./nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
    expect(Object.keys(proxy.depends_on!).sort()).toEqual(replicas);
  });

  it('nginx.conf balances over the three replicas on port 4010, unbuffered, keeping the client Host', () => {
    const conf = read('examples/scale-out/nginx.conf');
    const upstream = /upstream mockrouter \{([^}]*)\}/.exec(conf)?.[1] ?? '';
    expect([...upstream.matchAll(/^\s*server (\S+);/gm)].map((m) => m[1])).toEqual(replicas.map((name) => `${name}:4010`));
    expect(conf).not.toMatch(/^\s*(ip_hash|hash|least_conn|random)\b/m); // round-robin, nginx's default
    expect(conf).toMatch(/^\s*listen 4010;/m);
    expect(conf).toMatch(/^\s*proxy_pass http:\/\/mockrouter;/m);
    expect(conf).toMatch(/^\s*proxy_buffering off;/m);
    expect(conf).toMatch(/^\s*proxy_set_header Host \$http_host;/m);
    // Balanced braces: each block closed.
    expect(conf.split('{').length).toBe(conf.split('}').length);
  });
});

describe('examples/scale-out/kubernetes.yaml', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests, read field by field below
  const documents = parseAllDocuments(read('examples/scale-out/kubernetes.yaml')).map((doc) => doc.toJS() as any);
  const find = (kind: string, name: string) => documents.find((d) => d.kind === kind && d.metadata?.name === name);

  it('parses without errors, as four documents: Valkey and mockrouter, each a Deployment and a Service', () => {
    for (const doc of parseAllDocuments(read('examples/scale-out/kubernetes.yaml'))) expect(doc.errors).toEqual([]);
    expect(documents.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(['Deployment/valkey', 'Service/valkey', 'Deployment/mockrouter', 'Service/mockrouter']);
  });

  it('runs Valkey 8 behind Service valkey on 6379', () => {
    const deployment = find('Deployment', 'valkey');
    const container = deployment.spec.template.spec.containers[0];
    expect(container.image).toBe('valkey/valkey:8');
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    const service = find('Service', 'valkey');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0]).toMatchObject({ port: 6379, targetPort: 6379 });
  });

  it('runs 3 mockrouter pods on that store, each named by its pod name, ready on /__mock/health, behind Service mockrouter', () => {
    const deployment = find('Deployment', 'mockrouter');
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    const container = deployment.spec.template.spec.containers[0];
    expect(container.image).toBe('node:22');
    expect(container.command).toEqual(['npx', '-y', 'mockrouter']);
    const args: string[] = container.args;
    expect(flagValue(args, '--host')).toBe('0.0.0.0');
    expect(flagValue(args, '--store')).toBe('redis://valkey:6379');
    expect(flagValue(args, '--replica-id')).toBe('$(POD_NAME)');
    expect(container.env).toContainEqual({ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
    expect(container.ports).toEqual([{ name: 'http', containerPort: 4010 }]);
    expect(container.readinessProbe.httpGet).toEqual({ path: '/__mock/health', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/__mock/health', port: 'http' });
    const service = find('Service', 'mockrouter');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0]).toMatchObject({ port: 4010, targetPort: 'http' });
    // The admin API answers the Service's name (docs/admin-api.md, "Safe on a developer's machine").
    expect(flagValue(args, '--allowed-hosts')).toBe(service.metadata.name);
  });
});

describeWithRedis('examples/scale-out on a throwaway redis-server', (redis) => {
  describeWithCommands('start-replicas.sh', ['bash', 'curl'], () => {
    it('three replicas are one gateway, and all stop', async () => {
      const base = await threeFreePorts();
      const env = { ...process.env, STORE: redis.url, BASE_PORT: String(base), MOCKROUTER: `node ${path('bin/mockrouter.js')}` };
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile('bash', [path('examples/scale-out/start-replicas.sh')], { env, timeout: 60_000 }, (error, stdout, stderr) => {
          resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stdout, stderr });
        });
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(
        new RegExp(
          [
            '^replica-1 spoke: (gen-tts-\\d{10}-[A-Za-z0-9]{20})',
            'replica-2 found it: \\1 \\(cost ([0-9.e-]+) USD\\)',
            'replica-3 counts it: usage \\2 USD of 1',
            '#1 speech 200 by replica-1',
            '#2 generation 200 by replica-2',
            '#3 key 200 by replica-3\n$',
          ].join('\n'),
        ),
      );
      for (const port of [base, base + 1, base + 2]) expect(await refused(port), `port ${port} is free again`).toBe(true);
    }, 90_000);
  });

  it("workers.sh: its command starts two workers on one port, sharing the store, and SIGTERM stops them", async () => {
    const line = read('examples/scale-out/workers.sh').split('\n').find((l) => l.startsWith('npx mockrouter'))!;
    const args = line.split(' ').slice(2);
    expect(args).toEqual(['--store', 'redis://127.0.0.1:6379', '--workers', '2']);
    const store = `${redis.url}/0`;
    const child = spawn(process.execPath, [path('bin/mockrouter.js'), ...args.map((a) => (a.startsWith('redis://') ? store : a)), '--port', '0', '--quiet', '--store-prefix', `workers-${process.pid}:`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const lines = createInterface({ input: child.stdout });
      const [ready] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [`exited: ${stderr}`])])) as [string];
      expect(ready).toMatch(new RegExp(`^mockrouter listening on http://127\\.0\\.0\\.1:\\d+/api/v1 \\(2 workers, store ${store.replace(/[.]/g, '\\.')}\\)$`));
      const api = /on (\S+)/.exec(ready)![1]!;
      const answer = await fetch(`${api}/models/count`, { headers: { Authorization: 'Bearer sk-workers' } });
      expect(answer.status).toBe(200);
      const journal = (await (await fetch(new URL('/__mock/requests', api))).json()) as { requests: { path: string; replica: string }[] };
      expect(journal.requests.map((r) => r.path)).toEqual(['/api/v1/models/count']);
    } finally {
      const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve([child.exitCode]);
      child.kill('SIGTERM');
      const [exitCode] = await exited;
      expect(exitCode).toBe(0);
    }
  }, 60_000);

  it('store-unavailable.json: the 503 a replica answers while its store is away (Retry-After: 1, health still 200); it answers again once the store is back', async () => {
    const server = await startServer({ port: 0, store: redis.url, storePrefix: `away-${process.pid}:`, replicaId: 'away', onStoreStatus: () => undefined });
    try {
      const count = () => fetch(`${server.baseUrl}/models/count`, { headers: { Authorization: 'Bearer sk-away' } });
      expect((await count()).status).toBe(200);
      await redis.kill();
      const answer = await count();
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      const shown = JSON.parse(read('examples/scale-out/store-unavailable.json'));
      const body = await answer.json();
      // The page's store is redis://127.0.0.1:6379/0; this one is on another port. The reason is the client's
      // message: "not connected" once the connection is known lost, as in the page (a request racing the loss
      // itself may see another one).
      const description = `redis://127.0.0.1:${redis.port}/0`;
      expect(body.error.message).toMatch(new RegExp(`^mockrouter's state store ${description.replace(/[.]/g, '\\.')} is unavailable \\(.+\\); the simulator reconnects by itself, retry shortly$`));
      const reason = /\((.+)\)/.exec(body.error.message)![1]!;
      expect(JSON.parse(JSON.stringify(body).replace(description, 'redis://127.0.0.1:6379/0').replace(`(${reason})`, '(not connected)'))).toEqual(shown);
      expect((await fetch(`${server.url}/__mock/health`)).status).toBe(200);

      await redis.restart();
      let status = 0;
      for (let attempt = 0; attempt < 300 && status !== 200; attempt++) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await count()).status;
      }
      expect(status, 'answers again within 30 s of the store coming back').toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});
