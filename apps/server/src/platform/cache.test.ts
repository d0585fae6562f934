import { describe, expect, it } from 'vitest';
import { createLoader, createMemoryCache, createRedisCache, type Cache } from './cache';

const kinds: [string, () => Cache][] = [['memory', () => createMemoryCache()]];
if (process.env.TEST_REDIS_URL) kinds.push(['redis', () => createRedisCache(process.env.TEST_REDIS_URL!, `test:${Date.now()}:`)]);

describe.each(kinds)('%s cache', (_name, make) => {
  it('keeps a value until its TTL and forgets it after', async () => {
    const cache = make();
    await cache.set('k', { a: 1 }, 1);
    expect(await cache.get('k')).toEqual({ a: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await cache.get('k')).toBeUndefined();
    await cache.close();
  });

  it('loads a missing key once for concurrent readers, and again when fresh is asked', async () => {
    const cache = make();
    const load = createLoader(cache);
    let calls = 0;
    const fetch = async () => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 20));
      return calls;
    };
    const results = await Promise.all([load('x', 60, fetch), load('x', 60, fetch), load('x', 60, fetch)]);
    expect(results).toEqual([1, 1, 1]);
    expect(await load('x', 60, fetch)).toBe(1);
    expect(await load('x', 60, fetch, true)).toBe(2);
    await cache.close();
  });
});
