/**
 * Which `Host` values the standalone server's admin API answers (the DNS rebinding defense of `guard.ts`):
 * the local names and addresses, the server's own, and those of option `allowedHosts` (`--allowed-hosts`).
 *
 * @module
 */
import { OptionsError } from '../base/errors.js';
import { type AllowedHostsOption } from '../gateway/options.js';

export type { AllowedHostsOption } from '../gateway/options.js';

/** Which `Host` values the admin API answers; made by {@link hostPolicyOf}. */
export interface HostPolicy {
  /** Any host (`all`). */
  readonly any: boolean;
  /** Exact hosts, lower-case, IPv6 in brackets (`localhost`, `127.0.0.1`, `[::1]`, ...). */
  readonly hosts: ReadonlySet<string>;
  /** Domains given with a leading dot, without it: the domain and its subdomains match. */
  readonly domains: readonly string[];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** `host` (no port) lower-case, without a trailing dot, IPv6 in brackets; `undefined` when it is no host. */
function normalizeHost(host: string): string | undefined {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (h.includes(':') && !h.startsWith('[')) h = `[${h.replace(/%.*$/, '')}]`;
  return HOST_NAME.test(h) || IPV6.test(h) ? h : undefined;
}

/**
 * The host of a `Host` header value: without the port, lower-case, without a trailing dot (`[::1]:4010` →
 * `[::1]`, `LocalHost.:80` → `localhost`).
 */
export function hostOfHeader(value: string): string {
  const v = value.trim().toLowerCase();
  if (v.startsWith('[')) {
    const end = v.indexOf(']');
    return end === -1 ? v : v.slice(0, end + 1);
  }
  const colon = v.lastIndexOf(':');
  return (colon === -1 ? v : v.slice(0, colon)).replace(/\.$/, '');
}

const EXPECTED_HOSTS = 'expected "all" or hosts separated by commas: names such as mock.internal, IP addresses, or .domain for a domain and its subdomains';

/**
 * The host policy of option `allowedHosts` plus the server's own addresses.
 *
 * @param local the addresses the server answers as (its bound address; every interface's when bound to all),
 *   from the server; entries that are no host (`0.0.0.0`, `::`) are ignored.
 * @throws {OptionsError} (`option` `allowedHosts`) for an entry that is no host name, IP address or `.domain`:
 *   `expected "all" or hosts separated by commas: ...; got "http://x"`.
 * @example hostPolicyOf('mock.internal', ['127.0.0.1']).hosts // Set { 'localhost', '127.0.0.1', '[::1]', 'mock.internal' }
 */
export function hostPolicyOf(option: AllowedHostsOption | undefined, local: readonly string[] = []): HostPolicy {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]']);
  for (const address of local) {
    const host = normalizeHost(address);
    if (host !== undefined && host !== '0.0.0.0' && host !== '[::]') hosts.add(host);
  }
  if (option === true) return { any: true, hosts, domains: [] };
  const domains: string[] = [];
  let any = false;
  const list: readonly unknown[] = option === undefined ? [] : typeof option === 'string' ? [option] : Array.isArray(option) ? option : [option];
  for (const item of list) {
    if (typeof item !== 'string') throw new OptionsError('allowedHosts', `${EXPECTED_HOSTS}; got ${JSON.stringify(item) ?? String(item)}`);
    for (const raw of item.split(',')) {
      const entry = raw.trim();
      if (entry === '') continue;
      if (entry.toLowerCase() === 'all') {
        any = true;
        continue;
      }
      const domain = entry.startsWith('.');
      const host = normalizeHost(domain ? entry.slice(1) : entry);
      if (host === undefined || (domain && host.startsWith('['))) throw new OptionsError('allowedHosts', `${EXPECTED_HOSTS}; got "${entry}"`);
      if (domain) domains.push(host);
      else hosts.add(host);
    }
  }
  return { any, hosts, domains };
}

/** Whether the admin API answers a request whose `Host` header is `value` (`undefined`: none sent). */
export function isAllowedHost(policy: HostPolicy, value: string | undefined): boolean {
  if (policy.any || value === undefined) return true;
  const host = hostOfHeader(value);
  if (host === 'localhost' || host.endsWith('.localhost') || policy.hosts.has(host)) return true;
  return policy.domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}
