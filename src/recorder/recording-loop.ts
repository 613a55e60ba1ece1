/**
 * Keeping the recorder from forwarding to itself. At start, an `--upstream` that connects to the recorder's own
 * listening address is refused ({@link isOwnAddress}). While it runs, each forwarded request carries a `Via` entry
 * naming this recorder (RFC 9110, section 7.6.3: each proxy adds its own), so a request that comes back to it by
 * another way (a host name for this machine, another proxy or recorder in a circle) is answered 508 Loop Detected
 * at once ({@link cameBack}) instead of being forwarded again.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/** A `Via` pseudonym naming one recorder (random per recorder): `mockrouter-record-<12 hex>`. */
export function viaName(): string {
  return `mockrouter-record-${randomBytes(6).toString('hex')}`;
}

/** Whether a request's `Via` header lists `name` (the request went through this recorder before). */
export function cameBack(via: string | string[] | undefined, name: string): boolean {
  const text = Array.isArray(via) ? via.join(',') : (via ?? '');
  return text.split(',').some((entry) => entry.trim().split(/\s+/)[1] === name);
}

/** `address` with an IPv4-mapped IPv6 form (`::ffff:127.0.0.1`) as IPv4. */
function plain(address: string): string {
  return address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1').toLowerCase();
}

function isUnspecified(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^127\./.test(address);
}

/** The addresses of this machine's interfaces, loopback included. */
function localAddresses(): Set<string> {
  const addresses = new Set<string>();
  for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) addresses.add(plain(entry.address));
  return addresses;
}

/**
 * Whether a connection to `upstream` (an `http:` or `https:` origin) reaches a server listening on `address` and
 * `port` (this recorder): the same port, and one of the addresses the upstream's host resolves to is the one
 * listened on, or any address of this machine when listening on all of them (`0.0.0.0`, `::`). A connection to the
 * unspecified address reaches the loopback one. A host that does not resolve is not this recorder.
 */
export async function isOwnAddress(upstream: string, address: string, port: number): Promise<boolean> {
  const url = new URL(upstream);
  const upstreamPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (upstreamPort !== port) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let resolved: string[];
  try {
    resolved = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return false;
  }
  const listened = plain(address);
  const local = isUnspecified(listened) ? localAddresses() : undefined;
  return resolved.map(plain).some((target) => {
    if (local !== undefined) return isUnspecified(target) || isLoopback(target) || local.has(target);
    return target === listened || (isUnspecified(target) && isLoopback(listened));
  });
}
