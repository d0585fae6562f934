import { createHash } from 'node:crypto';

/** An answer as it was sent, and the entity tag that names its content. */
export interface CachedAnswer {
  body: string;
  etag: string;
}

/**
 * Answers of read routes, kept as the JSON text that was sent, each with the version of the data it
 * was computed from. An answer is served again only while the route's data still has that version
 * (the caller asks the database for it: a primary-key read) and for at most `ttlMs`, the age that
 * data from the chat platform in it (names, avatars) may reach anyway. Least recently used answers
 * go first once the texts pass `maxChars` in all.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { version: string; answer: CachedAnswer; expiresAt: number }>();
  private chars = 0;

  constructor(
    private readonly maxChars: number,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string, version: string): CachedAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || entry.expiresAt <= this.clock()) {
      this.remove(key);
      return undefined;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  /** Keeps the answer (unless it is too large for the cache), and tells its entity tag either way. */
  set(key: string, version: string, body: string): CachedAnswer {
    const answer = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
    if (body.length > this.maxChars / 4) return answer;
    this.remove(key);
    this.entries.set(key, { version, answer, expiresAt: this.clock() + this.ttlMs });
    this.chars += body.length;
    for (const [oldest] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.remove(oldest);
    }
    return answer;
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.chars -= entry.answer.body.length;
    this.entries.delete(key);
  }
}
