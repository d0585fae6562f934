import { createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** The application's Ed25519 key pair, with which the platform signs every interaction it sends. */
export interface ApplicationKey {
  /** Lowercase hex of the 32 raw public key bytes: what the developer portal shows as "Public Key". */
  publicKey: string;
  privateKey: KeyObject;
}

export function createApplicationKey(): ApplicationKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  // An Ed25519 JWK's `x` is exactly the raw public key, so no DER/SPKI unwrapping is needed.
  const x = publicKey.export({ format: 'jwk' }).x;
  if (!x) throw new Error('Ed25519 public key without x');
  return { publicKey: Buffer.from(x, 'base64url').toString('hex'), privateKey };
}

/**
 * The `X-Signature-Ed25519` value for a request: Discord signs the timestamp header followed by
 * the raw body bytes, so the receiver must verify before parsing or re-serialising anything.
 */
export function signInteraction(key: ApplicationKey, timestamp: string, rawBody: string): string {
  return sign(null, Buffer.from(timestamp + rawBody), key.privateKey).toString('hex');
}

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410), so a fixed key can live in the fixtures as hex.
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The key pair of a 32-byte seed given as 64 hex characters (a fixture's `privateKey`). */
export function applicationKeyFromSeed(seedHex: string): ApplicationKey {
  if (!/^[0-9a-f]{64}$/i.test(seedHex)) throw new Error('an Ed25519 private key must be 64 hex characters (its 32-byte seed)');
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, Buffer.from(seedHex, 'hex')]), format: 'der', type: 'pkcs8' });
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x;
  if (!x) throw new Error('Ed25519 public key without x');
  return { publicKey: Buffer.from(x, 'base64url').toString('hex'), privateKey };
}

/** The 32-byte seed of the private key as hex, the form `applicationKeyFromSeed` takes. */
export function privateKeyHex(key: ApplicationKey): string {
  const d = key.privateKey.export({ format: 'jwk' }).d;
  if (!d) throw new Error('Ed25519 private key without d');
  return Buffer.from(d, 'base64url').toString('hex');
}
