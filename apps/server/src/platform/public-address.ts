import dns, { type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Addresses a request on a customer's behalf (an outgoing webhook) must never reach: private,
 * loopback, link-local, shared, multicast, documentation and other special-purpose ranges of the
 * IANA registries. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are judged by their IPv4 part.
 */
const V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const V6: [string, number][] = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const RESERVED = new BlockList();
for (const [net, prefix] of V4) RESERVED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) RESERVED.addSubnet(net, prefix, 'ipv6');
const NAT64 = new BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');

/** The IPv4 address in the last 32 bits of an IPv6 address (its NAT64 translation). */
function lastV4(address: string): string | null {
  const url = new URL(`http://[${address}]/`).hostname.slice(1, -1); // normalised, compressed form
  const tail = url.split(':').slice(-2);
  if (tail.length < 2) return null;
  const [high, low] = tail.map((part) => Number.parseInt(part || '0', 16)) as [number, number];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address (v4 or v6, without brackets) may be reached. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !RESERVED.check(address, 'ipv4');
  if (RESERVED.check(address, 'ipv6')) return false;
  if (NAT64.check(address, 'ipv6')) {
    const v4 = lastV4(address);
    return v4 !== null && isIPv4(v4) && !RESERVED.check(v4, 'ipv4');
  }
  return true;
}

/** A host refused because of where it is (or where it resolves to), in words for the person who gave it. */
export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/** The URL's host without IPv6 brackets. */
export const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

const refusal = (host: string, address: string) =>
  new AddressRefused(
    host === address
      ? `${address} is a private, loopback, link-local or otherwise reserved address`
      : `The host ${host} resolves to ${address}, a private, loopback, link-local or otherwise reserved address`,
  );

/**
 * Resolves the host and refuses it unless every address it has is public. An IP literal is judged
 * as it is. `timeoutMs` bounds the resolver (which has no timeout of its own).
 */
export async function assertPublicHost(hostname: string, timeoutMs = 5_000): Promise<void> {
  const host = bareHost(hostname);
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw refusal(host, host);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    dns.promises.lookup(host, { all: true, verbatim: true }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AddressRefused(`The host ${host} could not be resolved in time`)), timeoutMs);
    }),
  ])
    .catch((error: unknown) => {
      if (error instanceof AddressRefused) throw error;
      throw new AddressRefused(`The host ${host} could not be resolved`);
    })
    .finally(() => clearTimeout(timer));
  const reserved = addresses.find((a) => !isPublicAddress(a.address));
  if (reserved) throw refusal(host, reserved.address);
  if (addresses.length === 0) throw new AddressRefused(`The host ${host} could not be resolved`);
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that refuses reserved addresses at the moment of connecting: the
 * addresses checked are the ones connected to, so a DNS answer that changes between a check and
 * the request (rebinding) cannot slip a private address in.
 */
export function publicOnlyLookup(hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const reserved = addresses.find((a) => !isPublicAddress(a.address));
    if (reserved) return callback(refusal(hostname, reserved.address) as NodeJS.ErrnoException, []);
    if (addresses.length === 0) return callback(Object.assign(new Error(`The host ${hostname} could not be resolved`), { code: 'ENOTFOUND' }), []);
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    const first = addresses[0]!;
    return callback(null, first.address, first.family);
  });
}
