import { createPublicKey, verify, type KeyObject } from 'node:crypto';

const keys = new Map<string, KeyObject>();

/** The application's Ed25519 public key (hex, as the platform shows it) as a key object. */
function publicKey(hex: string): KeyObject {
  let key = keys.get(hex);
  if (!key) {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
    keys.set(hex, key);
  }
  return key;
}

/**
 * Whether the platform signed this interaction: the signature covers the timestamp header
 * followed by the raw body, exactly as received.
 */
export function isSignedInteraction(publicKeyHex: string, signatureHex: string | undefined, timestamp: string | undefined, rawBody: string): boolean {
  if (!publicKeyHex || !signatureHex || !timestamp || !/^[0-9a-f]{128}$/i.test(signatureHex)) return false;
  try {
    return verify(null, Buffer.from(timestamp + rawBody), publicKey(publicKeyHex), Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

/** How far an interaction's signed timestamp may be from now: older ones are replays. */
export const INTERACTION_MAX_SKEW_SECONDS = 300;

/** Whether the signed timestamp (seconds since the epoch, as the platform sends it) is recent. */
export function isFreshInteraction(timestamp: string | undefined, now = Date.now()): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(now / 1000 - Number(timestamp)) <= INTERACTION_MAX_SKEW_SECONDS;
}
