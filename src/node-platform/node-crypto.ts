/**
 * SHA-256 and random ids in Node.js, with `node:crypto` loaded at the first use instead of when the package is
 * imported: most processes that import the package (a test file, `mockrouter/server`, the CLI) hash nothing until
 * a request needs it, and loading `node:crypto` is several milliseconds of an import (`npm run bench`, section 4).
 *
 * @module
 */
import type * as NodeCrypto from 'node:crypto';
import type { BinaryLike } from 'node:crypto';

let crypto: typeof NodeCrypto | undefined;

/** `node:crypto`, loaded synchronously on the first call (`process.getBuiltinModule`, Node.js ≥ 20.16). */
function nodeCrypto(): typeof NodeCrypto {
  return (crypto ??= process.getBuiltinModule('node:crypto'));
}

/**
 * The SHA-256 digest of `data` (bytes, or a string as UTF-8), in `encoding`: `hex` (64 characters) or `base64url`
 * (43 characters).
 */
export function sha256(data: BinaryLike, encoding: 'hex' | 'base64url'): string {
  return nodeCrypto().createHash('sha256').update(data).digest(encoding);
}

/** `bytes` cryptographically random bytes as lowercase hex (2 × `bytes` characters), e.g. an id no other process draws. */
export function randomHex(bytes: number): string {
  return nodeCrypto().randomBytes(bytes).toString('hex');
}
