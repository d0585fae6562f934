export const DISCORD_EPOCH = 1420070400000;

/**
 * Ids carry their creation time like Discord's, so clients that sort by id or derive
 * timestamps from ids behave as they would in production.
 */
export function createSnowflakeGenerator(now: () => number): () => string {
  let increment = 0n;
  // Worker 1, process 0: distinguishable from ids minted by real Discord workers is not a goal.
  const worker = 1n << 17n;
  return () => {
    const elapsed = BigInt(Math.max(0, Math.floor(now()) - DISCORD_EPOCH));
    const id = (elapsed << 22n) | worker | (increment & 0xfffn);
    increment += 1n;
    return id.toString();
  };
}

export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> 22n) + DISCORD_EPOCH;
}

export function isSnowflake(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) && BigInt(value) < 2n ** 64n;
}

export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Discord writes timestamps with microseconds and an explicit offset. */
export function discordTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, '000+00:00');
}
