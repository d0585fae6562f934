import { generateKeyPairSync, sign } from 'node:crypto';
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
