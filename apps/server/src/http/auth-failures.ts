import type { Redis } from 'ioredis';

/**
 * Failed authentications per address in fixed windows, so keys cannot be guessed without limit:
 * in process by default, in Redis when several processes answer for the same addresses.
 */
export interface AuthFailures {
  /** Counts one failure; resolves once it is recorded. */
  add(address: string): Promise<void>;
  /** Seconds until the address may try again, or 0 while it has failed fewer than `max` times. */
  blockedFor(address: string): Promise<number>;
}

export function createAuthFailures(max: number, windowMs: number, redis?: Redis): AuthFailures {
  if (redis) {
    const key = (address: string) => `ticket:auth-failures:${address}`;
    return {
      async add(address) {
        // The window starts with the first failure and does not stretch with the next ones.
        await redis.multi().set(key(address), '0', 'PX', windowMs, 'NX').incr(key(address)).exec();
      },
      async blockedFor(address) {
        const [[, count], [, ttl]] = (await redis.multi().get(key(address)).pttl(key(address)).exec()) as [[null, string | null], [null, number]];
        return Number(count ?? 0) >= max && ttl > 0 ? Math.ceil(ttl / 1000) : 0;
      },
    };
  }
  const windows = new Map<string, { count: number; endsAt: number }>();
  return {
    async add(address) {
      const now = Date.now();
      const window = windows.get(address);
      if (window && window.endsAt > now) {
        window.count += 1;
        return;
      }
      // Bounded: the oldest address goes first (Maps iterate in insertion order).
      if (windows.size >= 100_000) windows.delete(windows.keys().next().value as string);
      windows.delete(address);
      windows.set(address, { count: 1, endsAt: now + windowMs });
    },
    async blockedFor(address) {
      const window = windows.get(address);
      const left = window ? window.endsAt - Date.now() : 0;
      return window && left > 0 && window.count >= max ? Math.ceil(left / 1000) : 0;
    },
  };
}
