import { describe, expect, it } from 'vitest';
import { assertPublicHost, isPublicAddress } from './public-address';
import { endpointUrlProblem, webhookSignature } from './webhook-sender';

describe('public addresses', () => {
  it('refuses private, loopback, link-local, shared, multicast, documentation and other reserved ranges', () => {
    for (const address of [
      '0.0.0.0',
      '10.0.0.1',
      '100.64.1.1',
      '127.0.0.1',
      '127.255.255.254',
      '169.254.169.254',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.2.10',
      '192.168.1.1',
      '198.18.0.1',
      '203.0.113.7',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      '::ffff:127.0.0.1',
      '::ffff:a00:1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('lets public addresses through, mapped and translated ones by their IPv4 part', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });

  it('judges a name by every address it resolves to', async () => {
    await expect(assertPublicHost('localhost')).rejects.toThrow(/The host localhost resolves to .*reserved address/);
    await expect(assertPublicHost('[::1]')).rejects.toThrow(/::1 is a private/);
    await expect(assertPublicHost('93.184.216.34')).resolves.toBeUndefined();
  });

  it('allows https endpoints only, without credentials, unless the configuration says otherwise', async () => {
    const strict = { allowPrivate: false, allowHttp: false };
    expect(await endpointUrlProblem('http://93.184.216.34/hook', strict)).toBe('Must be an https:// URL');
    expect(await endpointUrlProblem('https://me:secret@93.184.216.34/hook', strict)).toBe('Must not contain a user name or password');
    expect(await endpointUrlProblem('https://93.184.216.34/hook', strict)).toBeNull();
    expect(await endpointUrlProblem('https://10.0.0.1/hook', strict)).toMatch(/reserved address/);
    expect(await endpointUrlProblem('http://127.0.0.1:8080/hook', { allowPrivate: true, allowHttp: true })).toBeNull();
  });
});

describe('webhook signatures', () => {
  it('are v1= and the hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret', () => {
    // printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(webhookSignature('whsec_test', 1700000000, '{"a":1}')).toBe('v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
  });
});
