/**
 * The replicas mode of `test/support/modes.ts`: two standalone servers (`startServer`) sharing one
 * throwaway `redis-server` (`test/support/redis.ts`, a fresh key prefix each start), behind a round-robin
 * forwarder, so consecutive requests of a contract case are answered by different replicas: a generation made on
 * one is read on the other, credits run out across both, scenario counters, the clock and the default scenario are
 * one gateway's.
 *
 * Before it forwards a request, the forwarder waits for `gateway.sync()` of the first replica (the `gateway` a test
 * steers in-process: `clock.advance`, `useScenario`, `reset`), as a test that shares a store across processes
 * should (`docs/scale-out.md`): its changes are in the store before the next request reaches either replica.
 *
 * @module
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockRouterOptions } from '../../src/index.js';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { startRedisServer, type RedisServer } from './redis.js';

/** Two replicas on one store behind a round-robin forwarder. */
export interface RunningReplicas {
  /** The forwarder's origin, `http://127.0.0.1:<port>`: its `/api/v1` and `/__mock/` alternate between replicas. */
  readonly url: string;
  /** The replicas, `r1` and `r2` (their `replicaId`s). */
  readonly servers: readonly [RunningServer, RunningServer];
  /** The store. */
  readonly redis: RedisServer;
  /** Stops the forwarder, both replicas and the store. */
  stop(): Promise<void>;
}

let starts = 0;

/**
 * Starts two replicas with `options` (ports and store chosen here) on a new `redis-server`, and the forwarder.
 *
 * @throws when `redis-server` cannot start (`test/support/redis.ts` says why) or a replica cannot.
 */
export async function startReplicas(options: MockRouterOptions = {}): Promise<RunningReplicas> {
  const redis = await startRedisServer();
  const prefix = `mockrouter-test-${process.pid}-${++starts}:`;
  const shared = { ...options, store: redis.url, storePrefix: prefix, port: 0 };
  const servers = [await startServer({ ...shared, replicaId: 'r1' }), await startServer({ ...shared, replicaId: 'r2' })] as const;
  let next = 0;
  const forwarder = createServer((incoming, outgoing) => {
    const target = servers[next++ % servers.length]!;
    void servers[0].gateway.sync().then(
      () => forward(incoming, outgoing, new URL(target.url)),
      () => forward(incoming, outgoing, new URL(target.url)),
    );
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  const { port } = forwarder.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    servers,
    redis,
    async stop() {
      forwarder.closeAllConnections();
      await new Promise<void>((resolve) => forwarder.close(() => resolve()));
      await Promise.all(servers.map((server) => server.close()));
      await redis.stop();
    },
  };
}

/**
 * Sends `incoming` to `target` as it came (method, path, headers, and its body once read whole, so a replica that
 * answers before reading it, a 401, cannot reset a body still on its way) and its answer back as it comes (status,
 * headers, body streamed); a connection the replica drops (a scenario's cut or reset) is dropped here too.
 */
function forward(incoming: IncomingMessage, outgoing: ServerResponse, target: URL): void {
  const chunks: Buffer[] = [];
  incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
  incoming.on('error', () => outgoing.destroy());
  incoming.on('end', () => send(incoming, Buffer.concat(chunks), outgoing, target));
}

/** {@link forward} once the request's body was read. */
function send(incoming: IncomingMessage, body: Buffer, outgoing: ServerResponse, target: URL): void {
  const upstream = httpRequest(
    { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      answer.pipe(outgoing);
      answer.on('aborted', () => outgoing.destroy());
      answer.on('error', () => outgoing.destroy());
    },
  );
  upstream.on('error', () => {
    if (!outgoing.writableEnded) outgoing.destroy();
  });
  outgoing.on('close', () => {
    if (!outgoing.writableFinished) upstream.destroy();
  });
  upstream.end(body);
}
