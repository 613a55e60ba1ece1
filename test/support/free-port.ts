/**
 * A TCP port to listen on, or to point a client at where nothing listens: the operating system's pick for port 0
 * on 127.0.0.1, released at once.
 *
 * @module
 */
import { createServer, type AddressInfo } from 'node:net';

/**
 * A port that was free on 127.0.0.1 a moment ago (the OS's pick for port 0), where nothing listens now. Another
 * process may take it before the caller does; tests that need a port kept use port 0 themselves.
 *
 * @throws the listen error when no port can be bound on 127.0.0.1.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
