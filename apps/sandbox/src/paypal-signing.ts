import { generateKeyPairSync, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Names the certificate as PayPal's CERT-URL does; the path is `/v1/notifications/certs/<CERT_ID>`. */
export const CERT_ID = 'CERT-360caa42-fca2a594-5a2e3a05';
export const AUTH_ALGO = 'SHA256withRSA';

interface SigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  certificatePem: string;
}

let key: SigningKey | null = null;

/** One key for every sandbox in the process, as PayPal signs with one certificate: made on first use. */
export function signingKey(): SigningKey {
  if (!key) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    key = { privateKey, publicKey, certificatePem: selfSignedCertificate(privateKey, publicKey) };
  }
  return key;
}

/** The string PayPal signs: `<transmission id>|<transmission time>|<webhook id>|<CRC32 of the body, decimal>`. */
export function signedString(transmissionId: string, transmissionTime: string, webhookId: string, body: string): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(Buffer.from(body, 'utf8'))}`;
}

export function signTransmission(transmissionId: string, transmissionTime: string, webhookId: string, body: string): string {
  return sign('sha256', Buffer.from(signedString(transmissionId, transmissionTime, webhookId, body)), signingKey().privateKey).toString('base64');
}

export function verifyTransmission(transmissionId: string, transmissionTime: string, webhookId: string, body: string, signature: string): boolean {
  const bytes = Buffer.from(signature, 'base64');
  if (bytes.length === 0) return false;
  return verify('sha256', Buffer.from(signedString(transmissionId, transmissionTime, webhookId, body)), signingKey().publicKey, bytes);
}

// Minimal DER, enough for one self-signed X.509 v3 certificate: node:crypto parses certificates but cannot make them.
function der(tag: number, content: Buffer): Buffer {
  const length = content.length;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | bytes.length, ...bytes]), content]);
}

const sequence = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => der(0x31, Buffer.concat(parts));

function integer(value: Buffer): Buffer {
  return der(0x02, value[0] !== undefined && value[0] >= 0x80 ? Buffer.concat([Buffer.from([0]), value]) : value);
}

function objectId(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const chunk = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14) + 'Z';
  return der(0x17, Buffer.from(text, 'ascii'));
}

function name(commonName: string): Buffer {
  const attribute = (oid: string, value: string) => set(sequence(objectId(oid), der(0x0c, Buffer.from(value, 'utf8'))));
  return sequence(
    attribute('2.5.4.6', 'US'),
    attribute('2.5.4.10', 'PayPal, Inc.'),
    attribute('2.5.4.11', 'Sandbox'),
    attribute('2.5.4.3', commonName),
  );
}

function selfSignedCertificate(privateKey: KeyObject, publicKey: KeyObject): string {
  const sha256WithRsa = sequence(objectId('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));
  const subject = name('messageverificationcerts.sandbox.paypal.com');
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.UTC(2049, 11, 31));
  const tbs = sequence(
    der(0xa0, integer(Buffer.from([2]))),
    integer(Buffer.from('0a7b3c9d5e1f2031', 'hex')),
    sha256WithRsa,
    subject,
    sequence(utcTime(notBefore), utcTime(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = sequence(tbs, sha256WithRsa, der(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const base64 = certificate.toString('base64').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${base64.trimEnd()}\n-----END CERTIFICATE-----\n`;
}
