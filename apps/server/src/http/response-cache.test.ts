import { describe, expect, it } from 'vitest';
import { ResponseCache } from './response-cache';

describe('ResponseCache', () => {
  it('answers only while the version is the same and the answer young enough', () => {
    let now = 0;
    const cache = new ResponseCache(1000, 60_000, () => now);
    cache.set('GET /a', '1', '{"a":1}');
    expect(cache.get('GET /a', '1')?.body).toBe('{"a":1}');
    expect(cache.get('GET /b', '1')).toBeUndefined();
    expect(cache.get('GET /a', '2')).toBeUndefined();
    // A changed version dropped the entry for good.
    expect(cache.get('GET /a', '1')).toBeUndefined();
    cache.set('GET /a', '2', '{"a":2}');
    now = 60_000;
    expect(cache.get('GET /a', '2')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('names each answer by its content: the same text has the same tag, another text another', () => {
    const cache = new ResponseCache(1000, 60_000);
    const first = cache.set('GET /a', '1', '{"a":1}');
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    expect(cache.set('GET /b', '7', '{"a":1}').etag).toBe(first.etag);
    expect(cache.set('GET /a', '2', '{"a":2}').etag).not.toBe(first.etag);
  });

  it('drops the least recently used answers beyond its size, and keeps none too large for it', () => {
    const cache = new ResponseCache(90, 60_000);
    cache.set('a', '1', 'x'.repeat(20));
    cache.set('b', '1', 'x'.repeat(20));
    cache.set('c', '1', 'x'.repeat(20));
    cache.get('a', '1');
    cache.set('d', '1', 'x'.repeat(20));
    cache.set('e', '1', 'x'.repeat(20));
    // 90 characters hold four answers of 20: once 'e' is in, 'b', used least recently, went.
    expect(['a', 'b', 'c', 'd', 'e'].filter((k) => cache.get(k, '1') !== undefined)).toEqual(['a', 'c', 'd', 'e']);
    cache.set('big', '1', 'x'.repeat(26));
    expect(cache.get('big', '1')).toBeUndefined();
    expect(cache.size).toBe(4);
  });
});
