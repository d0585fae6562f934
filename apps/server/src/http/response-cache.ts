/**
 * Answers of read routes, kept as the JSON text that was sent, each with the version of the data it
 * was computed from. An answer is served again only while the route's data still has that version
 * (the caller asks the database for it: a primary-key read) and for at most `ttlMs`, the age that
 * data from the chat platform in it (names, avatars) may reach anyway. Least recently used answers
 * go first once the texts pass `maxChars` in all.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { version: string; body: string; expiresAt: number }>();
  private chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string, version: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || entry.expiresAt <= this.clock()) {
      this.remove(key);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  set(key: string, version: string, body: string): void {
    if (body.length > this.maxChars / 4) return;
    this.remove(key);
    this.entries.set(key, { version, body, expiresAt: this.clock() + this.ttlMs });
    this.chars += body.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.remove(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.chars -= entry.body.length;
    this.entries.delete(key);
  }
}
