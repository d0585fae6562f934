import { Redis } from 'ioredis';

/** A TTL cache for platform data: in process by default, Redis when several instances share it. */
export interface Cache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryCache(maxEntries = 10_000): Cache {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  return {
    async get<T>(key: string) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    async set(key, value, ttlSeconds) {
      // Maps iterate in insertion order, so the first key is the oldest write.
      if (entries.size >= maxEntries && !entries.has(key)) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    },
    async delete(key) {
      entries.delete(key);
    },
    async close() {
      entries.clear();
    },
  };
}

export function createRedisCache(url: string, prefix = 'ticket:'): Cache {
  const redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 2, keyPrefix: prefix });
  return {
    async get<T>(key: string) {
      const raw = await redis.get(key);
      return raw === null ? undefined : (JSON.parse(raw) as T);
    },
    async set(key, value, ttlSeconds) {
      await redis.set(key, JSON.stringify(value), 'EX', Math.max(1, ttlSeconds));
    },
    async delete(key) {
      await redis.del(key);
    },
    async close() {
      await redis.quit();
    },
  };
}

/**
 * Reads through the cache; concurrent misses of one key share a single load so a burst of
 * dashboard requests costs the platform one call.
 */
export function createLoader(cache: Cache) {
  const inFlight = new Map<string, Promise<unknown>>();
  return async function load<T>(key: string, ttlSeconds: number, fetch: () => Promise<T>, fresh = false): Promise<T> {
    if (!fresh) {
      const hit = await cache.get<T>(key);
      if (hit !== undefined) return hit;
      const pending = inFlight.get(key);
      if (pending) return pending as Promise<T>;
    }
    const promise = fetch()
      .then(async (value) => {
        await cache.set(key, value, ttlSeconds);
        return value;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
    return promise;
  };
}
export type Loader = ReturnType<typeof createLoader>;
