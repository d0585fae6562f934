import { randomUUID } from 'node:crypto';
import { API_KEY_CALL_RETENTION, type ApiKeyCall, type ApiKeyCallsQuery, type PagedResult } from '@ticket/contracts';
import type { Kysely } from 'kysely';
import { toTimestamp } from '../../db/database';
import type { ApiKeyCallsTable, DB } from '../../db/schema';
import * as repo from './repository';

/** One call made with a server's API key, as the HTTP layer saw it. */
export interface ApiKeyCallRecord {
  serverId: string;
  keyPrefix: string;
  at: Date;
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  rateLimited: boolean;
}

export interface ApiKeyCallLogOptions {
  /** Buffered calls are written at the latest this long after the first of them. */
  flushMs?: number;
  /** A buffer this full is written at once. */
  flushAt?: number;
  /** A server's calls are pruned at most this often (after a write). */
  pruneEveryMs?: number;
  retentionDays?: number;
  perServer?: number;
  onError?: (error: unknown) => void;
}

/** Longest route or path kept: no real route comes near it, and a made-up one cannot fill the table. */
const MAX_PATH = 512;
/** Calls held while the database does not answer; past it the oldest go, so memory stays bounded. */
const MAX_BUFFERED = 10_000;

/**
 * Records API key calls without holding up their answers: calls are buffered and written in
 * batches, and `close` writes what is left, so a normal shutdown loses none. Each write prunes the
 * servers it touched (by age and by count), at most once per `pruneEveryMs` each.
 */
export class ApiKeyCallLog {
  private buffer: ApiKeyCallsTable[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly prunedAt = new Map<string, number>();
  /** Orders calls that arrived in the same millisecond as they were recorded (ids sort after `at`). */
  private sequence = 0;
  private readonly flushMs: number;
  private readonly flushAt: number;
  private readonly pruneEveryMs: number;
  readonly retentionDays: number;
  readonly perServer: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly db: Kysely<DB>,
    options: ApiKeyCallLogOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 1000;
    this.flushAt = options.flushAt ?? 200;
    this.pruneEveryMs = options.pruneEveryMs ?? 60_000;
    this.retentionDays = options.retentionDays ?? API_KEY_CALL_RETENTION.days;
    this.perServer = options.perServer ?? API_KEY_CALL_RETENTION.perServer;
    this.onError = options.onError ?? (() => undefined);
  }

  record(call: ApiKeyCallRecord): void {
    this.buffer.push({
      id: `${String(++this.sequence).padStart(12, '0')}-${randomUUID()}`,
      server_id: call.serverId,
      key_prefix: call.keyPrefix,
      at: toTimestamp(call.at),
      method: call.method,
      route: call.route.slice(0, MAX_PATH),
      path: call.path.slice(0, MAX_PATH),
      status: call.status,
      duration_ms: Math.max(0, Math.round(call.durationMs * 100) / 100),
      rate_limited: call.rateLimited ? 1 : 0,
    });
    if (this.buffer.length > MAX_BUFFERED) this.buffer.splice(0, this.buffer.length - MAX_BUFFERED);
    if (this.buffer.length >= this.flushAt) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes every call recorded so far; resolves once they are stored. Writes never overlap. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** Writes what is left; nothing recorded before this call is lost. */
  async close(): Promise<void> {
    await this.flush();
  }

  /** The oldest time a call is kept from. */
  keptSince(now = Date.now()): string {
    return toTimestamp(now - this.retentionDays * 86_400_000);
  }

  /** The server's calls, newest first: those recorded in this process so far included. */
  async list(serverId: string, query: ApiKeyCallsQuery): Promise<PagedResult<ApiKeyCall>> {
    await this.flush();
    const offset = (query.Page - 1) * query.Amount;
    const { rows, total } = await repo.listApiKeyCalls(this.db, serverId, this.keptSince(), query.status, { offset, limit: query.Amount });
    // Between two prunes a busy key may pass the bound for a moment: what is past it is not shown.
    const shown = Math.min(total, this.perServer);
    return {
      page: query.Page,
      maxPage: Math.max(1, Math.ceil(shown / query.Amount)),
      elements: rows.slice(0, Math.max(0, shown - offset)).map(toApiKeyCall),
    };
  }

  /** Removes every server's calls past the retention (servers whose key is no longer used included). */
  async sweep(): Promise<number> {
    return repo.deleteApiKeyCallsBefore(this.db, this.keptSince());
  }

  private async write(batch: ApiKeyCallsTable[]): Promise<void> {
    try {
      await repo.insertApiKeyCalls(this.db, batch);
      const now = Date.now();
      for (const serverId of new Set(batch.map((c) => c.server_id))) {
        if ((this.prunedAt.get(serverId) ?? 0) + this.pruneEveryMs > now) continue;
        // Bounded: past 10,000 servers it starts again from nothing (they are pruned again, no harm).
        if (this.prunedAt.size >= 10_000) this.prunedAt.clear();
        this.prunedAt.set(serverId, now);
        await repo.pruneApiKeyCalls(this.db, serverId, this.keptSince(now), this.perServer);
      }
    } catch (error) {
      this.onError(error);
    }
  }
}

function toApiKeyCall(row: ApiKeyCallsTable): ApiKeyCall {
  return {
    at: row.at,
    method: row.method,
    route: row.route,
    path: row.path,
    status: row.status,
    durationMs: Number(row.duration_ms),
    keyPrefix: row.key_prefix,
    rateLimited: row.rate_limited === 1,
  };
}
